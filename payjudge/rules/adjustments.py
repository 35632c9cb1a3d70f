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

from .flags import Flag
from .geography import Location, Map, Power, UnitType
from .names import PowerName, ProvinceName
from .orders import Build, Order, Remove, Unit, Waive
from .outcome import OrderOutcome, Result
from .position import Position, mobilizing


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


def civil_disorder_removals(
    position: Position, power: PowerName, count: int, exclude: AbstractSet[str] = frozenset()
) -> list[Unit]:
    m = position.map
    table = m.derived("distance_table", distance_table)
    owned = position.centers.get(power, frozenset())
    far = len(m.provinces) + 1
    provinces = m.provinces
    # each candidate's key: centres go last, then the farthest from the nearest centre the
    # power owns (`far` if none connects), fleets before armies, then by full name
    keyed: list[tuple[tuple[bool, int, bool, str], int]] = []
    candidates = [u for u in position.units.get(power, ()) if u.province not in exclude]
    for i, u in enumerate(candidates):
        from_here = table[u.province]
        nearest = far
        for c in owned:
            d = from_here.get(c)
            if d is not None and d < nearest:
                nearest = d
        province = provinces[u.province]
        keyed.append(
            ((province.supply_center, -nearest, u.type is not UnitType.FLEET, province.full_name.upper()), i)
        )
    keyed.sort()  # (the keys differ: each names its province)
    return [candidates[i] for _, i in keyed[:count]]


def garrison_claims(
    position: Position, flags: frozenset[Flag] = frozenset()
) -> dict[PowerName, tuple[str, ...]]:
    """GARRISON: each eliminated power (no centre) none of whose home centres is occupied ->
    those home centres. Such a power may build one unit in one of them (not owning it), and
    nobody else may build there."""
    if Flag.GARRISON not in flags:
        return {}
    claims: dict[PowerName, tuple[str, ...]] = {}
    for p in position.map.powers:
        if p.homes and not position.centers.get(p.name) and all(position.unit_at(h) is None for h in p.homes):
            claims[p.name] = tuple(p.homes)
    return claims


def build_claims(
    position: Position, flags: frozenset[Flag] = frozenset()
) -> dict[PowerName, tuple[str, ...]]:
    """The powers that may build one unit in a home centre they need not own, with those
    home centres (nobody else may build there): in the opening phase of a MOBILIZE game
    every power with home centres (it owns none yet: DPjudge's undetermined home centre,
    which becomes the one it builds on), otherwise GARRISON's claims (`garrison_claims`)."""
    if mobilizing(position, flags):
        return {p.name: tuple(p.homes) for p in position.map.powers if p.homes}
    return garrison_claims(position, flags)


def allowance(position: Position, power: PowerName, flags: frozenset[Flag] = frozenset()) -> int:
    """Builds (positive) or removals (negative) due to `power`: one build in the opening
    phase of a MOBILIZE game, and for a power that GARRISON lets build (`build_claims`)."""
    if power in build_claims(position, flags):
        return 1
    return position.adjustment(power)


def mobilized_centers(
    position: Position, built: Mapping[PowerName, Sequence[Unit]], flags: frozenset[Flag] = frozenset()
) -> dict[PowerName, frozenset[ProvinceName]]:
    """The centre ownership after the adjustment phase of `position`: unchanged, except in
    the opening phase of a MOBILIZE game, where each power now owns the home centre it
    built in (`built`: the units each power built)."""
    centers = dict(position.centers)
    if not mobilizing(position, flags):
        return centers
    for power, units in built.items():
        sites = frozenset(ProvinceName(u.province) for u in units)
        if sites:
            centers[power] = centers.get(power, frozenset()) | sites
    return centers


def build_sites(
    position: Position, power: PowerName, flags: frozenset[Flag] = frozenset()
) -> tuple[str, ...]:
    """The unoccupied centres `power` owns and may build in, by the flags in force:
    its home centres; any owned centre (BUILD_ANY, or a power the map marks `&SC`); any
    owned centre that is some power's home (HOME_BUILDS); REMOTE_BUILDS only while it
    still owns one of its own homes; and the claims of GARRISON (`garrison_claims`)."""
    m = position.map
    p = m.power(power)
    if p is None:
        return ()
    claims = build_claims(position, flags)
    if power in claims:
        return tuple(c for c in claims[power] if position.unit_at(c) is None)
    claimed = {h for hs in claims.values() for h in hs}
    owned = position.centers.get(power, frozenset()) - claimed
    if Flag.REMOTE_BUILDS in flags and not owned.intersection(p.homes):
        return ()
    return tuple(c for c in _owned_sites(m, p, owned, flags) if position.unit_at(c) is None)


