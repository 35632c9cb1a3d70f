"""Every legal order of a unit in the current phase: for order lists, random games and tests.

Each order returned is one `validate()` accepts for its owner and whose canonical text
reads back as the same order. The lists hold the orders that mean something on this
board: `VIA CONVOY` only where a chain of fleets could really carry the army, a
supported fleet move to a split-coast province with no coast or with a coast the fleet
can reach, builds and `WAIVE` only when builds are due, removals only when due.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from .adjustments import allowance, build_sites
from .borders import borders, crossing_refused, support_refused
from .flags import Flag
from .geography import Location, Map, Terrain, UnitType
from .names import PowerName
from .orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    Waive,
)
from .phase import PhaseType
from .position import Position
from .terrain import hibernating


def possible_orders(position: Position, unit: Unit | str, power: PowerName | None = None) -> list[Order]:
    """The legal orders of `unit` (a unit, or the province it stands in) this phase.

    Movement: holds, moves (by land, by convoy), supports and convoys; retreats: each
    retreat and the disband of a dislodged unit; adjustments: its removal, if its power
    must remove units. Given `power`, a unit of another power has no legal order.
    """
    return _Orders(position).of_unit(unit, power)


def possible_adjustments(
    position: Position, power: PowerName, flags: frozenset[Flag] = frozenset()
) -> list[Order]:
    """The legal adjustment orders of `power`: each build and `WAIVE` when it may build,
    each removal when it must remove, nothing otherwise (build sites by `flags`)."""
    if position.phase.type is not PhaseType.ADJUSTMENTS:
        return []
    m = position.map
    delta = allowance(position, power, flags)
    if delta < 0:
        return [Remove(u) for u in position.units.get(power, ())]
    if delta == 0:
        return []
    builds: list[Order] = []
    for home in build_sites(position, power, flags):
        prov = m.provinces[home]
        if m.can_occupy(UnitType.ARMY, Location(home)):
            builds.append(Build(Unit(UnitType.ARMY, Location(home))))
        for coast in prov.coasts or (None,):
            loc = Location(home, coast)
            if m.can_occupy(UnitType.FLEET, loc):
                builds.append(Build(Unit(UnitType.FLEET, loc)))
    return builds + [Waive()] if builds else []


def orderable_units(position: Position) -> dict[PowerName, tuple[Unit, ...]]:
    """The units that take an order this phase, per power (dislodged units in a retreat
    phase, the units of powers that must remove some in an adjustment phase)."""
    kind = position.phase.type
    if kind is PhaseType.MOVEMENT:
        return {p: tuple(us) for p, us in sorted(position.units.items())}
    if kind is PhaseType.RETREATS:
        return {p: tuple(d.unit for d in ds) for p, ds in sorted(position.dislodged.items())}
    return {p: tuple(us) for p, us in sorted(position.units.items()) if position.adjustment(p) < 0}


def all_possible_orders(position: Position) -> dict[PowerName, dict[Unit, list[Order]]]:
    """`possible_orders` of every orderable unit, per power (computed together: faster)."""
    orders = _Orders(position)
    return {p: {u: orders.of_unit(u, p) for u in us} for p, us in orderable_units(position).items()}


class _Neighbours(NamedTuple):
    army: dict[str, tuple[str, ...]]
    fleet: dict[Location, tuple[Location, ...]]
    fleet_provinces: dict[Location, tuple[str, ...]]
    around: dict[str, tuple[str, ...]]  # provinces next to a province, by land or sea
    seas: dict[str, tuple[str, ...]]


def _sorted_neighbours(m: Map) -> _Neighbours:
    """Neighbour lists in a fixed order (sets iterate differently from run to run)."""
    army = {p: tuple(sorted(ns)) for p, ns in m.army_adjacency.items()}
    fleet = {loc: tuple(sorted(ns, key=str)) for loc, ns in m.fleet_adjacency.items()}
    fleet_provinces = {loc: tuple(sorted({n.province for n in ns})) for loc, ns in m.fleet_adjacency.items()}
    around: dict[str, set[str]] = {p: set(ns) for p, ns in army.items()}
    for loc, ns in fleet.items():
        around.setdefault(loc.province, set()).update(n.province for n in ns)
    seas = {
        p: tuple(sorted(m.sea_neighbours(p)))
        for p in m.provinces
        if m.provinces[p].terrain is not Terrain.SHUT
    }
    return _Neighbours(army, fleet, fleet_provinces, {p: tuple(sorted(ns)) for p, ns in around.items()}, seas)


def _convoy_table(m: Map) -> dict[str, dict[str, tuple[str, ...]]]:
    """sea -> army's province -> destinations the fleet in that sea may convoy it to."""
    coastal = sorted(p for p in m.provinces if m.is_coastal(p))
    table: dict[str, dict[str, list[str]]] = {}
    for origin in coastal:
        m.convoy_seas_from(origin)  # every destination's answer in one walk
        for dest in coastal:
            for sea in m.convoy_seas(origin, dest):
                table.setdefault(sea, {}).setdefault(origin, []).append(dest)
    return {s: {o: tuple(ds) for o, ds in by.items()} for s, by in table.items()}


