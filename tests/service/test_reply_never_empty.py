"""A reply always tells the sender what happened (issue 26, item 6).

In a deployment a good `JOIN england@pay1 …`, arriving 80 ms after another player's
refused JOIN, was answered with empty UNDERSTOOD and RESULTS sections: the player was
never told their power. Here the refused JOIN and the good one wait together, so that
on PostgreSQL they fall in one batch (the refused one rolls it back) and on SQLite in
two transactions back to back; and a reply that would say nothing at all is refused by
the reply builder, so the message is quarantined (its sender told) rather than
answered empty.
"""

from __future__ import annotations

import pytest
from sqlalchemy import select

from payjudge.game.context import EmptyReply, Reply
from payjudge.service import processor
from payjudge.store.models import InboundMessage

from .judge import TestJudge
from .test_game import GM

FIRST, REFUSED, GOOD = "first@pj.test", "refused@pj.test", "good@pj.test"


def _forming(database) -> TestJudge:
    judge = TestJudge(database)
    judge.send(GM, "CREATE pay1 masterpw1\nRULE POWER_CHOICE\nSIGNOFF\n")
    judge.send(FIRST, "JOIN france@pay1 secret11\n")
    return judge


def _section(reply: str, name: str) -> str:
    return reply.replace("\r\n", "\n").split(f"\n{name}\n", 1)[1].split("\n\n", 1)[0]


@pytest.mark.parametrize("before", [0, 2], ids=["refused-first", "after-two-good"])
def test_a_good_join_after_a_refused_one_is_told_its_power(database, monkeypatch, before):
    # one batch on PostgreSQL whatever the machine's speed
    monkeypatch.setattr(processor, "BATCH_SECONDS", {"sqlite": 0.0, "postgresql": 3600.0})
    judge = _forming(database)
    others = [f"other{i}@pj.test" for i in range(before)]
    for address, power in zip(others, ("german", "italy"), strict=False):
        judge.send(address, f"JOIN {power}@pay1 secret{address[:6]}\n", process=False)
    judge.send(REFUSED, "JOIN france@pay1 secret22\n", process=False)
    judge.send(GOOD, "JOIN england@pay1 secret33\n", process=False)
    judge.process()
    refused = judge.last_reply(REFUSED)
    assert "NOT processed" in refused and "FRANCE is already taken" in _section(refused, "ERRORS")
    good = judge.last_reply(GOOD)
    assert "line   1: JOIN england@pay1 ********" in _section(good, "UNDERSTOOD")
    assert "You have joined game pay1 as ENGLAND." in _section(good, "RESULTS")
    assert "secret33" not in good
    for address in others:
        assert "Your message was processed" in judge.last_reply(address)


def test_the_reply_builder_refuses_a_reply_that_says_nothing():
    with pytest.raises(EmptyReply):
        Reply().view(ok=True)
    with pytest.raises(EmptyReply):
        Reply().view(ok=False)
    reply = Reply()
    reply.understood.append((1, "BALANCE"))
    assert reply.view(ok=True).understood == [(1, "BALANCE")]


def test_a_reply_that_would_say_nothing_is_quarantined_not_mailed(database, monkeypatch):
    """Whatever empties a reply (here the commands' work is made to lose it), the player
    gets the quarantine notice, and the message waits for `payjudge requeue`."""
    judge = _forming(database)
    real = processor.execute

    def losing(ctx, script):
        real(ctx, script)
        ctx.reply.understood.clear()
        ctx.reply.notes.clear()

    monkeypatch.setattr(processor, "execute", losing)
    judge.send(GOOD, "JOIN england@pay1 secret33\n")
    [told] = [m for m in judge.inbox(GOOD) if m.kind == "reply"]
    assert "set aside" in told.body and "UNDERSTOOD" not in told.body
    with database.reading() as s:
        row = s.scalars(select(InboundMessage).where(InboundMessage.sender == GOOD)).one()
        assert row.state == "quarantined" and "EmptyReply" in (row.error or "")
        assert b"secret33" not in row.raw
