"""The limits on an exchange sheet (docs/exchange.md, "Trading"), checked when it is sent:
a buyer may not commit more than its cash, nor sell more than it holds, nor buy and sell
the same company; a company trades only its own stock, and not at the float. The same
limits are checked again at processing (`phase.run_exchange`)."""

from __future__ import annotations

from collections.abc import Sequence

from .accounts import is_investor
from .market import MarketOrder, Side
from .phase import MarketState
from .problems import ExchangeProblem, ProblemKind


def check_orders(
    account: str, orders: Sequence[MarketOrder], state: MarketState, cash: int, *, is_float: bool = False
) -> list[ExchangeProblem]:
    """What is wrong with `account`'s orders (empty: nothing)."""
    problems: list[ExchangeProblem] = []
    company_account = not is_investor(account)
    if company_account and is_float and orders:
        return [ExchangeProblem(ProblemKind.FLOAT_COMPANY, "at the float only investors trade")]
    for company in sorted({o.company for o in orders}):
        mine = [o for o in orders if o.company == company]
        if company_account and company != account:
            text = f"a company trades only its own stock ({account} cannot buy {company})"
            problems.append(ExchangeProblem(ProblemKind.FOREIGN_STOCK, text))
            continue
        if len({o.side for o in mine}) > 1:
            text = f"you cannot both buy and sell {company} in one phase"
            problems.append(ExchangeProblem(ProblemKind.BOTH_SIDES, text))
            continue
        selling = sum(o.shares for o in mine if o.side is Side.SELL)
        held = state.holding(company, account)
        if selling > held:
            held_text = (
                f"{account}'s pool holds {held} shares"
                if company_account
                else f"you hold {held} {company} shares"
            )
            problems.append(ExchangeProblem(ProblemKind.OVERSOLD, f"{held_text}: you cannot sell {selling}"))
    committed = sum(o.shares * o.price for o in orders if o.side is Side.BUY)
    if committed > cash:
        text = f"your buy orders would commit {committed} AgP, but you hold {cash} AgP"
        problems.append(ExchangeProblem(ProblemKind.OVERCOMMITTED, text))
    return problems
