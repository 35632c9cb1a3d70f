"""A game's mail is its whole truth: replaying the stored messages rebuilds it exactly."""

from __future__ import annotations

import random
import shutil
import tempfile
from pathlib import Path

from sqlalchemy import select

from payjudge.service.replay import replay
from payjudge.store.db import Database, upgrade
from payjudge.store.models import Observer

from .judge import TestJudge
from .test_game import play_phase, snapshot, start_game


def test_replay_rebuilds_the_game(database):
    judge = TestJudge(database)
    rng = random.Random(7)
    start_game(judge)
    judge.send("france@pj.test", "SIGNON Fpay7 pw-france\nACCEPT F?\nTRANSFER 3 TO ITALY\n")
    for _ in range(5):
        play_phase(judge, rng, "r")
        judge.tick(days=3)
    judge.send("gm@pj.test", "SIGNON Mpay7 masterpw\nROLLBACK\n")
    assert snapshot(judge)[2] == "active"
    folder = Path(tempfile.mkdtemp())
    try:
        url = f"sqlite:///{folder / 'replay.sqlite'}"
        upgrade(url)
        target = Database(url)
        report = replay(database, target, "pay7", judge.config)
        assert report.ok, report.differences
        assert report.phases >= 6 and report.identical == report.phases
        with target.reading() as s:  # the observer's code is made again, and its CONFIRM holds
            [(name, confirmed)] = s.execute(select(Observer.name, Observer.confirmed_at)).all()
            assert name == "KIBITZ" and confirmed is not None
        target.dispose()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
