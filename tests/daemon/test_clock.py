"""The daemon's game clock with many games: what a deadline job and the first refresh
read and set (no timing: which rows are read, which jobs exist when)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from payjudge import daemon
from payjudge.config import Config
from payjudge.memory import SystemClock
from payjudge.store import repo
from payjudge.store.db import Database
from tests.daemon.builder import build_ready_games
from tests.daemon.harness import JUDGE


class _Sender:
    def wake(self) -> None:
        pass


def _clock(tmp_path, names):
    url = f"sqlite:///{tmp_path / 'clock.sqlite'}"
    db = Database(url)
    db.upgrade()
    build_ready_games(url, names, sheets=False)
    with db.transaction() as s:  # deadlines to come, a day apart (not yet due)
        for i, name in enumerate(names):
            game = repo.game_by_name(s, name)
            game.deadline = datetime.now(UTC) + timedelta(days=1 + i)
    scheduler = AsyncIOScheduler(timezone="UTC")
    config = Config(judge_address=JUDGE, settle_seconds=3600)
    return db, scheduler, daemon._GameClock(db, config, SystemClock(), scheduler, _Sender())


def test_a_deadline_job_reads_its_own_game_only(tmp_path, monkeypatch):
    db, _scheduler, clock = _clock(tmp_path, ["one", "two", "three"])
    reads: list[object] = []
    keys = repo.active_game_keys
    monkeypatch.setattr(repo, "active_game_keys", lambda s, only=None: reads.append(only) or keys(s, only))

    async def run() -> int:
        await clock.refresh(tick=True)
        reads.clear()
        gid = next(iter(clock._planned))
        await clock.deadline(gid)
        return gid

    gid = asyncio.run(run())
    assert reads == [[gid]]
    assert len(clock._planned) == 3  # the other games keep their jobs
    db.dispose()


def test_the_first_refresh_sets_the_jobs_before_ticking_every_game(tmp_path, monkeypatch):
    db, _scheduler, clock = _clock(tmp_path, ["one", "two", "three"])
    jobs_at_tick: list[int] = []
    tick = clock._tick
    monkeypatch.setattr(
        clock, "_tick", lambda ids, now: jobs_at_tick.append(len(clock._planned)) or tick(ids, now)
    )
    asyncio.run(clock.refresh(tick=True))
    assert jobs_at_tick == [3]  # every game's deadline job was there while they were ticked
    db.dispose()