def _owned_sites(m: Map, p: Power, owned: frozenset[ProvinceName], flags: frozenset[Flag]) -> list[str]:
    """The centres `p` owns in which the flags let it build, occupied or not."""
    if Flag.HOME_BUILDS in flags:
        every_home = {h for q in m.powers for h in q.homes}
        return sorted(c for c in owned if c in every_home)
    if Flag.BUILD_ANY in flags or Flag.REMOTE_BUILDS in flags or p.builds_anywhere:
        return sorted(owned)
    return [h for h in p.homes if h in owned]


def _disorder_builds(position: Position, power: PowerName, count: int, flags: frozenset[Flag]) -> list[Unit]:
    """CD_BUILDS: the builds of a power in civil disorder. The judge's choice is fixed, not
    random: the sites in alphabetical order, an army where one can stand, else a fleet (on
    the first coast in alphabetical order)."""
    m = position.map
    out: list[Unit] = []
    for site in build_sites(position, power, flags)[:count]:
        if m.can_occupy(UnitType.ARMY, Location(site)):
            out.append(Unit(UnitType.ARMY, Location(site)))
            continue
        coasts = sorted(m.provinces[site].coasts)
        loc = Location(site, coasts[0]) if coasts else Location(site)
        if m.can_occupy(UnitType.FLEET, loc):
            out.append(Unit(UnitType.FLEET, loc))
    return out


def adjudicate_adjustments(
    position: Position, orders: Mapping[PowerName, Sequence[Order]], *, flags: frozenset[Flag] = frozenset()
) -> tuple[tuple[OrderOutcome, ...], dict[PowerName, tuple[Unit, ...]]]:
    """Validated orders per power, in the order given -> outcomes and the new units.

    A power that gave no order at all is in civil disorder: it waives its builds, or
    builds by `_disorder_builds` under CD_BUILDS."""
    outcomes: list[OrderOutcome] = []
    units = {p: list(us) for p, us in position.units.items()}
    for power in position.map.power_names:
        delta = allowance(position, power, flags)
        given = orders.get(power, ())
        if delta > 0 and not given and Flag.CD_BUILDS in flags:
            for unit in _disorder_builds(position, power, delta, flags):
                units.setdefault(power, []).append(unit)
                outcomes.append(OrderOutcome(power, Build(unit), Result.SUCCEEDS, default=True))
        elif delta > 0:
            taken, built = _accepted(power, given, (Build, Waive), delta)
            outcomes += taken
            if built:
                units.setdefault(power, []).extend(built)
        elif delta < 0:
            taken, removed = _accepted(power, given, (Remove,), -delta)
            outcomes += taken
            outcomes += _disorder_removals(position, power, -delta - len(removed), removed, units)
        else:
            outcomes.extend(OrderOutcome(power, o, Result.VOID) for o in given)
    return tuple(outcomes), {p: tuple(us) for p, us in units.items()}


def _accepted(
    power: PowerName, given: Sequence[Order], kinds: tuple[type[Order], ...], room: int
) -> tuple[list[OrderOutcome], list[Unit]]:
    """The orders of `kinds` in the order given, as many as `room` (builds and waives, or
    removals), one a province; the others are void. With the units built or removed."""
    outcomes = []
    units: list[Unit] = []
    for order in given:
        ok = isinstance(order, kinds) and room > 0
        if ok and not isinstance(order, Waive):
            unit = order.unit
            ok = unit.province not in {u.province for u in units}
            if ok:
                units.append(unit)
        room -= ok
        outcomes.append(OrderOutcome(power, order, Result.SUCCEEDS if ok else Result.VOID))
    return outcomes, units


def _disorder_removals(
    position: Position, power: PowerName, need: int, removed: list[Unit], units: dict[PowerName, list[Unit]]
) -> list[OrderOutcome]:
    """The removals civil disorder makes for the `need` a power's orders left; every unit
    removed leaves `units`."""
    gone = {u.province for u in removed}
    outcomes = []
    for unit in civil_disorder_removals(position, power, need, gone):
        gone.add(unit.province)
        outcomes.append(OrderOutcome(power, Remove(unit), Result.SUCCEEDS, default=True))
    units[power] = [u for u in units.get(power, []) if u.province not in gone]
    return outcomes


def adjustments_due(position: Position, flags: frozenset[Flag] = frozenset()) -> bool:
    """Whether the winter phase has anything to do (otherwise it is skipped)."""
    for power in position.map.power_names:
        delta = allowance(position, power, flags)
        if delta < 0 or (delta > 0 and build_sites(position, power, flags)):
            return True
    return False
