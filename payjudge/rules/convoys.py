"""Convoy chains on the board and convoy routes on the map, for checking orders.

A move that needs a convoy, or a support of one, is legal only if a chain of convoying
units is on the board now (`fleet_chain`, DATC 4.E.1, 6.D.32); a convoy order only from a
sea on a route that needs it (`convoy_seas`). Under COASTAL_CONVOY fleets on coasts convoy
too; under PORTAGE_CONVOY armies carry fleets overland (`army_chain`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .flags import Flag
from .geography import Map, UnitType
from .orders import Move, Order, SupportMove
from .position import Position


def fleet_chain(
    position: Position, origin: str, dest: str, avoid: str | None = None, flags: frozenset[Flag] = frozenset()
) -> bool:
    """Is there a chain of seas, each holding a fleet, from `origin` to `dest`?

    A move that needs a convoy is legal only if such a chain is on the board now
    (DATC 4.E.1, 6.D.32); a fleet cannot both convoy a move and support it (6.D.31).
    Under COASTAL_CONVOY the chain may also pass fleets on coasts.
    """
    m = position.map
    if Flag.COASTAL_CONVOY in flags:
        return _coastal_chain(position, origin, dest, avoid)
    seas = set(m.convoy_seas(origin, dest)) if m.convoy_path_possible(origin, dest) else set()
    if not seas:
        return False

    def has_fleet(sea: str) -> bool:
        unit = position.unit_at(sea)
        return unit is not None and unit.type is UnitType.FLEET and sea != avoid

    return linked_by(origin, dest, m.sea_neighbours, has_fleet)


def linked_by(
    origin: str, dest: str, neighbours: Callable[[str], Iterable[str]], holds: Callable[[str], bool]
) -> bool:
    """Is there a chain of provinces, each one that `holds` (a convoying unit stands there),
    from a neighbour of `origin` to a neighbour of `dest`? The one search behind every
    convoy chain: fleets at sea, fleets on coasts (COASTAL_CONVOY), armies (PORTAGE_CONVOY)."""
    goal = set(neighbours(dest))
    frontier = [p for p in neighbours(origin) if holds(p)]
    seen = set(frontier)
    while frontier:
        p = frontier.pop()
        if p in goal:
            return True
        for nxt in neighbours(p):
            if nxt not in seen and holds(nxt):
                seen.add(nxt)
                frontier.append(nxt)
    return False


def chain_looked_for(order: Order, m: Map) -> tuple[str, str, str | None] | None:
    """The chain of fleets `validate` looked for on the board to accept this movement
    order, as the arguments of `fleet_chain`: for a move of an army to a province it
    cannot walk to, and for a support of one. None for any other movement order, whose
    legality depends only on the map and on the units it names (`_movement` reads the
    board nowhere else)."""
    if (
        type(order) is Move
        and order.unit.type is UnitType.ARMY
        and order.dest.province not in m.army_neighbours(order.unit.province)
    ):
        return order.unit.province, order.dest.province, None
    if (
        type(order) is SupportMove
        and order.supported.type is UnitType.ARMY
        and order.dest.province not in m.army_neighbours(order.supported.province)
    ):
        return order.supported.province, order.dest.province, order.unit.province
    return None


def _fleet_links(m: Map) -> dict[str, frozenset[str]]:
    """Province -> the provinces a fleet there (on any of its coasts) borders."""
    links: dict[str, set[str]] = {}
    for loc, others in m.fleet_adjacency.items():
        links.setdefault(loc.province, set()).update(o.province for o in others)
    return {p: frozenset(ns) for p, ns in links.items()}


def carrier(m: Map, province: str, flags: frozenset[Flag]) -> bool:
    """Can a fleet in `province` convoy? At sea; under COASTAL_CONVOY on a coast too."""
    return m.is_sea(province) or (Flag.COASTAL_CONVOY in flags and m.is_coastal(province))


def _linked(m: Map, start: str, flags: frozenset[Flag], avoid: frozenset[str]) -> set[str]:
    """The convoying provinces a chain from `start` may reach, none of `avoid` on the way."""
    links = m.derived("validate:fleet_links", _fleet_links)
    seen = {p for p in links.get(start, ()) if carrier(m, p, flags) and p not in avoid}
    frontier = list(seen)
    while frontier:
        for nxt in links.get(frontier.pop(), ()):
            if nxt not in seen and nxt not in avoid and carrier(m, nxt, flags):
                seen.add(nxt)
                frontier.append(nxt)
    return seen


def _coastal_chain(position: Position, origin: str, dest: str, avoid: str | None) -> bool:
    """COASTAL_CONVOY: a chain of fleets, at sea or on coasts, from `origin` to `dest`."""
    m = position.map
    if not (m.is_coastal(origin) and m.is_coastal(dest)):
        return False
    links = m.derived("validate:fleet_links", _fleet_links)
    flags = frozenset({Flag.COASTAL_CONVOY})

    def has_fleet(p: str) -> bool:
        unit = position.unit_at(p)
        return (
            unit is not None
            and unit.type is UnitType.FLEET
            and p != avoid
            and p not in (origin, dest)
            and carrier(m, p, flags)
        )

    return linked_by(origin, dest, lambda p: links.get(p, ()), has_fleet)


def army_can_reach(
    position: Position, origin: str, dest: str, avoid: str | None = None, flags: frozenset[Flag] = frozenset()
) -> bool:
    m = position.map
    return dest in m.army_neighbours(origin) or fleet_chain(position, origin, dest, avoid, flags)


def convoy_possible(m: Map, origin: str, dest: str, flags: frozenset[Flag]) -> bool:
    if Flag.COASTAL_CONVOY in flags:
        return bool(convoy_seas(m, origin, dest, flags))
    return m.convoy_path_possible(origin, dest)


def convoy_seas(m: Map, origin: str, dest: str, flags: frozenset[Flag]) -> frozenset[str]:
    """The seas whose fleets may convoy an army from `origin` to `dest`: those on a chain in
    which every fleet is needed; under CONVOY_BACK, every sea linked by seas to both ends
    (a route may then pass a sea twice); under COASTAL_CONVOY, every sea or coast so linked."""
    if not flags & {Flag.CONVOY_BACK, Flag.COASTAL_CONVOY}:
        return m.convoy_seas(origin, dest)
    if origin == dest or not (m.is_coastal(origin) and m.is_coastal(dest)):
        return frozenset()
    ends = frozenset({origin, dest})
    return frozenset(_linked(m, origin, flags, ends) & _linked(m, dest, flags, ends))


def land_linked(m: Map, start: str, avoid: frozenset[str]) -> set[str]:
    """PORTAGE_CONVOY: the provinces a chain of armies from `start` may pass."""
    seen = {p for p in m.army_neighbours(start) if p not in avoid}
    frontier = list(seen)
    while frontier:
        for nxt in m.army_neighbours(frontier.pop()):
            if nxt not in seen and nxt not in avoid:
                seen.add(nxt)
                frontier.append(nxt)
    return seen


def army_chain(position: Position, origin: str, dest: str, avoid: str | None = None) -> bool:
    """PORTAGE_CONVOY: is there a chain of armies overland from `origin` to `dest`, both on
    a coast (the fleet's own province and its destination excluded)? From a province with
    several coasts to itself: is there an army in a neighbouring province (any will do,
    coastal or not: it only lends its hands)?"""
    m = position.map

    def has_army(p: str) -> bool:
        unit = position.unit_at(p)
        return unit is not None and unit.type is UnitType.ARMY and p != avoid and p not in (origin, dest)

    if origin == dest:
        return len(m.provinces[origin].coasts) > 1 and any(map(has_army, m.army_neighbours(origin)))
    if not (m.is_coastal(origin) and m.is_coastal(dest)):
        return False

    return linked_by(origin, dest, m.army_neighbours, has_army)
