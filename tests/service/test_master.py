"""What the Master does and sees (issue 8 items 11, 12 and 15): a FOR <power> reply
reaches the power's player, PREVIEW names the right deadlines, and the Master gets every
power's statement and the bid chart of each processed phase."""

from __future__ import annotations

import re

from .judge import TestJudge
from .test_game import GM, OBSERVER, POWERS, addr, signon, start_game

MASTER = "SIGNON Mpay7 masterpw\n"


def test_a_for_reply_also_goes_to_the_power_and_only_its_part(database):
    judge = TestJudge(database)
    start_game(judge)
    judge.sent.clear()
    judge.send(
        GM, f"{MASTER}FOR FRANCE\n7 : A PAR - BUR\nBALANCE\nFOR GERMANY\n3 : A MUN - RUH\nACCEPT GF?\n"
    )
    full = judge.last_reply(GM)
    assert "A PAR - BUR" in full and "A MUN - RUH" in full
    [france] = judge.inbox(addr("FRANCE"))
    assert france.to == (addr("FRANCE"),) and "acted for FRANCE" in france.body
    assert "7 : A PAR - BUR" in france.body and "Account of FRANCE: 48 AgP" in france.body
    assert "RUH" not in france.body and "GERMANY" not in france.body
    [germany] = judge.inbox(addr("GERMANY"))
    assert "3 : A MUN - RUH" in germany.body and "ACCEPT GF?" in germany.body
    assert "PAR" not in germany.body
    assert not judge.inbox(OBSERVER) and not judge.inbox(addr("ITALY"))


def test_a_refused_for_message_tells_the_power_nothing_took_effect(database):
    judge = TestJudge(database)
    start_game(judge)
    judge.sent.clear()
    judge.send(GM, f"{MASTER}FOR FRANCE\n7 : A PAR - MUN\n")
    assert "NOT processed" in judge.last_reply(GM)
    [france] = judge.inbox(addr("FRANCE"))
    assert "nothing in the Master's message has taken effect" in " ".join(france.body.split())
    assert "A PAR - MUN" in france.body


def _deadline_words(body: str) -> str:
    return " ".join(body.split())


def test_preview_names_the_next_phases_deadline_and_keeps_the_current_one(database):
    judge = TestJudge(database)
    start_game(judge)  # the first deadline is twice as long as the next ones
    judge.sent.clear()
    judge.send(GM, f"{MASTER}PREVIEW\n")
    [preview] = [m for m in judge.inbox(GM) if m.subject.startswith("PREVIEW Diplomacy results")]
    text = _deadline_words(preview.body)
    would_be = re.search(r"the next phase is Fall 1901 Movement, with its deadline at (.+? UTC)\.", text)
    current = re.search(r"Until then the deadline of Spring 1901 Movement stays (.+? UTC)\.", text)
    assert would_be and current, text
    assert would_be.group(1) != current.group(1)
    judge.send(GM, f"{MASTER}PROCESS!\n")
    [results] = [m for m in judge.inbox(GM) if m.subject.startswith("Diplomacy results")]
    assert f"The deadline is {would_be.group(1)}." in _deadline_words(results.body)


def test_statements_show_gifts_and_savings_and_the_master_sees_them_all(database):
    judge = TestJudge(database)
    start_game(judge)
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\n10 & A MUN - RUH\n2 : A PAR - BUR\n")
    judge.send(addr("GERMANY"), f"{signon('GERMANY')}\n3 : A MUN - TYR\n")
    judge.send(addr("ITALY"), f"{signon('ITALY')}\n5 : A VEN - TYR\n60 $\n")
    judge.sent.clear()
    judge.send(GM, f"{MASTER}PROCESS!\n")
    statements = {m.to[0]: m.body for m in judge.sent if m.kind == "statement"}
    france = " ".join(statements[addr("FRANCE")].split())
    assert "10 A MUN - TYR (your gift: paid whatever the unit did)" in france
    italy = " ".join(statements[addr("ITALY")].split())
    assert "You asked to keep 60 AgP, more than you had, so nothing was spent." in italy
    assert "cut by" not in italy
    # the Master gets one report: the bids of every unit and every power's statement
    [report] = [m for m in judge.sent if m.kind == "master_report"]
    assert report.to == (GM,)
    assert "A MUN - TYR (GERMANY 3, FRANCE 10) <- issued" in " ".join(report.body.split())
    for p in POWERS:
        assert f"Account statement of {p}," in report.body
    # and no player gets another power's statement or the bids
    for mail in judge.sent:
        if mail.to != (GM,):
            assert "Bids per unit" not in mail.body
            assert sum(f"Account statement of {p}," in mail.body for p in POWERS) <= 1
