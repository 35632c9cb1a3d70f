"""TRANSFER in an Exchange game (docs/exchange.md, "Mail commands", choice 13): an investor
pays another investor or a company, a company pays another company, never an investor
(that is what DIVIDEND is for). Money moves, it is never made: the giver's loss is the
receiver's gain, and a refused line names itself and changes nothing."""

from __future__ import annotations

from .judge import TestJudge
from .test_exchange_game import balances
from .test_exchange_resign import play_the_float
from .test_exchange_setup import addr, send


def test_an_investor_pays_an_investor_and_a_company(database):
    judge = TestJudge(database)
    play_the_float(judge)  # ALICE runs FRANCE, BOB runs ITALY
    before = balances(judge)
    reply = send(judge, "ALICE", "TRANSFER 10 TO bob\nTRANSFER 5 TO I")
    assert "ERRORS" not in reply, reply
    assert f"10 AgP transferred to BOB. Your balance was {before['@ALICE']} AgP" in reply
    assert f"5 AgP transferred to ITALY. Your balance was {before['@ALICE'] - 10} AgP" in reply
    after = balances(judge)
    assert after["@ALICE"] == before["@ALICE"] - 15
    assert after["@BOB"] == before["@BOB"] + 10 and after["ITALY"] == before["ITALY"] + 5
    assert sum(after.values()) == sum(before.values())
    # BOB is told of each (his own account, and the company he runs), CAROL of nothing
    mails = sorted(m.body for m in judge.inbox(addr("BOB")) if m.kind == "transfer")
    assert len(mails) == 2
    assert "ACCOUNT ACTIVITY FOR BOB" in mails[0] and "Transfer from ALICE        10 AgP" in mails[0]
    assert "ACCOUNT ACTIVITY FOR ITALY" in mails[1] and "Transfer from ALICE         5 AgP" in mails[1]
    assert "@" not in "".join(mails)
    assert not [m for m in judge.inbox(addr("CAROL")) if m.kind != "reply"]
    # a company pays another company as in any Payola game
    reply = send(judge, "ALICE", "FOR FRANCE\nTRANSFER 3 TO ITALY")
    assert "3 AgP transferred to ITALY" in reply and "ERRORS" not in reply
    assert balances(judge)["ITALY"] == after["ITALY"] + 3
    # BALANCE names the other party by name
    statement = send(judge, "BOB", "BALANCE").split("Account of BOB")[1]
    assert "ALICE" in statement and "@" not in statement
    assert "Shares held: FRANCE 4, ITALY 2\r\n" in statement


def test_bad_transfers_are_refused_naming_the_line(database):
    judge = TestJudge(database)
    play_the_float(judge)
    before = balances(judge)
    cash = before["@ALICE"]
    for line, why in (
        ("TRANSFER 5 TO BOBB", "there is no company or investor BOBB"),
        (f"TRANSFER {cash} TO BOB", f"you hold only {cash - 1} AgP"),  # after the first line
        ("TRANSFER -5 TO BOB", "the amount must be a whole number of AgP, at least 1"),
        ("TRANSFER 0 TO BOB", "the amount must be a whole number of AgP, at least 1"),
        ("TRANSFER 5 TO ALICE", "you cannot transfer money to yourself"),
        ("FOR FRANCE\nTRANSFER 5 TO BOB", "a company pays investors only by DIVIDEND"),
        ("FOR FRANCE\nTRANSFER 5 TO ALICE", "a company pays investors only by DIVIDEND"),
    ):
        reply = send(judge, "ALICE", f"TRANSFER 1 TO CAROL\n{line}")
        assert "NOT processed" in reply, line
        assert f"{line.splitlines()[-1]}\n             {why}" in reply.replace("\r\n", "\n"), reply
    judge.send(addr("ALICE"), "TRANSFER 5 TO BOB\n")
    assert "a message must start with SIGNON" in judge.last_reply(addr("ALICE"))
    assert balances(judge) == before
    assert not [m for m in judge.sent if m.kind == "transfer"]
