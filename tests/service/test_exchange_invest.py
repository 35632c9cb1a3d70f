"""`INVEST <name>@<game> <password>`, DPjudge's word for joining an Exchange game as an
investor (docs/exchange.md, choice 25): the same seat as JOIN, its password never echoed,
and refused with the reason outside Exchange games."""

from __future__ import annotations

from payjudge.game.exchange import investor_seat
from payjudge.game.state import GameState, find_game

from .judge import TestJudge
from .test_exchange_setup import CREATE, GM, addr


def test_invest_joins_an_exchange_game_as_join_does(database):
    judge = TestJudge(database)
    judge.send(GM, CREATE)
    judge.send(addr("ALICE"), "INVEST alice@ex1 pw-alice\n")
    reply = judge.last_reply(addr("ALICE"))
    assert "ERRORS" not in reply and "as ALICE" in reply, reply
    assert "pw-alice" not in reply and "INVEST alice@ex1 ********" in reply
    judge.send(addr("BOB"), "JOIN bob@ex1 pw-bob\n")
    judge.send(addr("CAROL"), "invest Carol@ex1 pw-carol\n")
    assert "as CAROL" in judge.last_reply(addr("CAROL"))
    with database.transaction() as s:
        st = GameState(s, find_game(s, "ex1"))
        assert str(st.game.phase) == "W1900X"  # the last seat filled: the float opened
        assert investor_seat(st, "CAROL") is not None and investor_seat(st, "ALICE") is not None
    # the investor signs on with the password it chose
    judge.send(addr("ALICE"), "SIGNON alice@ex1 pw-alice\nBALANCE\n")
    assert "Account of ALICE: 70 AgP" in judge.last_reply(addr("ALICE"))


def test_invest_is_refused_with_the_reason(database):
    judge = TestJudge(database)
    judge.send(GM, "CREATE pay1 masterpw\nSIGNOFF\n")
    judge.send(addr("x"), "INVEST xavier@pay1 pw-xavier\n")
    reply = judge.last_reply(addr("x"))
    assert "line   1: INVEST xavier@pay1 ********" in reply and "pw-xavier" not in reply
    assert "INVEST is for Exchange games (RULE EXCHANGE): write JOIN pay1 <password>" in reply
    judge.send(GM, CREATE)
    judge.send(addr("x"), "INVEST ex1 pw-xavier\n")
    assert "write INVEST <your name>@<game> <password>" in judge.last_reply(addr("x"))
    judge.send(addr("x"), "INVEST xavier@nosuch pw-xavier\n")
    assert "there is no game named 'nosuch'" in judge.last_reply(addr("x"))
    judge.send(addr("x"), "INVEST france@ex1 pw-xavier\n")
    assert "FRANCE cannot be an investor's name" in judge.last_reply(addr("x"))
    with database.transaction() as s:
        assert not [seat for seat in find_game(s, "ex1").seats if seat.investor_name]
