"""The private account statement of rule 5.7, as a view for `templates/statement.txt.j2`.

Items: the order of each of the power's units and the total bribe it accepted, the
offers of the power that were accepted and their cost, the sheet as processed, the
reduction rounds it suffered, its total expenditure, previous and new balance.
Under BLIND (Tin Cup) an accepted offer shows only its amount and the unit's type and
nationality (rule 6.3): the player matches the price to its sheet. HIDE_COST drops the
units' totals, HIDE_OFFERS everything about the power's offers;
under NO_LEDGERS there is no statement at all (the money moves
all the same).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.geography import UnitType
from ..rules.names import PowerName
from ..rules.orders import Unit
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
    # BLIND (Tin Cup, rule 6.3 on 5.7 item 3): only the unit's type and nationality are
    # told, neither its place nor its order; `unit` and `order` are then empty
    blind: str = ""  # "an army of ENGLAND"


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


def _blind_unit(unit: Unit, owner: str) -> str:
    kind = "an army" if unit.type is UnitType.ARMY else "a fleet"
    return f"{kind} of {owner}"


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
    units = []
    for c in auction.chart:  # (in province order, as the units are)
        if c.owner != power:
            continue
        prov = c.unit.province
        offered = any(p == power for b in c.bids if b.chosen for p, _ in b.offers)
        units.append(
            UnitLine(
                str(c.unit),
                str(auction.orders[prov]),
                auction.totals[prov] if show_totals else None,
                not offered and not hide_offers,
            )
        )
    zerosum = None
    if Flag.ZEROSUM in rules:
        zerosum = sum(auction.totals[p] for p in auction.units if auction.owners[p] == power)
    if Flag.BLIND in rules:
        # not even the gift mark (it would tell that the unit did something else), nor the
        # board's order of provinces: by nationality, type and amount
        blind = (
            BribeLine("", "", p.amount, False, _blind_unit(p.unit, auction.owners[p.unit.province]))
            for p in auction.paid.get(power, ())
        )
        bribes = tuple(sorted(blind, key=lambda b: (b.blind, -b.amount)))
    else:
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
