"""The steps a message's transaction runs after its commands (`game/after.py`), one table.

Each step reads the message's context once every command has run: the sheet this message
sent (REPORT_ACCOUNT), every WORTH line (CHECK_ALLOWANCE), every vote (SETTLE_VOTES), the
rest of a resigning player's message (APPLY_RESIGN). A step that refuses (CommandError)
refuses the message, as a command would.
"""

from __future__ import annotations

from collections.abc import Callable

from ..commands.player import Balance
from ..game.after import AfterStep, Step
from ..game.context import CommandError, Context, GameContext
from ..game.exchange import check_allowance
from ..game.notes.player import GameEnded
from ..game.phases import check_votes
from ..game.resignation import resign_power
from ..game.state import GameState


def run_steps(ctx: Context) -> None:
    """Run the queued steps in the order they were queued."""
    for step in ctx.after:
        try:
            STEPS[step.step](ctx, step)
        except CommandError as exc:
            ctx.reply.problem(None, "", exc.message)


def _state(ctx: Context) -> GameState:
    # a step is queued by a signed-on command, so the message has its game
    if ctx.state is None:
        raise RuntimeError("a step after the commands of a message with no game")
    return ctx.state


def _apply_resign(ctx: Context, step: AfterStep) -> None:
    left = resign_power(_state(ctx), ctx.mailer, power=step.for_account, now=ctx.now)
    ctx.reply.result(step.line, left)


def _check_allowance(ctx: Context, step: AfterStep) -> None:
    check_allowance(_state(ctx), step.for_account)


def _settle_votes(ctx: Context, step: AfterStep) -> None:
    if check_votes(_state(ctx), ctx.mailer, ctx.now):
        ctx.reply.result(step.line, GameEnded(game=ctx.game.name, result=ctx.game.result))


def _report_account(ctx: Context, step: AfterStep) -> None:
    Balance.report(GameContext(ctx, _state(ctx)), step.line, step.for_account)


STEPS: dict[Step, Callable[[Context, AfterStep], None]] = {
    Step.APPLY_RESIGN: _apply_resign,
    Step.CHECK_ALLOWANCE: _check_allowance,
    Step.SETTLE_VOTES: _settle_votes,
    Step.REPORT_ACCOUNT: _report_account,
}
