"""ALWAYS_CONFIRM (seed 003, 1.3): the Master is copied on every order update, and on
nothing else a player writes."""

from __future__ import annotations

from .judge import TestJudge
from .test_game import GM, addr, signon, snapshot, start_game


def _unit(judge: TestJudge, power: str) -> str:
    return str(snapshot(judge)[0].units[power][0])


def _copies(judge: TestJudge) -> list[str]:
    return [m.body for m in judge.sent if m.to == (GM,) and "ALWAYS_CONFIRM" in m.subject]


def test_the_master_gets_the_order_lines_of_each_update(database):
    judge = TestJudge(database)
    start_game(judge, rules="ALWAYS_CONFIRM")
    judge.sent.clear()
    unit = _unit(judge, "FRANCE")
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\nPRESS TO G\nsecret plans\nENDPRESS\n3 : {unit} H\n")
    (copy,) = _copies(judge)
    assert f"3 : {unit} H" in copy and "FRANCE sent an order update" in copy
    assert "secret plans" not in copy and "PRESS" not in copy
    assert signon("FRANCE").split()[-1] not in copy  # never the password
    judge.sent.clear()
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\n3 : {unit} - NOWHERE\n")
    (copy,) = _copies(judge)
    assert "NOWHERE" in copy and "nothing in the message" in copy
    judge.sent.clear()
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\nCLEAR\n")
    (copy,) = _copies(judge)
    assert "CLEAR" in copy


def test_no_copy_without_the_flag(database):
    judge = TestJudge(database)
    start_game(judge, rules="")
    judge.sent.clear()
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\n3 : {_unit(judge, 'FRANCE')} H\n")
    assert _copies(judge) == []


def test_no_copy_of_the_masters_own_orders(database):
    judge = TestJudge(database)
    start_game(judge, rules="ALWAYS_CONFIRM")
    judge.sent.clear()
    judge.send(GM, f"SIGNON Mpay7 masterpw\nFOR FRANCE\n3 : {_unit(judge, 'FRANCE')} H\n")
    assert "FRANCE" in judge.last_reply(GM)
    assert _copies(judge) == []
