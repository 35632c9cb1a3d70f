"""A game's mail is its whole truth: replaying the stored messages rebuilds it exactly."""

from __future__ import annotations

import random
import shutil
import tempfile
from pathlib import Path

from payjudge.service.replay import replay
from payjudge.store.db import Database, upgrade

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
        target.dispose()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_replay_does_not_process_a_phase_earlier_than_the_game_did(database):
    """Found by the simulator (seed 50): the Master's PROCESS! opens a phase nobody has to
    order for (Exchange: no company has a CEO yet), so it could run at once; the game ran it
    only at a later tick, after an investor's sheet. The replay ticked at the moment of the
    PROCESS! as well, ran the phase there, and the sheet fell into the next phase."""
    judge = TestJudge(database)
    gm = "gm@pj.test"
    judge.send(gm, "CREATE ex5 masterpw\nRULE EXCHANGE\nINVESTORS 2\nCAPITAL 50\nSIGNOFF\n")
    for name in ("alice", "bob"):
        judge.send(f"{name}@pj.test", f"JOIN {name}@ex5 pw-{name}\n")
    judge.send(gm, "SIGNON Mex5 masterpw\nPROCESS!\n")
    assert "now active, in Spring 1901 Movement" in judge.last_reply(gm)
    judge.send("alice@pj.test", "SIGNON alice@ex5 pw-alice\n3 : A PAR - BUR\n")
    assert "Spring 1901 Movement" in judge.last_reply("alice@pj.test")
    judge.tick(hours=1)
    folder = Path(tempfile.mkdtemp())
    try:
        url = f"sqlite:///{folder / 'replay.sqlite'}"
        upgrade(url)
        target = Database(url)
        report = replay(database, target, "ex5", judge.config)
        target.dispose()
        assert report.ok, report.differences
    finally:
        shutil.rmtree(folder, ignore_errors=True)
