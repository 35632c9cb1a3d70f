"""Offer lines and order lines: a message's lines form the power's new sheet or orders."""

from __future__ import annotations

from ..game.context import PlayerContext
from ..game.orders import Refused, submit
from ..rules.flags import Flag
from ..text.commands import Command


def copy_to_master(ctx: PlayerContext, lines: list[int]) -> None:
    """ALWAYS_CONFIRM: every order update a player makes is confirmed to the Master too
    (seed 003, 1.3: against claims of corrupted order entry). The Master's own FOR orders
    need no copy: the Master's reply is the confirmation."""
    if Flag.ALWAYS_CONFIRM in ctx.state.rules and not ctx.message.is_master:
        ctx.reply.confirm_to_master(ctx.state.game.master_address, ctx.power, lines)


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
    copy_to_master(ctx, [cmd.line for cmd in batch])
    if isinstance(result, Refused):
        for problem in result.problems:
            ctx.reply.add(problem)
        return
    ctx.reply.result(batch[0].line, result)
