"""What the Master does and sees (issue 8 items 11, 12 and 15): a FOR <power> reply
reaches the power's player, PREVIEW names the right deadlines, and the Master gets every
power's statement and the bid chart of each processed phase."""

from __future__ import annotations

from .judge import TestJudge
from .test_game import GM, OBSERVER, POWERS, addr, signon, snapshot, start_game

MASTER = "SIGNON Mpay7 masterpw\n"


def test_a_for_reply_also_goes_to_the_power_and_only_its_part(database):
    judge = TestJudge(database)
    start_game(judge)
    judge.sent.clear()
    judge.send(GM, f"{MASTER}FOR FRANCE\n7 : A PAR - BUR\nBALANCE\n"
               "FOR GERMANY\n3 : A MUN - RUH\nACCEPT GF?\n")
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
