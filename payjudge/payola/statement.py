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


@dataclass(slots=True, unsafe_hash=True)
class BribeRow:
    """One accepted offer, laid out: `text` is its amount and order in the template's
    columns ("    12  A PAR - BUR"); the template adds the words of a gift's note."""

    text: str
    gift: bool  # a gift paid for an order it did not name (rule 3.2)

    def __init__(self, text: str, gift: bool) -> None:
        self.text = text
        self.gift = gift


@dataclass(slots=True, unsafe_hash=True)
class StatementView:
    """What one power's statement says: a value made for every power at every auction,
    by its own `__init__` (run in C when compiled: see book.Entry)."""

    phase: str  # "Spring 1901 Movement"
    power: PowerName
    show_units: bool  # not under PAY_DUMMIES (own units are ordered, not bribed)
    show_totals: bool  # not under HIDE_COST
    show_offers: bool  # not under HIDE_OFFERS
    # Each unit's row, laid out in the template's columns: the mark of an order the power
    # offered nothing for, the total the unit accepted (under HIDE_COST neither) and the
    # order, " *    12  A PAR H". The rows come made because a template loop reading
    # fields costs more than the whole rest of the statement, and they hold no words.
    units: tuple[str, ...]
    unpaid: bool  # some unit row is marked (the template explains the mark)
    zerosum_income: int | None  # ZEROSUM: the bribes the power's units accepted
    offered: bool  # the power offered anything this phase
    bribes: tuple[BribeRow, ...]
    sheet: tuple[str, ...]  # the sheet as processed (normalised)
    previous: int
    savings: int
    reductions: int
    saved_everything: bool  # the savings asked for took the whole balance: nothing spent
    cost: int
    balance: int

    def __init__(
        self,
        phase: str,
        power: PowerName,
        show_units: bool,
        show_totals: bool,
        show_offers: bool,
        units: tuple[str, ...],
        unpaid: bool,
        zerosum_income: int | None,
        offered: bool,
        bribes: tuple[BribeRow, ...],
        sheet: tuple[str, ...],
        previous: int,
        savings: int,
        reductions: int,
        saved_everything: bool,
        cost: int,
        balance: int,
    ) -> None:
        self.phase = phase
        self.power = power
        self.show_units = show_units
        self.show_totals = show_totals
        self.show_offers = show_offers
        self.units = units
        self.unpaid = unpaid
        self.zerosum_income = zerosum_income
        self.offered = offered
        self.bribes = bribes
        self.sheet = sheet
        self.previous = previous
        self.savings = savings
        self.reductions = reductions
        self.saved_everything = saved_everything
        self.cost = cost
        self.balance = balance


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
    any_unpaid = False
    for c in auction.chart:  # (in province order, as the units are)
        if c.owner != power:
            continue
        order = str(auction.orders[c.unit.province])
        if not show_totals:
            units.append(f"    {order}")
            continue
        unpaid = not hide_offers
        for bid in c.bids:
            if bid.chosen:
                unpaid = unpaid and power not in dict(bid.offers)
        any_unpaid = any_unpaid or unpaid
        units.append(f" {'*' if unpaid else ' '} {c.total:>5}  {order}")
    zerosum = None
    if Flag.ZEROSUM in rules:
        zerosum = auction.received_by(power)
    paid = auction.paid.get(power, ())
    if Flag.BLIND in rules:
        # not even the gift mark (it would tell that the unit did something else), nor the
        # board's order of provinces: by nationality (the power bribed, as its sheet names
        # the units it bribes), then armies before fleets, then the largest amount first
        blind = sorted(
            (
                (auction.owners[p.unit.province], p.unit.type is not UnitType.ARMY, -p.amount, p.unit)
                for p in paid
            ),
            key=lambda b: b[:3],
        )
        bribes = tuple(
            BribeRow(f"   {-amount:>5}  {_blind_unit(unit, owner)}", False)
            for owner, _, amount, unit in blind
        )
    else:
        bribes = tuple(BribeRow(f"   {p.amount:>5}  {p.order}", p.gift) for p in paid)
    previous, savings = auction.previous.get(power, 0), auction.savings.get(power, 0)
    sheet = tuple(line for line in sheet_text.splitlines() if line.strip())
    return StatementView(
        phase=phase.title,
        power=power,
        show_units=Flag.PAY_DUMMIES not in rules and bool(units),
        show_totals=show_totals,
        show_offers=not hide_offers,
        units=tuple(units),
        unpaid=any_unpaid,
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
