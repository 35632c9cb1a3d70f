"""How a game ends, by mail: TERMINATE publishes like any other end, the conclusion flags of
seed 003 §1.10 (NO_DRAW, NO_EOG, HOLD_WIN, VICTORY_HOMES, SHARED_VICTORY), PUBLIC_TOTALS in
the results, and the answers CREATE gives to the flags of §3.1 and to the web-only ones."""

from __future__ import annotations

import pytest

from .judge import TestJudge
from .test_game import GM, OBSERVER, POWERS, addr, signon, snapshot, start_game

MASTER = "SIGNON Mpay7 masterpw"


def _play_spring(judge: TestJudge) -> None:
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\n3 : A PAR - BUR % plan-of-france\nACCEPT FGE?\n")
    judge.send(addr("ENGLAND"), f"{signon('ENGLAND')}\n2 : A PAR - PIC % plan-of-england\n")
    judge.send(GM, f"{MASTER}\nPROCESS!\n")
    assert snapshot(judge)[3] == "F1901M"


def _end_mail(judge: TestJudge, address: str = OBSERVER):
    [end] = [m for m in judge.inbox(address) if m.kind == "game_end"]
    return end.body


def test_terminate_publishes_every_sheet_list_and_bid_chart(database):
    judge = TestJudge(database)
    start_game(judge)
    _play_spring(judge)
    judge.send(addr("GERMANY"), f"{signon('GERMANY')}\n4 : A MUN - RUH % open-plan\n")
    judge.send(GM, f"{MASTER}\nTERMINATE\n")
    assert snapshot(judge)[2] == "terminated"
    body = _end_mail(judge)
    assert "The Master has terminated the game" in body
    assert "plan-of-france" in body and "plan-of-england" in body
    assert "Acceptance list of FRANCE: FGE?" in body
    assert "Bids per unit" in body
    assert "open-plan" in body           # the sheets of the phase the game ended in


def test_no_eog_keeps_sheets_lists_and_bids_secret_at_the_end(database):
    judge = TestJudge(database)
    start_game(judge, rules="NO_EOG")
    _play_spring(judge)
    judge.send(GM, f"{MASTER}\nTERMINATE\n")
    body = _end_mail(judge)
    assert "terminated" in body and "Final treasuries" in body
    assert "NO_EOG" in body
    assert "plan-of-france" not in body and "Acceptance list" not in body
    assert "Bids per unit" not in body


def test_public_totals_publishes_each_units_total_but_not_who_paid(database):
    judge = TestJudge(database)
    start_game(judge, rules="PUBLIC_TOTALS")
    _play_spring(judge)
    [results] = [m for m in judge.inbox(OBSERVER) if m.kind == "results"]
    lines = [" ".join(line.split()) for line in results.body.splitlines()]
    assert "Total accepted by each unit (PUBLIC_TOTALS):" in lines
    assert "FRANCE A PAR 3 AgP" in lines
    assert "plan-of" not in results.body and "ENGLAND 2" not in " ".join(lines)


def test_without_public_totals_the_results_name_no_money(database):
    judge = TestJudge(database)
    start_game(judge)
    _play_spring(judge)
    [results] = [m for m in judge.inbox(OBSERVER) if m.kind == "results"]
    assert "AgP" not in results.body and "Total accepted" not in results.body


def test_no_draw_refuses_draw_votes_and_a_concession_still_ends_the_game(database):
    judge = TestJudge(database)
    start_game(judge, rules="NO_DRAW")
    for vote in ("DRAW", "3WAY"):
        judge.send(addr("FRANCE"), f"{signon('FRANCE')}\nVOTE {vote}\n")
        reply = " ".join(judge.last_reply(addr("FRANCE")).split())
        assert "uses the rule NO_DRAW" in reply
    for p in POWERS:
        if p != "FRANCE":
            judge.send(addr(p), f"{signon(p)}\nVOTE CONCEDE FRANCE\n")
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\nVOTE SOLO\n")
    assert snapshot(judge)[2] == "completed"
    assert "conceded the game to FRANCE" in _end_mail(judge)


def test_without_no_draw_a_draw_vote_is_recorded(database):
    judge = TestJudge(database)
    start_game(judge)
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\nVOTE DRAW\n")
    assert "NO_DRAW" not in judge.last_reply(addr("FRANCE"))
    assert "NOT processed" not in judge.last_reply(addr("FRANCE"))


def _create(judge: TestJudge, rules: str) -> str:
    judge.send(GM, f"CREATE pay7 masterpw\nRULE {rules}\nTIMING MOVE 2D\nSIGNOFF\n")
    return " ".join(judge.last_reply(GM).split())


@pytest.mark.parametrize("name", ["ORDER_ANY", "NEED_MOVE_MARKS", "ALWAYS_CONFIRM", "NO_PROXY"])
def test_flags_always_in_force_are_accepted_and_said_so(database, name):
    judge = TestJudge(database)
    reply = _create(judge, name)
    assert "has been created" in reply
    assert f"RULE {name}: always in force in a Payola game" in reply


@pytest.mark.parametrize("name, reason", [
    ("PROXY_OK", "Payola has no proxy orders"),
    ("FICTIONAL_OK", "only BLIND would bring this rule"),
    ("BROADCAST_ORDERS", "offer sheets are secret in Payola until the end of the game"),
    ("NO_CHECK", "a Payola sheet is checked as it arrives"),
    ("CD_SUPPORTS", "in Payola a unit follows the offers it receives"),
])
def test_flags_payola_forbids_are_refused_with_the_reason(database, name, reason):
    judge = TestJudge(database)
    reply = _create(judge, name)
    assert "NOT processed" in reply
    assert f"RULE {name} is not allowed: " in reply and reason in reply


@pytest.mark.parametrize("name, meaning", [
    ("SUBMIT_MASTER", "FOR <power> after SIGNON M<game>"),
    ("TEXT_INPUT", "by mail they always are"),
])
def test_web_only_flags_are_answered_with_their_meaning_by_mail(database, name, meaning):
    judge = TestJudge(database)
    reply = _create(judge, name)
    assert "unknown rule" not in reply
    assert f"RULE {name}: always in force in a Payola game" in reply and meaning in reply
