"""Offer lines and order lines: a message's lines form the power's new sheet or orders."""

from __future__ import annotations

from ..game.context import PlayerContext
from ..game.orders import Refused, submit
from ..text.commands import Command


def submit_orders(ctx: PlayerContext, batch: list[Command]) -> None:
    result = submit(
        ctx.state,
        power=ctx.power,
        lines=[(cmd.line, cmd.text) for cmd in batch],
        now=ctx.now,
        inbound_id=ctx.message.inbound_id,
        by_master=ctx.message.is_master,
    )
    for cmd in batch:
        ctx.reply.understood.append((cmd.line, cmd.text.strip()))
    if isinstance(result, Refused):
        for problem in result.problems:
            ctx.reply.add(problem)
        return
    ctx.reply.result(batch[0].line, result)
