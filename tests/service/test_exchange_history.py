"""The public record of an Exchange game read back: `HISTORY <game>` by mail shows each
exchange phase's public results beside the Diplomacy phases' (issue 26: it died on the
exchange phase's report, which has a shape of its own)."""

from __future__ import annotations

from .judge import TestJudge
from .test_exchange_setup import GM, addr, phase_of, send, start


def play_the_float(judge: TestJudge) -> None:
    start(judge)
    send(judge, "ALICE", "BUY 6 FRANCE AT 5\nVOTE CEO FRANCE ALICE")
    send(judge, "BOB", "BUY 4 FRANCE AT 3\nBUY 2 ITALY AT 2")
    send(judge, "CAROL", "PASS")
    judge.tick(minutes=1)
    assert phase_of(judge) == "S1901M"


def test_history_shows_the_exchange_phases(database):
    judge = TestJudge(database)
    play_the_float(judge)
    send(judge, "ALICE", "FOR FRANCE\n2 : A PAR - BUR")
    judge.send(GM, "SIGNON Mex1 masterpw\nPROCESS!\n")
    assert phase_of(judge) == "F1901M"
    for reader in ("ALICE", "outsider"):
        judge.send(addr(reader), "HISTORY ex1\n")
        reply = judge.last_reply(addr(reader))
        assert "ERRORS" not in reply, reply
        # the float, as its public results mail had it, then Spring 1901
        assert "Exchange results, Winter 1900 Exchange" in reply
        assert "price 2 AgP a share, 10 shares traded" in reply
        assert "CEO for the coming year: ALICE (new)" in reply
        assert "Spring 1901 Movement results for game ex1" in reply
        assert reply.index("Winter 1900 Exchange") < reply.index("Spring 1901 Movement results")
        # CEOs are public; holders and balances are not
        assert "CEO for the coming year: BOB (new)" in reply
        assert "@" not in reply.split("RESULTS")[1] and "70 AgP" not in reply
    assert not [m for m in judge.sent if m.kind == "quarantined"]
    judge.send(GM, "SIGNON Mex1 masterpw\nHISTORY ex1\n")
    assert "Exchange results, Winter 1900 Exchange" in judge.last_reply(GM)
