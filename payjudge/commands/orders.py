"""Offer lines and order lines: a message's lines form the power's new sheet or orders."""

from __future__ import annotations

from ..rules.errors import OrderError
from ..rules.parse import parse_order
from ..rules.validate import validate
from ..game import money
from ..game.context import CommandError, Context
from ..store import repo
from ..store.models import Submission
from ..text.commands import Command
from ..text.sheet import parse_sheet
from ..vocabulary import SubmissionKind


def _replace(ctx: Context, kind: SubmissionKind, text: str) -> None:
    turn = ctx.state.turn
    repo.retire_submissions(ctx.session, turn, ctx.power)
    ctx.session.add(Submission(game_id=ctx.game.id, turn_id=turn.id, power=ctx.power, kind=kind,
                               text=text, current=True, inbound_id=ctx.inbound_id,
                               submitted_at=ctx.now))


def submit_orders(ctx: Context, batch: list[Command]) -> None:
    st = ctx.state
    if not st.game.state.is_running or st.position is None:
        raise CommandError(f"{st.game.name} is {st.game.state}: no orders are taken now")
    pos = st.position
    for cmd in batch:
        ctx.reply.understood.append((cmd.line, cmd.text.strip()))
    if pos.phase.is_movement:
        text = "\n".join(cmd.text for cmd in batch)
        balance = money.balance(ctx.session, ctx.game, ctx.power)
        parsed = parse_sheet(text, pos, ctx.power, st.rules, balance=balance, dummies=st.dummies())
        if parsed.problems:
            for p in parsed.problems:
                if 0 < p.line <= len(batch):
                    cmd = batch[p.line - 1]
                    ctx.reply.problem(cmd.line, cmd.text, f"{p.kind.value}: {p.message}")
                else:   # a problem of the whole sheet, of no line
                    ctx.reply.problem(None, "", f"{p.kind.value}: the offer sheet: {p.message}")
            return
        _replace(ctx, SubmissionKind.SHEET, parsed.normalized)
        total = parsed.sheet.offered_total
        ctx.reply.note("sheet", batch[0].line, power=ctx.power, phase=pos.phase.title,
                       sheet=parsed.normalized, total=total, balance=balance,
                       over=total is not None and total > balance)
        return
    accepted = []
    batch = [cmd for cmd in batch if cmd.text.split("%", 1)[0].strip()]
    for cmd in batch:
        try:
            order = validate(parse_order(cmd.text.split("%", 1)[0], pos.map), pos, ctx.power)
        except OrderError as exc:
            ctx.reply.problem(cmd.line, cmd.text, f"{exc.kind.value}: {exc}")
            continue
        accepted.append(str(order))
    if len(accepted) == len(batch):
        _replace(ctx, SubmissionKind.ORDERS, "\n".join(accepted))
        ctx.reply.note("orders", batch[0].line, power=ctx.power, phase=pos.phase.title,
                       orders=accepted)
