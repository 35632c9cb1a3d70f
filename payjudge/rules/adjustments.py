"""Adjudicate an adjustment phase: builds, removals, and civil-disorder removals.

Orders are carried out one by one, in the order given (DATC 4.D.4–4.D.6): surplus and
duplicate builds or removals are void. A power that removes fewer units than it must
loses the rest by the 2023 rulebook's civil-disorder rule (DATC 4.D.8, cases 6.J): units
not on a supply centre go first, the farthest from any centre the power owns (counting
provinces, whatever the unit could really cross), fleets before armies, then by the
province's name in alphabetical order.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet

from .geography import Map, UnitType
from .orders import Build, Order, Remove, Unit, Waive
from .outcome import OrderOutcome, Result
from .position import Position


def province_graph(m: Map) -> dict[str, frozenset[str]]:
    """Every border between provinces, for armies or fleets, coasts ignored."""
    graph: dict[str, set[str]] = {p: set(m.army_neighbours(p)) for p in m.provinces}
    for loc, others in m.fleet_adjacency.items():
        for other in others:
            graph[loc.province].add(other.province)
            graph[other.province].add(loc.province)
    return {p: frozenset(ns) for p, ns in graph.items()}


def distances(graph: dict[str, frozenset[str]], sources: frozenset[str]) -> dict[str, int]:
    dist = dict.fromkeys(sources, 0)
    queue = deque(sources)
    while queue:
        p = queue.popleft()
        for n in graph[p]:
            if n not in dist:
                dist[n] = dist[p] + 1
                queue.append(n)
    return dist


def distance_table(m: Map) -> dict[str, dict[str, int]]:
    """Each province's distance to every province it is connected to. The graph's borders
    go both ways, so the distance from a set of provinces is the least of these."""
    graph = m.derived("province_graph", province_graph)
    return {p: distances(graph, frozenset((p,))) for p in graph}


def civil_disorder_removals(position: Position, power: str, count: int,
                            exclude: AbstractSet[str] = frozenset()) -> list[Unit]:
    m = position.map
    table = m.derived("distance_table", distance_table)
    owned = position.centers.get(power, frozenset())
    far = len(m.provinces) + 1

    def distance(province: str) -> int:
        """From the nearest centre `power` owns (`far` if none connects)."""
        from_here = table[province]
        return min((from_here[c] for c in owned if c in from_here), default=far)

    candidates = [u for u in position.units.get(power, ()) if u.province not in exclude]
    candidates.sort(key=lambda u: (m.provinces[u.province].supply_center,
                                   -distance(u.province),
                                   u.type is not UnitType.FLEET,
                                   m.provinces[u.province].full_name.upper()))
    return candidates[:count]


def adjudicate_adjustments(position: Position, orders: Mapping[str, Sequence[Order]]
                           ) -> tuple[tuple[OrderOutcome, ...], dict[str, tuple[Unit, ...]]]:
    """Validated orders per power, in the order given -> outcomes and the new units."""
    outcomes: list[OrderOutcome] = []
    units = {p: list(us) for p, us in position.units.items()}
    for power in position.map.power_names:
        delta = position.adjustment(power)
        given = orders.get(power, ())
        if delta > 0:
            room = delta
            built: set[str] = set()
            for order in given:
                ok = False
                if isinstance(order, (Build, Waive)) and room > 0:
                    if isinstance(order, Build):
                        ok = order.unit.province not in built
                        if ok:
                            built.add(order.unit.province)
                            units.setdefault(power, []).append(order.unit)
                    else:
                        ok = True
                    room -= ok
                outcomes.append(OrderOutcome(power, order, Result.SUCCEEDS if ok else Result.VOID))
        elif delta < 0:
            need = -delta
            removed: set[str] = set()
            for order in given:
                ok = False
                if isinstance(order, Remove) and need > 0 and order.unit.province not in removed:
                    ok = True
                    removed.add(order.unit.province)
                    need -= 1
                outcomes.append(OrderOutcome(power, order, Result.SUCCEEDS if ok else Result.VOID))
            for unit in civil_disorder_removals(position, power, need, removed):
                removed.add(unit.province)
                outcomes.append(OrderOutcome(power, Remove(unit), Result.SUCCEEDS, default=True))
            units[power] = [u for u in units.get(power, []) if u.province not in removed]
        else:
            outcomes.extend(OrderOutcome(power, o, Result.VOID) for o in given)
    return tuple(outcomes), {p: tuple(us) for p, us in units.items()}


def adjustments_due(position: Position) -> bool:
    """Whether the winter phase has anything to do (otherwise it is skipped)."""
    for power in position.map.power_names:
        delta = position.adjustment(power)
        if delta < 0 or (delta > 0 and position.buildable_homes(power)):
            return True
    return False
