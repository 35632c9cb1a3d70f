"""Issue 12 item 4 for Tin Cup: a BLIND Payola game's ledger stays exact through a ROLLBACK,
and its mail replays into the same game (vassals and Exchange check the same in their own
game tests)."""

from __future__ import annotations

import random
import shutil
import tempfile
from pathlib import Path

from payjudge.service.replay import replay
from payjudge.store.db import Database
from tests.dbfix import migrated_sqlite

from .judge import TestJudge
from .test_game import GM, play_phase, snapshot, start_game


def test_a_tin_cup_game_rolls_back_exactly_and_replays_from_its_mail(database):
    judge = TestJudge(database)
    rng = random.Random(11)
    start_game(judge, rules="BLIND UNITS_SEE_SAME OWN_SCS_SEE")
    for _ in range(4):
        play_phase(judge, rng, "t")
        judge.tick(days=3)
    _pos, balances, state, phase = snapshot(judge)
    play_phase(judge, rng, "t")
    judge.tick(days=3)
    assert snapshot(judge)[3] != phase
    judge.send(GM, f"SIGNON Mpay7 masterpw\nROLLBACK {phase}\n")
    # the phase is open again, with the money it had: the rollback's new entries undo it
    assert snapshot(judge)[1:] == (balances, state, phase)
    folder = Path(tempfile.mkdtemp())
    try:
        url = migrated_sqlite(folder / "replay.sqlite")
        target = Database(url)
        report = replay(database, target, "pay7", judge.config)
        assert report.ok, report.differences
        assert report.phases >= 5 and report.identical == report.phases
        target.dispose()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
