"""An investor resigns and another takes its seat over (docs/exchange.md, "Parties and
accounts", choice 16): its companies pass at once to their largest other playing
stockholder, or become unmanaged; its cash and shares stay with the seat, untouched,
for whoever writes `TAKEOVER <name>@<game> <password>`."""

from __future__ import annotations

from .judge import TestJudge
from .test_exchange_game import balances, holdings, market
from .test_exchange_setup import GM, addr, phase_of, send, start


def play_the_float(judge: TestJudge) -> None:
    """FRANCE: ALICE 6 shares (its CEO, by her vote), BOB 4; ITALY: BOB 2 (its CEO, the
    largest holder); CAROL holds nothing."""
    start(judge)
    send(judge, "ALICE", "BUY 6 FRANCE AT 5\nVOTE CEO FRANCE ALICE")
    send(judge, "BOB", "BUY 4 FRANCE AT 3\nBUY 2 ITALY AT 2")
    send(judge, "CAROL", "PASS")
    judge.tick(minutes=1)
    assert phase_of(judge) == "S1901M"
    assert market(judge)["ceos"] == {**market(judge)["ceos"], "FRANCE": "ALICE", "ITALY": "BOB"}
    judge.sent.clear()


def test_a_ceo_resigns_and_the_company_passes_to_its_largest_other_stockholder(database):
    judge = TestJudge(database)
    play_the_float(judge)
    money_before, shares_before = balances(judge), holdings(judge)
    judge.send(addr("ALICE"), "RESIGN alice@ex1 pw-alice\n")
    reply = judge.last_reply(addr("ALICE"))
    assert "ERRORS" not in reply, reply
    assert "You have resigned as ALICE in ex1" in reply
    assert "your cash and shares stay with the seat" in reply
    assert "FRANCE passes to BOB, its largest other stockholder" in reply
    assert market(judge)["ceos"]["FRANCE"] == "BOB"
    # nothing is forfeited, nothing moves
    assert balances(judge) == money_before and holdings(judge) == shares_before
    # everyone is told (CEOs are public), the new CEO among them
    for name in ("BOB", "CAROL"):
        news = [m for m in judge.inbox(addr(name)) if m.subject == "Exchange resignation ex1"]
        assert len(news) == 1, name
        assert "ALICE in game ex1 is open for a new investor" in news[0].body
        assert "TAKEOVER alice@ex1 <your new password>" in news[0].body
        assert "FRANCE: its CEO is now BOB (its largest other stockholder)" in news[0].body
        assert "6" not in news[0].body  # no holding is told
    assert "act for FRANCE" in send(judge, "BOB", "FOR FRANCE\n2 : A PAR - BUR")
    judge.send(addr("ALICE"), "SIGNON alice@ex1 pw-alice\n")
    assert "invalid power or password for ex1" in judge.last_reply(addr("ALICE"))
    # BOB resigns in turn: nobody else playing holds FRANCE or ITALY shares
    judge.send(addr("BOB"), "RESIGN bob@ex1 pw-bob\n")
    reply = judge.last_reply(addr("BOB"))
    assert "FRANCE has no CEO now: no other playing investor holds its shares (unmanaged)" in reply
    assert "ITALY has no CEO now" in reply
    assert market(judge)["ceos"]["FRANCE"] is None and market(judge)["ceos"]["ITALY"] is None


def test_an_investor_without_companies_resigns_and_a_newcomer_takes_the_seat_over(database):
    judge = TestJudge(database)
    play_the_float(judge)
    judge.send(addr("CAROL"), "RESIGN carol@ex1 pw-carol\n")
    reply = judge.last_reply(addr("CAROL"))
    assert "You have resigned as CAROL in ex1" in reply and "passes to" not in reply
    ceos = market(judge)["ceos"]
    judge.send(addr("DAVE"), "TAKEOVER carol@ex1 pw-dave\nBALANCE\n")
    reply = judge.last_reply(addr("DAVE"))
    assert "ERRORS" not in reply and "pw-dave" not in reply, reply
    assert "You now play CAROL in ex1" in reply and "Account of CAROL: 70 AgP" in reply
    assert market(judge)["ceos"] == ceos  # a takeover runs no company
    news = [m for m in judge.inbox(addr("ALICE")) if m.subject == "Diplomacy takeover ex1"]
    assert len(news) == 1 and "CAROL in game ex1 has been taken over" in news[0].body
    judge.send(addr("DAVE"), "SIGNON carol@ex1 pw-dave\nBUY 1 ITALY AT 2\n")
    assert "ERRORS" in judge.last_reply(addr("DAVE"))  # a movement phase: the orders are refused
    assert "exchange orders are for exchange phases" in judge.last_reply(addr("DAVE"))


def test_resign_and_takeover_are_refused_with_the_reason(database):
    judge = TestJudge(database)
    play_the_float(judge)
    judge.send(addr("x"), "TAKEOVER alice@ex1 pw-xavier\n")
    assert "ALICE is not open for a takeover" in judge.last_reply(addr("x"))
    judge.send(addr("x"), "TAKEOVER zed@ex1 pw-xavier\n")
    assert "there is no investor ZED in ex1" in judge.last_reply(addr("x"))
    judge.send(addr("ALICE"), "RESIGN alice@ex1 wrong-pw\n")
    assert "invalid power or password for ex1" in judge.last_reply(addr("ALICE"))
    assert market(judge)["ceos"]["FRANCE"] == "ALICE"
    judge.send(GM, "SIGNON Mex1 masterpw\nPROCESS!\n")  # the game goes on
