"""The end of an Exchange game (docs/exchange.md, "How the game ends"): every company's
treasury is paid out to the investors holding its shares, each treasury x its shares /
outstanding shares, rounded down; what rounding leaves, and the treasury of a company
nobody holds, stays in the company and counts for no one. The richest investor wins;
investors tied at the top share the victory."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .accounts import is_investor
from .phase import MoneyKind, MoneyMove


@dataclass(frozen=True, slots=True)
class Rank:
    place: int  # 1 for the winners
    investor: str  # account key
    net_worth: int


def liquidate(
    treasuries: Mapping[str, int], registers: Mapping[str, Mapping[str, int]]
) -> tuple[MoneyMove, ...]:
    """The liquidation's movements: per company, `liquidation_out` equal to the sum of its
    `liquidation_in`s (nothing for a company nobody holds or with an empty treasury)."""
    moves: list[MoneyMove] = []
    for company in sorted(treasuries):
        treasury = treasuries[company]
        holders = {k: n for k, n in registers.get(company, {}).items() if is_investor(k) and n > 0}
        outstanding = sum(holders.values())
        if treasury <= 0 or not outstanding:
            continue
        shares = [(key, treasury * n // outstanding) for key, n in sorted(holders.items())]
        paid = sum(amount for _, amount in shares)
        if not paid:
            continue
        memo = f"liquidation of {company}"
        moves.append(MoneyMove(company, MoneyKind.LIQUIDATION_OUT, -paid, None, memo))
        moves += [
            MoneyMove(key, MoneyKind.LIQUIDATION_IN, amount, company, memo)
            for key, amount in shares
            if amount
        ]
    return tuple(moves)


def ranking(cash: Mapping[str, int]) -> tuple[Rank, ...]:
    """Investors by net worth (their cash after the liquidation), richest first; equal
    worths share a place (1, 1, 3)."""
    ordered = sorted(((k, v) for k, v in cash.items() if is_investor(k)), key=lambda kv: (-kv[1], kv[0]))
    out: list[Rank] = []
    for i, (key, worth) in enumerate(ordered):
        place = out[-1].place if out and out[-1].net_worth == worth else i + 1
        out.append(Rank(place, key, worth))
    return tuple(out)
