"""A company's dividend (docs/exchange.md, "Dividends"): d AgP per outstanding share, paid
to the investors on the register; the pool takes nothing. A declaration the treasury
cannot cover is lowered to what it can (rounded down), and the CEO is told."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .accounts import is_investor
from .problems import ExchangeProblem, ProblemKind


@dataclass(frozen=True, slots=True)
class Dividend:
    company: str
    declared: int
    per_share: int
    payments: tuple[tuple[str, int], ...]  # (investor key, AgP), in key order, none of 0

    @property
    def total(self) -> int:
        return sum(amount for _, amount in self.payments)

    @property
    def lowered(self) -> bool:
        return self.per_share < self.declared

    @property
    def withheld(self) -> bool:
        return self.per_share == 0


def outstanding(register: Mapping[str, int]) -> int:
    """Shares held by investors (not the pool)."""
    return sum(n for key, n in register.items() if is_investor(key))


def max_dividend(treasury: int, register: Mapping[str, int]) -> int:
    """The most a company can pay per outstanding share (0 with none outstanding)."""
    shares = outstanding(register)
    return max(treasury, 0) // shares if shares else 0


def check_dividend(
    company: str, declared: int, treasury: int, register: Mapping[str, int]
) -> list[ExchangeProblem]:
    """The problems with a CEO's declaration of `declared` AgP a share when it is sent
    (empty: fine; 0 declares none, which is always fine)."""
    if not declared:
        return []
    shares = outstanding(register)
    if not shares:
        return [ExchangeProblem(ProblemKind.NO_OUTSTANDING, f"{company} has no outstanding shares")]
    most = max_dividend(treasury, register)
    if declared <= most:
        return []
    text = f"{company} holds {treasury} AgP for {shares} outstanding shares: at most {most} AgP a share"
    return [ExchangeProblem(ProblemKind.DIVIDEND_TOO_HIGH, text)]


def dividend(company: str, declared: int, treasury: int, register: Mapping[str, int]) -> Dividend:
    """Pay `declared` AgP a share, or less if the treasury cannot cover it. `register`
    maps account keys to shares of `company` (the pool, under the company's own key, is
    ignored)."""
    if declared < 0:
        raise ValueError("a dividend is 0 AgP or more")
    per_share = min(declared, max_dividend(treasury, register))
    payments = tuple(
        (key, per_share * n)
        for key, n in sorted(register.items())
        if is_investor(key) and n > 0 and per_share > 0
    )
    return Dividend(company, declared, per_share, payments)
