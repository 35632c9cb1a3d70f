"""Run a message's commands: the opener, then each command, order lines as one batch.

Handlers raise CommandError for a refused command; the processor then rolls the whole
message back, so a message with any error changes nothing.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..commands.base import lookup, set_words
from ..commands.orders import submit_orders
from ..game.context import CommandError, Context, Reply
from ..game.notes.reports import ReportsSkipped
from ..game.roles import Role
from ..text.commands import ANYWHERE, Command, Kind, Script, unread
from ..text.redaction import mask_line, mask_quoted
from . import budget
from .steps import run_steps

# LIST, SUMMARY, HISTORY and HELP lines answered in one message: each reads a whole game
# (HISTORY every phase of it), and 20,000 of them took the processor minutes (issue 26)
REPORTS_PER_MESSAGE = 10


def execute(ctx: Context, script: Script) -> None:
    reply = ctx.reply
    reply.ignored.extend(script.ignored)
    for problem in script.problems:
        reply.add(problem)
    batch: list[Command] = []
    reports: list[Command] = []
    for index, cmd in enumerate(script.commands):
        budget.check()  # between commands: never half way through one's writes
        if cmd.keyword in ANYWHERE:
            reports.append(cmd)
            if len(reports) > REPORTS_PER_MESSAGE:
                continue  # skipped, and said so below
        if index == 1 and reply.problems and script.commands[0].kind is Kind.OPENER:
            # the opener failed (a wrong password, say): the rest cannot be understood
            reply.ignored.extend((c.line, unread(c.text.strip())) for c in script.commands[1:])
            break
        if cmd.kind is Kind.ORDER:
            batch.append(cmd)
            continue
        if cmd.keyword == "FOR" and batch:
            _flush(ctx, batch)
            batch = []
        _run(ctx, cmd)
    if batch:
        _flush(ctx, batch)
    if len(reports) > REPORTS_PER_MESSAGE:
        skipped = reports[REPORTS_PER_MESSAGE:]
        reply.result(skipped[0].line, ReportsSkipped(count=len(skipped), most=REPORTS_PER_MESSAGE))
    run_steps(ctx)  # what waits for every command: game/after.py
    mask_passwords(reply)


def mask_passwords(reply: Reply) -> None:
    """Every line the reply shows, with its passwords as ******** (wherever the line
    stood: a second SIGNON, a line ignored after a failed one, a password of two words,
    a misspelt opener's)."""
    reply.understood[:] = [(line, mask_line(text)) for line, text in reply.understood]
    reply.ignored[:] = [(line, mask_quoted(text)) for line, text in reply.ignored]
    reply.problems[:] = [replace(p, text=mask_quoted(p.text)) for p in reply.problems]


def _run(ctx: Context, cmd: Command) -> None:
    handler = lookup(cmd)
    reply = ctx.reply
    if handler is None:
        if cmd.keyword == "SET":
            what = cmd.args[0].upper() if cmd.args else ""
            reply.problem(cmd.line, cmd.text, f"unknown SET command {what!r} (SET {set_words()})")
        else:
            reply.problem(cmd.line, cmd.text, f"unknown command {cmd.keyword}")
        return
    if cmd.kind is Kind.OPENER and handler.who is not Role.OPENER:
        reply.problem(cmd.line, cmd.text, f"{cmd.keyword} is not an opener")
        return
    role: Any = ctx
    if handler.who is Role.MASTER:
        role = ctx.master()
        if role is None:
            reply.problem(cmd.line, handler.echo(cmd), f"{handler.keyword} is for the Master only")
            return
    elif handler.who is Role.PLAYER:
        role = ctx.player()
        if role is None:
            reply.problem(
                cmd.line,
                handler.echo(cmd),
                "the Master must say which power with FOR <power> first"
                if ctx.is_master
                else f"{handler.keyword} needs a SIGNON as a power",
            )
            return
    elif handler.who is Role.SIGNED:
        role = ctx.signed()
        if role is None:
            reply.problem(cmd.line, handler.echo(cmd), f"{handler.keyword} needs a SIGNON first")
            return
    reply.understood.append((cmd.line, handler.echo(cmd)))
    try:
        handler.run(role, cmd)
    except CommandError as exc:
        reply.problem(cmd.line, handler.echo(cmd), exc.message)


def _flush(ctx: Context, batch: list[Command]) -> None:
    player = ctx.player()
    if player is None:
        for cmd in batch:
            ctx.reply.problem(
                cmd.line, cmd.text, "orders need a SIGNON as a power (the Master: FOR <power> first)"
            )
        return
    try:
        submit_orders(player, batch)
    except CommandError as exc:
        ctx.reply.problem(batch[0].line, batch[0].text, exc.message)
