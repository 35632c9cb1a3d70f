"""Exchange Payola's mail commands (docs/exchange.md, "Mail commands"): INVEST (JOIN's
synonym), BUY, SELL and PASS (an investor's, or a company's after FOR), DIVIDEND and WORTH
(a company's), and the Master's SET CEO. Each handler checks that the game is an Exchange game and hands its
line to one use case."""

from __future__ import annotations

from typing import ClassVar

from ..game.after import AfterStep
from ..game.context import Context, MasterContext, PlayerContext
from ..game.exchange import enter_exchange_line, set_ceo
from ..game.state import find_game, payola_rules
from ..rules.flags import Flag
from ..text.commands import Command
from .base import MasterHandler, PlayerHandler, found, register, require, sub_args
from .openers import Join


def _account(ctx: PlayerContext, cmd: Command) -> str:
    """The account the commands act for (an investor's, or its company's after FOR)."""
    require(Flag.EXCHANGE in ctx.state.rules, f"{cmd.keyword} is for Exchange games (RULE EXCHANGE)")
    return str(ctx.power)


@register
class Invest(Join):
    keyword = "INVEST"
    exchange_only = True
    exchange = ()  # not JOIN's: its own syntax
    syntax = "INVEST <name>@<game> <password>"
    summary = "join a forming Exchange game as the investor <name> (the same as JOIN <name>@<game>)"
    secret_args = (1, 2)

    def run(self, ctx: Context, cmd: Command) -> None:
        require(len(cmd.args) == 2 and "@" in cmd.args[0], "write INVEST <your name>@<game> <password>")
        name = cmd.args[0].partition("@")[2].lower()
        game = found(find_game(ctx.session, name, lock=False), f"there is no game named {name!r}")
        require(
            Flag.EXCHANGE in payola_rules(game),
            f"INVEST is for Exchange games (RULE EXCHANGE): write JOIN {game.name} <password>",
        )
        super().run(ctx, cmd)


class _ExchangeLine(PlayerHandler):
    """An exchange sheet line taken as written. `trade` lines (BUY, SELL, PASS): the
    message's first one for an account replaces the trade lines stored before."""

    trade: ClassVar[bool] = True

    def run(self, ctx: PlayerContext, cmd: Command) -> None:
        account = _account(ctx, cmd)
        seen = ctx.message.exchange_traded
        fresh = self.trade and account not in seen
        if self.trade:
            seen.add(account)
        ctx.reply.result(
            cmd.line, enter_exchange_line(ctx.state, account, cmd.text, fresh=fresh, now=ctx.now)
        )


@register
class Buy(_ExchangeLine):
    keyword = "BUY"
    exchange_only = True
    syntax = "BUY <shares> <company> AT <price>"
    summary = "buy up to that many shares at that price or less in this exchange phase"


@register
class Sell(_ExchangeLine):
    keyword = "SELL"
    exchange_only = True
    syntax = "SELL <shares> <company> AT <price>"
    summary = "sell up to that many shares at that price or more in this exchange phase"


@register
class Pass(_ExchangeLine):
    keyword = "PASS"
    exchange_only = True
    syntax = "PASS"
    summary = "no exchange orders this phase (you are not late)"


@register
class Dividend(_ExchangeLine):
    keyword = "DIVIDEND"
    exchange_only = True
    syntax = "DIVIDEND <AgP a share>"
    summary = "after FOR <company>: the dividend the company pays in this exchange phase"
    trade = False


@register
class Worth(PlayerHandler):
    keyword = "WORTH"
    exchange_only = True
    syntax = "WORTH <centre> <AgP>  or  WORTH <AgP>"
    summary = "after FOR <company>: what its centres pay it from the next year"

    def run(self, ctx: PlayerContext, cmd: Command) -> None:
        account = _account(ctx, cmd)
        taken = enter_exchange_line(
            ctx.state, account, cmd.text, fresh=False, now=ctx.now, allowance_later=True
        )
        ctx.reply.result(cmd.line, taken)
        checked = ctx.message.exchange_worths
        if account not in checked:  # the total, once the message's every WORTH line is in
            checked.add(account)
            ctx.then(AfterStep.check_allowance(account))


@register
class SetCeo(MasterHandler):
    keyword = "SET CEO"
    exchange_only = True
    syntax = "SET CEO <company> <investor>|NONE"
    summary = "appoint or remove a company's CEO at once"

    def run(self, ctx: MasterContext, cmd: Command) -> None:
        require(Flag.EXCHANGE in ctx.state.rules, "SET CEO is for Exchange games (RULE EXCHANGE)")
        args = sub_args(cmd)
        require(len(args) == 2, f"write {self.syntax}")
        company = found(ctx.state.map.power(args[0]), f"there is no company {args[0].upper()}")
        who = None if args[1].upper() == "NONE" else args[1]
        ctx.reply.result(cmd.line, set_ceo(ctx.state, company.name, who))
