"""Checking a move order: where the unit may go, and on which coast.

Canonicalisation fills in the coast a unit stands on and the one coast a fleet can reach,
and keeps `VIA CONVOY` only where the army could also walk. Under PORTAGE_CONVOY a fleet
may be carried overland, or from one coast of its province to another.
"""

from __future__ import annotations

from .borders import crossing_refused
from .convoys import army_chain, carrier, convoy_possible, fleet_chain
from .errors import AmbiguousOrder, IllegalOrder
from .flags import Flag
from .geography import Location, Map, Terrain, UnitType
from .names import PowerName
from .orders import Move, Unit
from .parse import ParsedOrder
from .position import Position


def move_order(
    parsed: ParsedOrder,
    unit: Unit,
    position: Position,
    owner: PowerName,
    flags: frozenset[Flag] = frozenset(),
) -> Move:
    """The move `parsed` stands for, of `unit` (owned by `owner`)."""
    m = position.map
    dest = parsed.dest
    assert dest is not None
    # a border the unit's owner may not cross (the map's `X(CEN)`, `R:X`): a fleet may not
    # move across it, an army only by convoy
    refused = crossing_refused(position, owner, unit.province, dest.province)
    if dest.province == unit.province:
        if unit.type is UnitType.FLEET and Flag.PORTAGE_CONVOY in flags:
            return Move(unit, _coast_portage_dest(m, unit, dest, position))
        raise IllegalOrder(f"{unit} cannot move to the province it is in")
    prov = m.provinces.get(dest.province)
    if prov is None or prov.terrain is Terrain.SHUT:
        raise IllegalOrder(f"{unit} cannot move to {dest.province}: impassable")
    if unit.type is UnitType.FLEET:
        return _fleet_move(parsed, unit, position, refused, flags)
    return _army_move(parsed, unit, position, refused, flags)


def _fleet_move(
    parsed: ParsedOrder, unit: Unit, position: Position, refused: str | None, flags: frozenset[Flag]
) -> Move:
    m = position.map
    dest = parsed.dest
    assert dest is not None
    prov = m.provinces[dest.province]
    if (
        Flag.PORTAGE_CONVOY in flags
        and Flag.MULTI_COAST_PORTAGE not in flags
        and prov.terrain is Terrain.COAST
        and not m.reaches_province(UnitType.FLEET, unit.location, dest.province)
    ):
        return Move(unit, _portage_dest(m, unit, dest, position))
    if parsed.via_convoy:
        raise IllegalOrder(f"{unit} is a fleet and cannot be convoyed")
    if refused and m.reaches_province(UnitType.FLEET, unit.location, dest.province):
        raise IllegalOrder(f"{unit} cannot move to {dest.province}: {refused}")
    return Move(unit, _fleet_dest(m, unit, dest))


def _army_move(
    parsed: ParsedOrder, unit: Unit, position: Position, refused: str | None, flags: frozenset[Flag]
) -> Move:
    """An army walks to a neighbour, or is convoyed: by a route of seas the map has and a
    chain of fleets on the board now; across a border it may not cross, only by convoy."""
    m = position.map
    assert parsed.dest is not None
    if not m.provinces[parsed.dest.province].terrain.army_can_enter:
        raise IllegalOrder(f"{unit} cannot move to {parsed.dest.province}: an army cannot go to sea")
    dest = parsed.dest.bare  # a coast given to an army is ignored (DATC 6.B.12)
    for sea in parsed.route:
        if not carrier(m, sea.province, flags):
            raise IllegalOrder(f"{unit}: a convoy route can only pass through seas, not {sea.province}")
    adjacent = dest.province in m.army_neighbours(unit.province)
    by_sea_only = adjacent and refused is not None  # it may not walk there: only by convoy
    if by_sea_only:
        if not convoy_possible(m, unit.province, dest.province, flags):
            raise IllegalOrder(f"{unit} cannot move to {dest.province}: {refused}")
        adjacent = False
    if parsed.via_convoy and not convoy_possible(m, unit.province, dest.province, flags):
        raise IllegalOrder(f"{unit} cannot go to {dest.province} by convoy: no sea route links them")
    if not adjacent:
        _check_convoyed(unit, dest, position, flags)
    return Move(unit, dest, via_convoy=(parsed.via_convoy and adjacent) or by_sea_only)


