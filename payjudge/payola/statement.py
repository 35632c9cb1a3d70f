"""The private account statement of rule 5.7, as a view for `templates/statement.txt.j2`.

Items: the order of each of the power's units and the total bribe it accepted, the
offers of the power that were accepted and their cost, the sheet as processed, the
reduction rounds it suffered, its total expenditure, previous and new balance.
HIDE_COST drops the units' totals, HIDE_OFFERS everything about the power's offers;
under NO_LEDGERS there is no statement at all (the money moves all the same).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.names import PowerName
from ..rules.phase import Phase
from .auction import Auction
from .rules import Flag, PayolaRules


@dataclass(frozen=True, slots=True)
class UnitLine:
    unit: str
    order: str
    total: int | None  # None under HIDE_COST
    unpaid: bool  # none of the power's money went to this order


@dataclass(frozen=True, slots=True)
class BribeLine:
    unit: str
    order: str
    amount: int
    gift: bool = False  # a gift paid for an order it did not name (rule 3.2)


@dataclass(frozen=True, slots=True)
class StatementView:
    phase: str  # "Spring 1901 Movement"
    power: PowerName
    show_units: bool  # not under PAY_DUMMIES (own units are ordered, not bribed)
    show_totals: bool  # not under HIDE_COST
    show_offers: bool  # not under HIDE_OFFERS
    units: tuple[UnitLine, ...]
    zerosum_income: int | None  # ZEROSUM: the bribes the power's units accepted
    offered: bool  # the power offered anything this phase
    bribes: tuple[BribeLine, ...]
    sheet: tuple[str, ...]  # the sheet as processed (normalised)
    previous: int
    savings: int
    reductions: int
    saved_everything: bool  # the savings asked for took the whole balance: nothing spent
    cost: int
    balance: int


def statement_view(
    auction: Auction, power: PowerName, phase: Phase, rules: PayolaRules, sheet_text: str = ""
) -> StatementView | None:
    """The statement `power` receives after the auction; None under NO_LEDGERS."""
    if Flag.NO_LEDGERS in rules:
        return None
    hide_offers = Flag.HIDE_OFFERS in rules
    show_totals = Flag.HIDE_COST not in rules
    # a unit's order is "unpaid" when the power had no offer at all (not even its own
    # automatic HOLD) for it: DPjudge's '*'
    offered = {c.unit.province: {p for b in c.bids if b.chosen for p, _ in b.offers} for c in auction.chart}
    units = []
    for prov in sorted(auction.units):
        if auction.owners[prov] != power:
            continue
        units.append(
            UnitLine(
                str(auction.units[prov]),
                str(auction.orders[prov]),
                auction.totals[prov] if show_totals else None,
                power not in offered.get(prov, ()) and not hide_offers,
            )
        )
    zerosum = None
    if Flag.ZEROSUM in rules:
        zerosum = sum(auction.totals[p] for p in auction.units if auction.owners[p] == power)
    bribes = tuple(
        BribeLine(str(p.unit), str(p.order), p.amount, p.gift) for p in auction.paid.get(power, ())
    )
    previous, savings = auction.previous.get(power, 0), auction.savings.get(power, 0)
    sheet = tuple(line for line in sheet_text.splitlines() if line.strip())
    return StatementView(
        phase=phase.title,
        power=power,
        show_units=Flag.PAY_DUMMIES not in rules and bool(units),
        show_totals=show_totals,
        show_offers=not hide_offers,
        units=tuple(units),
        zerosum_income=zerosum,
        offered=bool(sheet),
        bribes=bribes,
        sheet=sheet,
        previous=previous,
        savings=savings,
        reductions=auction.reductions.get(power, 0),
        cost=auction.spent.get(power, 0),
        saved_everything=savings > 0 and savings >= previous,
        balance=auction.balances.get(power, 0),
    )
