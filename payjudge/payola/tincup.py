"""Tin Cup (rulebook 6.3: Payola played BLIND): offers checked against what the writer
supposes, and the offers that do not fit the board silently ignored at processing time.

Under BLIND a player cannot see most of the board, so a sheet is checked only against the
map and the units its lines name, as written (`supposed_position`): its reply never depends
on whether a foreign unit is really there. When the phase is processed, `screen` drops every
offer whose unit is not on the board with the type written, or whose orders are not legal
on the real board (rule 3.1 item 7: an order naming a unit that is not there, a convoy
with no fleets to carry it), or that offers nothing to a foreign unit, or (PAY_DUMMIES)
that pays a unit of a power somebody plays. The dropped offers
cost nothing and take no part in the auction or in the reductions of rule 5.5; they are
told to nobody until the end of the game (`Auction.ignored`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from ..rules.errors import OrderError
from ..rules.geography import Location, Terrain, UnitType
from ..rules.names import PowerName
from ..rules.orders import Unit
from ..rules.parse import parse_order
from ..rules.position import Position
from ..rules.validate import validate
from .offers import Offer, OfferOrder, Sheet, SheetItem, SignalSupport
from .rules import Flag, PayolaRules


def supposed_position(position: Position, power: PowerName, written: Iterable[Unit]) -> Position:
    """The board as the writer of an offer supposes it: the units the line names, as
    written, all the writer's (ownership is not checked in offers), and a fleet in every
    other sea, so that a convoy is judged by the map alone (whether the fleets are there is
    found out only when the phase is processed)."""
    units: dict[str, Unit] = {}
    for unit in written:
        units.setdefault(unit.province, unit)
    m = position.map
    for prov in m.provinces.values():
        if prov.terrain is Terrain.WATER and prov.name not in units:
            units[prov.name] = Unit(UnitType.FLEET, Location(prov.name))
    return Position(m, position.phase, {power: tuple(units.values())}, {})


@dataclass(frozen=True, slots=True)
class Screened:
    """The sheets with only the offers that fit the board, and the offers ignored."""

    sheets: Mapping[PowerName, Sheet]
    ignored: Mapping[PowerName, tuple[Offer, ...]]  # power -> its ignored offers, in sheet order


def screen(
    position: Position,
    sheets: Mapping[PowerName, Sheet],
    rules: PayolaRules,
    dummies: frozenset[PowerName] = frozenset(),
) -> Screened:
    """Keep, in each sheet, the offers that fit the real board (in its terms: the units'
    coasts as on the board); the rest are ignored."""
    kept: dict[PowerName, Sheet] = {}
    ignored: dict[PowerName, tuple[Offer, ...]] = {}
    for power, sheet in sheets.items():
        items: list[SheetItem] = []
        dropped: list[Offer] = []
        for item in sheet.items:
            if isinstance(item, Offer):
                real = _real_offer(item, position, power, rules, dummies)
                if real is None:
                    dropped.append(item)
                    continue
                items.append(real)
            else:
                items.append(item)
        kept[power] = Sheet(tuple(items))
        if dropped:
            ignored[power] = tuple(dropped)
    return Screened(MappingProxyType(kept), MappingProxyType(ignored))


def _real_offer(
    offer: Offer, position: Position, power: PowerName, rules: PayolaRules, dummies: frozenset[PowerName]
) -> Offer | None:
    """The offer in the board's terms, or None when it must be ignored."""
    unit = position.unit_at(offer.unit.province)
    if unit is None or unit.type is not offer.unit.type:
        return None
    owner = position.owner_at(unit.province)
    if offer.is_zero and owner != power:
        return None  # rule 3.1 item 2: nothing may be offered to a foreign unit
    if Flag.PAY_DUMMIES in rules and owner != power and owner not in dummies:
        return None  # PAY_DUMMIES (rule 6.5): money goes to dummies' units only
    orders: list[OfferOrder] = []
    for order in offer.orders:
        if isinstance(order, SignalSupport):  # a signal may name anything: only the unit counts
            orders.append(SignalSupport(unit, order.text))
            continue
        try:
            real = validate(
                parse_order(str(order), position.map),
                position,
                power,
                check_owner=False,
                flags=rules.flags,
                dummies=dummies,
            )
        except OrderError:
            return None
        orders.append(real)
    return replace(offer, unit=unit, orders=tuple(orders))
