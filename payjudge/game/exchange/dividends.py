"""A company's DIVIDEND line (docs/exchange.md, "Dividends"): whether the treasury covers
it when it is sent, and what the reply says of it. Paying it is the engine's step 1."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...payola.exchange.dividends import check_dividend, outstanding
from ...payola.exchange.phase import MarketState
from ...payola.exchange.problems import ExchangeProblem
from ...text.exchange_orders import ExchangeOrders


@dataclass(frozen=True)
class DividendTaken:
    """`templates/notes/dividend.txt.j2`."""

    note: ClassVar[str] = "dividend"
    company: str
    per_share: int
    outstanding: int
    treasury: int


def dividend_problems(
    company: str, orders: ExchangeOrders, state: MarketState, treasury: int
) -> list[ExchangeProblem]:
    """What is wrong with the dividend `orders` declare for `company` (none declared: nothing)."""
    declared = orders.dividend.per_share if orders.dividend else 0
    return check_dividend(company, declared, treasury, state.register.get(company, {}))


def dividend_taken(company: str, per_share: int, state: MarketState, treasury: int) -> DividendTaken:
    return DividendTaken(company, per_share, outstanding(state.register.get(company, {})), treasury)
