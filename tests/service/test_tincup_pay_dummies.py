"""Tin Cup with PAY_DUMMIES (Loyal Units, rulebook 6.5; issue 26): powers order their own
units and may pay only dummies' units. Under BLIND a player does not know who owns a unit
it cannot see, so the sheet is taken as written, and an offer to a unit that is not a
dummy's is ignored in silence when the phase is processed, as Tin Cup ignores an offer to
a missing unit (docs/tincup.md)."""

from __future__ import annotations

from .judge import TestJudge
from .test_game import GM, POWERS, addr, signon, snapshot, start_game


def test_offers_to_a_dummys_unit_work_and_others_are_ignored_silently(database):
    judge = TestJudge(database)
    start_game(judge, rules="BLIND PAY_DUMMIES")
    judge.send(GM, "SIGNON Mpay7 masterpw\nDUMMY ITALY\n")
    pos, balances, *_ = snapshot(judge)
    for p in POWERS:
        if p == "ITALY":
            continue
        own = [f"{u} H" for u in pos.units[p]]
        extra = ["5 : A VEN - TYR", "3 : A MUN - RUH"] if p == "FRANCE" else []
        judge.send(addr(p), f"{signon(p)}\n" + "\n".join(own + extra) + "\n")
        reply = judge.last_reply(addr(p))
        assert "was processed" in reply, reply
        assert "belongs to" not in reply and "None" not in reply
    sent = len(judge.sent)
    judge.tick(days=3)
    after, balances_after, _state, phase = snapshot(judge)
    assert phase == "F1901M"
    assert str(after.unit_at("TYR")) == "A TYR" and after.owner_at("TYR") == "ITALY"
    assert str(after.unit_at("MUN")) == "A MUN"  # Germany's own order: the offer was ignored
    assert balances_after["FRANCE"] == balances["FRANCE"] - 5  # the ignored offer cost nothing
    mails = [m for m in judge.sent[sent:] if m.to != (GM,)]
    assert not any("A MUN - RUH" in m.body for m in mails if m.to != (addr("FRANCE"),))
