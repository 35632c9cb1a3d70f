"""A game's mail is its whole truth: replaying the stored messages rebuilds it exactly."""

from __future__ import annotations

import random
import shutil
import tempfile
from pathlib import Path

from sqlalchemy import select

from payjudge.service.replay import replay
from payjudge.store.db import Database
from payjudge.store.models import Observer
from tests.dbfix import migrated_sqlite

from .judge import TestJudge
from .test_game import POWERS, addr, play_phase, signon, snapshot, start_game


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
        url = migrated_sqlite(folder / "replay.sqlite")
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
    report = judge.replay("ex5")
    assert report.ok, report.differences


def test_replay_keeps_the_mail_of_a_phase_later_rolled_back(database):
    """Spring is processed by the deadline path; France then sends a Fall sheet; the Master rolls
    Spring back and processes it again. The replay must process Spring at its first
    deadline too, or France's Fall sheet lands in Spring and moves A PAR."""
    judge = TestJudge(database)
    start_game(judge)
    pos = snapshot(judge)[0]
    for p in POWERS:  # every unit holds: Spring is ready, and the next tick processes it
        holds = "\n".join(f"0 : {unit} H" for owner, unit in pos.all_units() if owner == p)
        judge.send(addr(p), f"{signon(p)}\n{holds}\n")
    judge.tick(minutes=1)
    assert snapshot(judge)[3] == "F1901M"
    judge.send("france@pj.test", "SIGNON Fpay7 pw-france\n9 : A PAR - BUR\n")
    judge.send("gm@pj.test", "SIGNON Mpay7 masterpw\nROLLBACK S1901M\n")
    assert snapshot(judge)[3] == "S1901M"
    judge.send("gm@pj.test", "SIGNON Mpay7 masterpw\nPROCESS!\n")
    assert snapshot(judge)[3] == "F1901M"
    report = judge.replay("pay7")
    assert report.ok, report.differences


def test_replay_processes_a_phase_at_its_first_deadline_before_a_rollback(database):
    """Found by the simulator (seed 1539): Spring is processed at its deadline (Italy had
    SET WAIT), rolled back, and processed again early. The replay knew only the second
    moment (the rollback reopens the turn), so it never processed Spring the first time:
    the ROLLBACK met an open phase, Italy's WAIT stayed, and Spring stayed open."""
    judge = TestJudge(database)
    start_game(judge)
    pos = snapshot(judge)[0]

    def holds() -> None:
        for p in POWERS:
            lines = "\n".join(f"0 : {unit} H" for owner, unit in pos.all_units() if owner == p)
            judge.send(addr(p), f"{signon(p)}\n{lines}\n")

    holds()
    judge.send(addr("ITALY"), f"{signon('ITALY')}\nSET WAIT\n")
    judge.tick(days=5)  # the deadline (twice the 2 days): processed despite the WAIT
    assert snapshot(judge)[3] == "F1901M"
    judge.send("gm@pj.test", "SIGNON Mpay7 masterpw\nROLLBACK S1901M\n")
    holds()
    judge.tick(minutes=1)  # every power has ordered and nobody waits: processed early
    assert snapshot(judge)[3] == "F1901M"
    report = judge.replay("pay7")
    assert report.ok, report.differences