def _check_convoyed(unit: Unit, dest: Location, position: Position, flags: frozenset[Flag]) -> None:
    """An army that cannot walk: a convoy route on the map, and a chain of fleets on it."""
    if not convoy_possible(position.map, unit.province, dest.province, flags):
        raise IllegalOrder(
            f"{unit} cannot move to {dest.province}: not adjacent, and no convoy could take it there"
        )
    if not fleet_chain(position, unit.province, dest.province, flags=flags):
        raise IllegalOrder(
            f"{unit} cannot move to {dest.province}: it would need a convoy, "
            f"and no chain of fleets links them"
        )


def _portage_dest(m: Map, unit: Unit, dest: Location, position: Position) -> Location:
    """PORTAGE_CONVOY: a fleet carried overland to `dest`, on any of its coasts."""
    if not army_chain(position, unit.province, dest.province):
        raise IllegalOrder(
            f"{unit} cannot move to {dest.province}: not adjacent, and no chain "
            f"of armies could carry it there"
        )
    coasts = m.provinces[dest.province].coasts
    if dest.coast is None and len(coasts) > 1:
        raise AmbiguousOrder(
            f"{unit} - {dest.province}: say which coast "
            f"({' or '.join(f'{dest.province}/{c}' for c in coasts)})"
        )
    if dest.coast is not None and dest.coast not in coasts:
        raise IllegalOrder(f"{dest.province} has no coast {dest.coast}")
    if dest.coast is None and coasts:
        return Location(dest.province, coasts[0])
    return dest


def _coast_portage_dest(m: Map, unit: Unit, dest: Location, position: Position) -> Location:
    """PORTAGE_CONVOY: a fleet carried from one coast of its province to another by an army
    in a neighbouring province (seed 003, MULTI_COAST_PORTAGE). With two coasts the other
    one is meant when none is named."""
    coasts = m.provinces[unit.province].coasts
    if len(coasts) < 2:
        raise IllegalOrder(f"{unit} cannot move to the province it is in")
    others = [c for c in coasts if c != unit.location.coast]
    if dest.coast is None:
        if len(others) > 1:
            names = " or ".join(f"{unit.province}/{c}" for c in others)
            raise AmbiguousOrder(f"{unit} - {unit.province}: say which coast ({names})")
        dest = Location(unit.province, others[0])
    if dest.coast not in others:
        if dest.coast in coasts:
            raise IllegalOrder(f"{unit} cannot move to the coast it is on")
        raise IllegalOrder(f"{unit.province} has no coast {dest.coast}")
    if not army_chain(position, unit.province, unit.province):
        raise IllegalOrder(
            f"{unit} cannot move to {dest}: no army in a neighbouring province could carry it there"
        )
    return dest


def _fleet_dest(m: Map, unit: Unit, dest: Location) -> Location:
    """Resolve the coast of a fleet's destination; raise when it cannot go there."""
    prov = m.provinces.get(dest.province)
    if prov is None or not prov.terrain.fleet_can_enter:
        raise IllegalOrder(f"{unit} cannot move to {dest.province}: a fleet cannot go inland")
    if prov.coasts:
        reachable = m.fleet_coasts_reachable(unit.location, dest.province)
        if dest.coast is None:
            if len(reachable) == 1:
                return reachable[0]
            if len(reachable) > 1:
                names = " or ".join(str(r) for r in reachable)
                raise AmbiguousOrder(f"{unit} - {dest.province}: say which coast ({names})")
            raise IllegalOrder(f"{unit} cannot move to {dest.province}")
        if dest not in reachable:
            if dest.coast not in prov.coasts:
                raise IllegalOrder(f"{dest.province} has no coast {dest.coast}")
            raise IllegalOrder(f"{unit} cannot reach {dest}")
        return dest
    dest = dest.bare
    if not m.adjacent(UnitType.FLEET, unit.location, dest):
        raise IllegalOrder(f"{unit} cannot move to {dest}: not adjacent along a coast")
    return dest
