"""What new players and Masters stumbled on (issue 8 item 16): province suggestions, one
way of naming phases, the sheets of the phase a draw interrupts, and the reply to the
vote that ends the game."""

from __future__ import annotations

import re

from .judge import TestJudge
from .test_game import GM, OBSERVER, POWERS, addr, signon, snapshot, start_game

MASTER = "SIGNON Mpay7 masterpw\n"
PHASE_CODE = re.compile(r"\b[SFW]\d{4}[MRA]\b")


def test_an_unknown_province_gets_the_nearest_names_suggested(database):
    judge = TestJudge(database)
    start_game(judge)
    judge.send(addr("ENGLAND"), f"{signon('ENGLAND')}\n5 : A LIV - YOR\n3 : F LON - NTH | - ENC\n")
    reply = " ".join(judge.last_reply(addr("ENGLAND")).split())
    assert "unknown word 'LIV' (expected a province; did you mean LVN or LVP?)" in reply
    assert "did you mean ENG?" in reply


def test_every_mail_names_phases_one_way(database):
    judge = TestJudge(database)
    start_game(judge)
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\n5 : A PAR - BUR\nBALANCE\nSET WAIT\n")
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\nCLEAR\n5 : A PAR - BUR\nBROADCAST\nhi\nENDPRESS\n")
    judge.send(GM, f"{MASTER}SET DEADLINE 2026-12-24 18:00\nPREVIEW\n")
    judge.send(GM, f"{MASTER}PROCESS!\n")
    judge.send(GM, f"{MASTER}ROLLBACK\n")
    judge.send(addr("FRANCE"), "SUMMARY pay7\nHISTORY pay7\nLIST\n")
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\nBALANCE\n")
    bodies = [(m.subject, m.body) for m in judge.sent]
    assert any("Spring 1901 Movement" in body for _, body in bodies)
    for subject, body in bodies:
        assert not PHASE_CODE.search(body), (subject, PHASE_CODE.findall(body))
        assert "1901 movement" not in body, subject


def test_a_draw_publishes_the_unfinished_phase_and_the_last_vote_says_the_game_ended(database):
    judge = TestJudge(database)
    start_game(judge)
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\n7 : A PAR - BUR % unsent-plan\nACCEPT FGE?\n")
    for p in POWERS[:-1]:
        judge.send(addr(p), f"{signon(p)}\nVOTE DRAW\n")
        assert "is over" not in judge.last_reply(addr(p))
    judge.send(addr(POWERS[-1]), f"{signon(POWERS[-1])}\nVOTE DRAW\n")
    assert snapshot(judge)[2] == "completed"
    reply = " ".join(judge.last_reply(addr(POWERS[-1])).split())
    assert "Game pay7 is over: a draw between AUSTRIA, ENGLAND, FRANCE" in reply
    [end] = [m for m in judge.inbox(OBSERVER) if m.kind == "game_end"]
    assert "==== Spring 1901 Movement (not processed: the game ended first) ====" in end.body
    assert "7 : A PAR - BUR % unsent-plan" in end.body
    assert "Acceptance list of FRANCE: FGE?" in end.body
