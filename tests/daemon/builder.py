"""Games set up in-process, straight into the daemon's database (the same service code
the daemon runs, without SMTP), for tests that need many games ready at once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from . import script as g
from .harness import JUDGE


class _WallClock:
    """The real time, for TestJudge (which would move a FixedClock on by a second per
    message and so date the outbox mail in the future)."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    def advance(self, **kwargs) -> datetime:
        return self.now()


def build_ready_games(
    db_url: str,
    names: list[str],
    *,
    sheets: bool = True,
    cheap_hashes: bool = True,
    timing: str | None = None,
) -> None:
    """Create each game, fill its seven seats, and (with `sheets`) put every power's
    Spring 1901 sheet in, so the phase is ready to process. Nothing is ticked: the
    phase waits for a daemon."""
    from argon2 import PasswordHasher

    from payjudge.config import Config
    from payjudge.game import security
    from payjudge.store.db import Database
    from tests.service.judge import TestJudge

    db = Database(db_url)
    # cheap hashes while building (each hash names its own parameters, so the daemon
    # checks them as usual): the set-up of many games stays quick
    strong = security._hasher
    if cheap_hashes:
        security._hasher = PasswordHasher(time_cost=1, memory_cost=64, parallelism=1)
    try:
        judge = TestJudge(
            db,
            # one Master creates every game: no CREATE limit (it has tests of its own)
            Config(
                judge_address=JUDGE,
                settle_seconds=0,
                rate_limit_per_hour=1_000_000,
                create_per_sender_per_hour=0,
                create_per_hour=0,
            ),
            _WallClock(),
        )
        for name in names:
            judge.send(g.MASTER, g.create_body(name, **({"timing": timing} if timing else {})), process=False)
            for power in g.POWERS:
                judge.send(g.address(power), g.join_body(power, name), process=False)
            if sheets:
                for power, lines in g.SPRING_1901.items():
                    judge.send(g.address(power), g.sheet_body(power, lines, name), process=False)
        judge.process()
        problems = [m for m in judge.sent if m.kind == "reply" and "NOT processed" in m.body]
        assert not problems, problems[0].body
    finally:
        security._hasher = strong
        db.dispose()


def set_deadlines(
    db_url: str, names: list[str], first: datetime, spread: timedelta = timedelta(0)
) -> dict[str, datetime]:
    """Move the games' deadlines: the first at `first`, the others `spread` apart."""
    from sqlalchemy import create_engine, text

    engine = create_engine(db_url)
    out = {}
    try:
        with engine.begin() as conn:
            for i, name in enumerate(names):
                when = first + spread * i
                value = when if engine.dialect.name != "sqlite" else when.astimezone(UTC).replace(tzinfo=None)
                conn.execute(
                    text("UPDATE game SET deadline = :d, version = version + 1 WHERE name = :n"),
                    {"d": value, "n": name},
                )
                out[name] = when
    finally:
        engine.dispose()
    return out
