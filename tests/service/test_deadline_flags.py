"""Deadline flags (seed 003, 1.7 and 1.9) through mail and the deadline tick."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from payjudge.game.state import find_game

from .judge import TestJudge
from .test_game import GM, POWERS, addr, signon, snapshot, start_game


def _unit(judge: TestJudge, power: str) -> str:
    return str(snapshot(judge)[0].units[power][0])


def _deadline(judge: TestJudge):
    with judge.db.transaction() as s:
        return find_game(s, "pay7").deadline


def _late_change(judge: TestJudge, rules: str) -> str:
    start_game(judge, rules=rules)
    unit = _unit(judge, "FRANCE")
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\n0 : {unit} H\n")
    judge.clock.current = _deadline(judge) + timedelta(minutes=5)
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\n3 : {unit} H\n")
    return judge.last_reply(addr("FRANCE"))


def test_no_late_changes_refuses_a_change_after_the_deadline(database):
    reply = _late_change(TestJudge(database), "NO_LATE_CHANGES")
    assert "NO_LATE_CHANGES: orders already sent can no longer be changed" in reply


def test_no_late_changes_refuses_clear_but_not_first_orders_nor_the_master(database):
    judge = TestJudge(database)
    _late_change(judge, "NO_LATE_CHANGES")
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\nCLEAR\n")
    assert "can no longer be changed" in judge.last_reply(addr("FRANCE"))
    judge.send(addr("ENGLAND"), f"{signon('ENGLAND')}\n0 : {_unit(judge, 'ENGLAND')} H\n")
    assert "can no longer be changed" not in judge.last_reply(addr("ENGLAND"))
    judge.send(GM, f"SIGNON Mpay7 masterpw\nFOR FRANCE\n2 : {_unit(judge, 'FRANCE')} H\n")
    assert "can no longer be changed" not in judge.last_reply(GM)


def test_civil_disorder_brings_no_late_changes(database):
    reply = _late_change(TestJudge(database), "CIVIL_DISORDER")
    assert "can no longer be changed" in reply


def test_late_changes_countermands_civil_disorder(database):
    reply = _late_change(TestJudge(database), "CIVIL_DISORDER LATE_CHANGES")
    assert "can no longer be changed" not in reply


def test_by_default_orders_may_change_after_the_deadline(database):
    reply = _late_change(TestJudge(database), "")
    assert "can no longer be changed" not in reply
