"""Worths and income (docs/exchange.md, "Worth and income"): a CEO divides its company's
allowance, the ordinary Payola income for its number of centres, among its centres; a
worth stays with its centre when the centre is captured; a year's income is the worths of
the centres owned, never more than the allowance. So no CEO can print money."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ...rules.names import PowerName
from ...rules.position import Position
from ..income import IncomeLine, income
from ..rules import Flag, PayolaRules
from .problems import ExchangeProblem, ProblemKind


def allowance(count: int, position: Position, rules: PayolaRules) -> int:
    """What the game's income scheme pays for `count` centres (with CAP)."""
    # the names do not matter: Exchange refuses a per-centre TAX table
    return income([f"#{i}" for i in range(count)], position, rules)


def spread(total: int, centres: Iterable[str]) -> dict[str, int]:
    """`total` over `centres` as evenly as possible, the odd AgP to the first in
    alphabetical order."""
    names = sorted(centres)
    if not names:
        return {}
    each, odd = divmod(total, len(names))
    return {name: each + (1 if i < odd else 0) for i, name in enumerate(names)}


def standard_worth(position: Position, rules: PayolaRules) -> int:
    """A neutral centre's starting worth: the companies' opening allowances summed, over
    the number of their home centres, rounded down (standard map: 350 / 22 -> 15)."""
    owned = [len(cs) for cs in position.centers.values()]
    homes = sum(owned)
    return sum(allowance(n, position, rules) for n in owned) // homes if homes else 0


def starting_worths(position: Position, rules: PayolaRules) -> dict[str, int]:
    """Every centre's worth when the game starts: each company's allowance spread over its
    centres, every other centre the standard worth."""
    worths: dict[str, int] = {}
    for centres in position.centers.values():
        worths.update(spread(allowance(len(centres), position, rules), centres))
    neutral = standard_worth(position, rules)
    for centre in position.map.supply_centers:
        worths.setdefault(centre, neutral)
    return dict(sorted(worths.items()))


def check_worths(
    company: str,
    owned: Iterable[str],
    worths: Mapping[str, int],
    changes: Mapping[str, int],
    position: Position,
    rules: PayolaRules,
) -> list[ExchangeProblem]:
    """The problems with a CEO's `changes` to its company's centres' worths (empty: fine)."""
    owned = sorted(owned)
    problems = [
        ExchangeProblem(ProblemKind.NOT_OWNED, f"{company} does not own {centre}")
        for centre in sorted(changes)
        if centre not in owned
    ]
    problems += [
        ExchangeProblem(
            ProblemKind.NEGATIVE_WORTH, f"a worth is a whole number of AgP, 0 or more ({centre} {n})"
        )
        for centre, n in changes.items()
        if n < 0
    ]
    if problems:
        return problems
    total = sum(changes.get(c, worths.get(c, 0)) for c in owned)
    limit = allowance(len(owned), position, rules)
    if total > limit:
        text = (
            f"{company}'s centres would be worth {total} AgP, more than its allowance of "
            f"{limit} AgP for {len(owned)} centres"
        )
        problems.append(ExchangeProblem(ProblemKind.OVER_ALLOWANCE, text))
    return problems


def year_income(
    owned: Iterable[str], worths: Mapping[str, int], position: Position, rules: PayolaRules
) -> int:
    """A company's income at the year's end: its centres' worths, capped at its allowance."""
    owned = tuple(owned)
    return min(sum(worths.get(c, 0) for c in owned), allowance(len(owned), position, rules))


def exchange_year_end(
    position: Position, balances: Mapping[PowerName, int], worths: Mapping[str, int], rules: PayolaRules
) -> dict[PowerName, IncomeLine]:
    """Every company's year-end income under Exchange: `year_income` of the centres it
    owns in `position` (NO_HOARDING empties the treasury first)."""
    out = {}
    for company in position.map.power_names:
        forward = 0 if Flag.NO_HOARDING in rules else balances.get(company, 0)
        gained = year_income(sorted(position.centers.get(company, ())), worths, position, rules)
        out[company] = IncomeLine(company, forward, gained, balance=forward + gained)
    return out