class _Orders:
    """Order lists for one position, sharing what several units need."""

    def __init__(self, position: Position):
        self.position = position
        self.map = position.map
        self.nb = self.map.derived("possible:neighbours", _sorted_neighbours)
        self._reach: dict[tuple[str, str | None], frozenset[str]] = {}
        self._coastal_armies: list[Unit] | None = None

    def of_unit(self, unit: Unit | str, power: PowerName | None) -> list[Order]:
        pos = self.position
        province = unit if isinstance(unit, str) else unit.province
        kind = pos.phase.type
        if kind is PhaseType.RETREATS:
            hit = pos.dislodged_at(province)
            if hit is None or (power is not None and hit[0] != power):
                return []
            d = hit[1]
            return [*(Retreat(d.unit, loc) for loc in d.retreats), Disband(d.unit)]
        hit2 = pos._at.get(province)
        if hit2 is None or (power is not None and hit2[0] != power):
            return []
        owner, board_unit = hit2
        if kind is PhaseType.ADJUSTMENTS:
            return [Remove(board_unit)] if pos.adjustment(owner) < 0 else []
        if hibernating(pos.map, board_unit):  # HIBERNATE: it may only hold
            return [Hold(board_unit)]
        b = borders(pos.map)
        if b.no_support or b.restricted:
            return [o for o in self.movement(board_unit) if self._within_borders(owner, o)]
        return self.movement(board_unit)

    def _within_borders(self, owner: PowerName, order: Order) -> bool:
        """Does `order` respect the map's special borders (rules/borders.py), as
        `validate` does?"""
        pos = self.position
        if isinstance(order, Move):
            here, there = order.unit.province, order.dest.province
            return order.via_convoy or not crossing_refused(pos, owner, here, there)
        if isinstance(order, SupportHold | SupportMove):
            here = order.unit.province
            into = order.supported.province if isinstance(order, SupportHold) else order.dest.province
            if support_refused(pos.map, here, into) or crossing_refused(pos, owner, here, into):
                return False
            if isinstance(order, SupportMove):
                other = order.supported
                target_owner = pos.owner_at(other.province)
                assert target_owner is not None
                if crossing_refused(pos, target_owner, other.province, into):
                    avoid = here if pos.map.is_sea(here) and order.unit.type is UnitType.FLEET else None
                    return other.type is UnitType.ARMY and into in self.convoy_reach(other.province, avoid)
        return True

    # -- movement --------------------------------------------------------------------
    def convoy_reach(self, origin: str, avoid: str | None = None) -> frozenset[str]:
        """Provinces an army in `origin` could be convoyed to by the fleets now at sea
        (not using the fleet in `avoid`): the rule of `validate.fleet_chain`."""
        key = (origin, avoid)
        hit = self._reach.get(key)
        if hit is not None:
            return hit
        m, pos, seas_of = self.map, self.position, self.nb.seas
        result: set[str] = set()
        if m.is_coastal(origin):

            def fleet_at(sea: str) -> bool:
                u = pos.unit_at(sea)
                return u is not None and u.type is UnitType.FLEET and sea != avoid

            frontier = [s for s in seas_of[origin] if fleet_at(s)]
            seen = set(frontier)
            while frontier:
                sea = frontier.pop()
                for nxt in seas_of[sea]:
                    if nxt not in seen and fleet_at(nxt):
                        seen.add(nxt)
                        frontier.append(nxt)
            for sea in seen:
                for loc in self.nb.fleet.get(Location(sea), ()):
                    if loc.province != origin and m.is_coastal(loc.province):
                        result.add(loc.province)
        found = frozenset(result)
        self._reach[key] = found
        return found

    def coastal_armies(self) -> list[Unit]:
        if self._coastal_armies is None:
            m = self.map
            self._coastal_armies = [
                u
                for _, u in self.position.all_units()
                if u.type is UnitType.ARMY and m.is_coastal(u.province)
            ]
        return self._coastal_armies

    def _reachable(self, unit: Unit) -> tuple[str, ...]:
        """Provinces the unit could move to in one step (where it may support)."""
        if unit.type is UnitType.ARMY:
            return self.nb.army.get(unit.province, ())
        return self.nb.fleet_provinces.get(unit.location, ())

    def movement(self, unit: Unit) -> list[Order]:
        m, pos = self.map, self.position
        out: list[Order] = [Hold(unit)]
        if unit.type is UnitType.ARMY:
            walk = self.nb.army.get(unit.province, ())
            out.extend(Move(unit, Location(p)) for p in walk)
            for p in sorted(self.convoy_reach(unit.province)):
                out.append(Move(unit, Location(p), via_convoy=p in walk))
        else:
            out.extend(Move(unit, loc) for loc in self.nb.fleet.get(unit.location, ()))
        reach = self._reachable(unit)
        for p in reach:
            other = pos.unit_at(p)
            if other is not None:
                out.append(SupportHold(unit, other))
        avoid = unit.province if unit.type is UnitType.FLEET and m.is_sea(unit.province) else None
        for dest in reach:
            out.extend(self._supports_into(unit, dest, avoid))
        if unit.type is UnitType.FLEET and m.is_sea(unit.province):
            table = m.derived("possible:convoys", _convoy_table).get(unit.province, {})
            for army in self.coastal_armies():
                for dest in table.get(army.province, ()):
                    out.append(Convoy(unit, army, Location(dest)))
        return out

    def _supports_into(self, unit: Unit, dest: str, avoid: str | None) -> Iterable[Order]:
        m, pos = self.map, self.position
        prov = m.provinces[dest]
        seen: set[str] = set()
        candidates: list[Unit] = []
        for p in self.nb.around.get(dest, ()):
            other = pos.unit_at(p)
            if other is not None:
                seen.add(p)
                candidates.append(other)
        if prov.terrain is Terrain.COAST:
            for army in self.coastal_armies():
                if army.province not in seen and dest in self.convoy_reach(army.province, avoid):
                    candidates.append(army)
        for other in candidates:
            if other.province == unit.province or other.province == dest:
                continue
            if other.type is UnitType.ARMY:
                if not prov.terrain.army_can_enter:
                    continue
                if dest in m.army_neighbours(other.province) or dest in self.convoy_reach(
                    other.province, avoid
                ):
                    yield SupportMove(unit, other, Location(dest))
            elif m.reaches_province(UnitType.FLEET, other.location, dest):
                yield SupportMove(unit, other, Location(dest))
                if prov.coasts:
                    for loc in m.fleet_coasts_reachable(other.location, dest):
                        yield SupportMove(unit, other, loc)


def orders_by_power(position: Position) -> dict[PowerName, list[Order]]:
    """Every legal order each power could give this phase (adjustments included)."""
    if position.phase.type is PhaseType.ADJUSTMENTS:
        lists = {p: possible_adjustments(position, p) for p in position.map.power_names}
        return {p: os for p, os in lists.items() if os}
    return {
        p: [o for os in by_unit.values() for o in os] for p, by_unit in all_possible_orders(position).items()
    }
