"""Check a parsed order against the position: the unit exists, the order is allowed.

Returns a typed, canonical order or raises `IllegalOrder` / `AmbiguousOrder` with a
message that names the unit and the reason. Canonicalisation fills in what the player
may leave out: the unit type, the coast a unit stands on, the one coast a fleet can
reach; and it keeps `VIA CONVOY` only where the army could also walk.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final

from .adjustments import build_claims, build_sites
from .borders import crossing_refused, support_refused
from .errors import AmbiguousOrder, IllegalOrder
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
from .parse import OrderKind, ParsedOrder, UnitSpec
from .phase import PhaseType
from .position import Position
from .terrain import hibernating

_KIND_NAMES: Final = {
    OrderKind.HOLD: "hold",
    OrderKind.MOVE: "move",
    OrderKind.SUPPORT: "support",
    OrderKind.CONVOY: "convoy",
    OrderKind.RETREAT: "retreat",
    OrderKind.DISBAND: "disband",
    OrderKind.BUILD: "build",
    OrderKind.REMOVE: "removal",
    OrderKind.WAIVE: "waive",
}


def validate(
    parsed: ParsedOrder,
    position: Position,
    power: PowerName | None = None,
    *,
    check_owner: bool = True,
    flags: frozenset[Flag] = frozenset(),
    dummies: frozenset[PowerName] = frozenset(),
) -> Order:
    """The legal order `parsed` stands for, in `position`, given by `power`.

    `check_owner=False` is for Payola offers, which may be made to any unit. `flags` are
    the rule flags in force, `dummies` the dummy powers (IMMOBILE_DUMMIES).
    """
    phase = position.phase.type
    if phase is PhaseType.MOVEMENT:
        return _movement(parsed, position, power, check_owner, flags, dummies)
    if phase is PhaseType.RETREATS:
        return _retreat(parsed, position, power, check_owner)
    return _adjustment(parsed, position, power, flags)


def _wrong_phase(parsed: ParsedOrder, position: Position) -> IllegalOrder:
    kind = {
        PhaseType.MOVEMENT: "a movement",
        PhaseType.RETREATS: "a retreat",
        PhaseType.ADJUSTMENTS: "an adjustment",
        PhaseType.EXCHANGE: "an exchange",
    }[position.phase.type]
    return IllegalOrder(f"a {_KIND_NAMES[parsed.kind]} order is not possible in {kind} phase")


def _board_unit(spec: UnitSpec, position: Position, what: str = "unit") -> tuple[PowerName, Unit]:
    """The unit on the board that `spec` names (type and coast taken from the board)."""
    hit = position._at.get(spec.location.province)
    if hit is None:
        kind = {UnitType.ARMY: "army", UnitType.FLEET: "fleet", None: "unit"}[spec.type]
        raise IllegalOrder(f"there is no {kind} in {spec.location.province}")
    owner, unit = hit
    if spec.type is not None and spec.type is not unit.type:
        actual = "an army" if unit.type is UnitType.ARMY else "a fleet"
        raise IllegalOrder(f"the {what} in {unit.province} is {actual} ({unit})")
    return owner, unit


def _check_owner(owner: PowerName, unit: Unit, power: PowerName | None, check: bool) -> None:
    if check and power is not None and owner != power:
        raise IllegalOrder(f"{unit} belongs to {owner}, not to {power}")


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

    return _linked_by(origin, dest, m.sea_neighbours, has_fleet)


def _linked_by(
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


def _carrier(m: Map, province: str, flags: frozenset[Flag]) -> bool:
    """Can a fleet in `province` convoy? At sea; under COASTAL_CONVOY on a coast too."""
    return m.is_sea(province) or (Flag.COASTAL_CONVOY in flags and m.is_coastal(province))


def _linked(m: Map, start: str, flags: frozenset[Flag], avoid: frozenset[str]) -> set[str]:
    """The convoying provinces a chain from `start` may reach, none of `avoid` on the way."""
    links = m.derived("validate:fleet_links", _fleet_links)
    seen = {p for p in links.get(start, ()) if _carrier(m, p, flags) and p not in avoid}
    frontier = list(seen)
    while frontier:
        for nxt in links.get(frontier.pop(), ()):
            if nxt not in seen and nxt not in avoid and _carrier(m, nxt, flags):
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
            and _carrier(m, p, flags)
        )

    return _linked_by(origin, dest, lambda p: links.get(p, ()), has_fleet)


def _army_can_reach(
    position: Position, origin: str, dest: str, avoid: str | None = None, flags: frozenset[Flag] = frozenset()
) -> bool:
    m = position.map
    return dest in m.army_neighbours(origin) or fleet_chain(position, origin, dest, avoid, flags)


def _convoy_possible(m: Map, origin: str, dest: str, flags: frozenset[Flag]) -> bool:
    if Flag.COASTAL_CONVOY in flags:
        return bool(_convoy_seas(m, origin, dest, flags))
    return m.convoy_path_possible(origin, dest)


def _move(
    parsed: ParsedOrder,
    unit: Unit,
    position: Position,
    owner: PowerName,
    flags: frozenset[Flag] = frozenset(),
) -> Move:
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
    if not prov.terrain.army_can_enter:
        raise IllegalOrder(f"{unit} cannot move to {dest.province}: an army cannot go to sea")
    dest = dest.bare  # a coast given to an army is ignored (DATC 6.B.12)
    for sea in parsed.route:
        if not _carrier(m, sea.province, flags):
            raise IllegalOrder(f"{unit}: a convoy route can only pass through seas, not {sea.province}")
    adjacent = dest.province in m.army_neighbours(unit.province)
    by_sea_only = adjacent and refused is not None  # it may not walk there: only by convoy
    if by_sea_only:
        if not _convoy_possible(m, unit.province, dest.province, flags):
            raise IllegalOrder(f"{unit} cannot move to {dest.province}: {refused}")
        adjacent = False
    if parsed.via_convoy and not _convoy_possible(m, unit.province, dest.province, flags):
        raise IllegalOrder(f"{unit} cannot go to {dest.province} by convoy: no sea route links them")
    if not adjacent and not _convoy_possible(m, unit.province, dest.province, flags):
        raise IllegalOrder(
            f"{unit} cannot move to {dest.province}: not adjacent, and no convoy could take it there"
        )
    if not adjacent and not fleet_chain(position, unit.province, dest.province, flags=flags):
        raise IllegalOrder(
            f"{unit} cannot move to {dest.province}: it would need a convoy, "
            f"and no chain of fleets links them"
        )
    return Move(unit, dest, via_convoy=(parsed.via_convoy and adjacent) or by_sea_only)


def _movement(
    parsed: ParsedOrder,
    position: Position,
    power: PowerName | None,
    check_owner: bool,
    flags: frozenset[Flag],
    dummies: frozenset[PowerName],
) -> Order:
    m = position.map
    if parsed.kind not in (OrderKind.HOLD, OrderKind.MOVE, OrderKind.SUPPORT, OrderKind.CONVOY):
        raise _wrong_phase(parsed, position)
    assert parsed.unit is not None
    owner, unit = _board_unit(parsed.unit, position)
    _check_owner(owner, unit, power, check_owner)
    if parsed.kind is OrderKind.HOLD:
        return Hold(unit)
    if hibernating(m, unit):  # HIBERNATE: kept on terrain it cannot stand on
        raise IllegalOrder(f"{unit} is hibernating (HIBERNATE): it may only hold")
    if parsed.kind is OrderKind.MOVE:
        if Flag.IMMOBILE_DUMMIES in flags and owner in dummies:
            raise IllegalOrder(f"{unit} belongs to the dummy {owner}, whose units may not move")
        return _move(parsed, unit, position, owner, flags)
    assert parsed.target is not None
    if parsed.kind is OrderKind.SUPPORT:
        target_owner, target = _board_unit(parsed.target, position, "supported unit")
        if target.province == unit.province:
            raise IllegalOrder(f"{unit} cannot support itself")
        if parsed.dest is None:
            if not m.reaches_province(unit.type, unit.location, target.province):
                raise IllegalOrder(f"{unit} cannot support {target}: it could not move to {target.province}")
            _check_border(position, owner, unit, target.province)
            return SupportHold(unit, target)
        dest = parsed.dest
        coast_portage = (
            Flag.PORTAGE_CONVOY in flags
            and target.type is UnitType.FLEET
            and army_chain(position, target.province, target.province, avoid=unit.province)
        )
        if dest.province == target.province and not coast_portage:
            raise IllegalOrder(f"{unit} cannot support {target} moving to where it already is")
        if dest.province == unit.province:
            raise IllegalOrder(f"{unit} cannot support a move into its own province")
        if dest.province not in m.provinces:
            raise IllegalOrder(f"unknown province {dest.province}")
        if not m.reaches_province(unit.type, unit.location, dest.province):
            raise IllegalOrder(
                f"{unit} cannot support a move to {dest.province}: it could not move there itself"
            )
        _check_border(position, owner, unit, dest.province)
        across = crossing_refused(position, target_owner, target.province, dest.province)
        if across and (
            target.type is UnitType.FLEET
            or not fleet_chain(position, target.province, dest.province, avoid=unit.province, flags=flags)
        ):
            raise IllegalOrder(f"{target} cannot move to {dest.province}: {across}")
        if target.type is UnitType.ARMY:
            if (
                not _army_can_reach(
                    position, target.province, dest.province, avoid=unit.province, flags=flags
                )
                or not m.provinces[dest.province].terrain.army_can_enter
            ):
                raise IllegalOrder(f"{target} cannot move to {dest.province}")
            dest = dest.bare
        else:
            if not m.reaches_province(UnitType.FLEET, target.location, dest.province) and not (
                Flag.PORTAGE_CONVOY in flags
                and (dest.province == target.province or Flag.MULTI_COAST_PORTAGE not in flags)
                and army_chain(position, target.province, dest.province, avoid=unit.province)
            ):
                raise IllegalOrder(f"{target} cannot move to {dest.province}")
            if dest.coast is not None and dest.coast not in m.provinces[dest.province].coasts:
                raise IllegalOrder(f"{dest.province} has no coast {dest.coast}")
        return SupportMove(unit, target, dest)
    # convoy
    if Flag.PORTAGE_CONVOY in flags and unit.type is UnitType.ARMY:
        return _portage(parsed, unit, position, flags)
    if unit.type is not UnitType.FLEET or not _carrier(m, unit.province, flags):
        raise IllegalOrder(f"{unit} cannot convoy: only a fleet at sea can")
    _, army = _board_unit(parsed.target, position, "convoyed unit")
    if army.type is not UnitType.ARMY:
        raise IllegalOrder(f"{unit} cannot convoy {army}: only armies are convoyed")
    if parsed.dest is None or parsed.dest.province not in m.provinces:
        raise IllegalOrder(f"{unit}: unknown destination for the convoy")
    dest = parsed.dest.bare
    if dest.province == army.province:
        raise IllegalOrder(f"{unit} cannot convoy {army} to the province it is in")
    if not (m.is_coastal(army.province) and m.is_coastal(dest.province)):
        raise IllegalOrder(f"{unit} cannot convoy {army} to {dest.province}: both ends must be on a coast")
    if unit.province not in _convoy_seas(m, army.province, dest.province, flags):
        raise IllegalOrder(
            f"{unit} cannot convoy {army} to {dest.province}: "
            f"{unit.province} is not on a convoy route that needs it"
        )
    return Convoy(unit, army, dest)


def _check_border(position: Position, owner: PowerName, unit: Unit, province: str) -> None:
    """A unit supports into `province` only across a border it could cross and that
    gives support (the map's special adjacencies, rules/borders.py)."""
    if support_refused(position.map, unit.province, province):
        raise IllegalOrder(f"{unit} cannot support into {province}: no support is given across that border")
    refused = crossing_refused(position, owner, unit.province, province)
    if refused:
        raise IllegalOrder(f"{unit} cannot support into {province}: {refused}")


def _convoy_seas(m: Map, origin: str, dest: str, flags: frozenset[Flag]) -> frozenset[str]:
    """The seas whose fleets may convoy an army from `origin` to `dest`: those on a chain in
    which every fleet is needed; under CONVOY_BACK, every sea linked by seas to both ends
    (a route may then pass a sea twice); under COASTAL_CONVOY, every sea or coast so linked."""
    if not flags & {Flag.CONVOY_BACK, Flag.COASTAL_CONVOY}:
        return m.convoy_seas(origin, dest)
    if origin == dest or not (m.is_coastal(origin) and m.is_coastal(dest)):
        return frozenset()
    ends = frozenset({origin, dest})
    return frozenset(_linked(m, origin, flags, ends) & _linked(m, dest, flags, ends))


def _land_linked(m: Map, start: str, avoid: frozenset[str]) -> set[str]:
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

    return _linked_by(origin, dest, m.army_neighbours, has_army)


def _portage(parsed: ParsedOrder, unit: Unit, position: Position, flags: frozenset[Flag]) -> Convoy:
    """PORTAGE_CONVOY: an army's order to carry a fleet overland (no coast is named), or
    from one coast of a province to another (the province written twice); under
    MULTI_COAST_PORTAGE only the latter."""
    m = position.map
    assert parsed.target is not None
    _, fleet = _board_unit(parsed.target, position, "convoyed unit")
    if fleet.type is not UnitType.FLEET:
        raise IllegalOrder(f"{unit} cannot convoy {fleet}: an army carries only fleets")
    dest = parsed.dest.bare if parsed.dest else None
    if dest is None or dest.province not in m.provinces:
        raise IllegalOrder(f"{unit}: unknown destination for the convoy")
    if dest.province == fleet.province:
        if len(m.provinces[fleet.province].coasts) < 2:
            raise IllegalOrder(f"{unit} cannot carry {fleet} to the province it is in")
        if unit.province not in m.army_neighbours(fleet.province):
            raise IllegalOrder(
                f"{unit} cannot carry {fleet} along its coasts: {unit.province} does not border it"
            )
        return Convoy(unit, fleet, dest)
    if Flag.MULTI_COAST_PORTAGE in flags:
        raise IllegalOrder(
            f"{unit} cannot carry {fleet} to {dest.province}: under MULTI_COAST_PORTAGE an army "
            "carries a fleet only from one coast of a province to another"
        )
    if not (m.is_coastal(fleet.province) and m.is_coastal(dest.province)):
        raise IllegalOrder(f"{unit} cannot carry {fleet} to {dest.province}: both ends must be on a coast")
    ends = frozenset({fleet.province, dest.province})
    if unit.province not in _land_linked(m, fleet.province, ends) & _land_linked(m, dest.province, ends):
        raise IllegalOrder(
            f"{unit} cannot carry {fleet} to {dest.province}: "
            f"{unit.province} is not on a way overland between them"
        )
    return Convoy(unit, fleet, dest)


def _retreat(parsed: ParsedOrder, position: Position, power: PowerName | None, check_owner: bool) -> Order:
    if parsed.kind not in (OrderKind.RETREAT, OrderKind.MOVE, OrderKind.DISBAND, OrderKind.REMOVE):
        raise _wrong_phase(parsed, position)
    assert parsed.unit is not None
    hit = position.dislodged_at(parsed.unit.location.province)
    if hit is None:
        raise IllegalOrder(f"no dislodged unit in {parsed.unit.location.province} to retreat")
    owner, dislodged = hit
    unit = dislodged.unit
    if parsed.unit.type is not None and parsed.unit.type is not unit.type:
        raise IllegalOrder(f"the dislodged unit in {unit.province} is {unit}")
    _check_owner(owner, unit, power, check_owner)
    if parsed.kind in (OrderKind.DISBAND, OrderKind.REMOVE):
        return Disband(unit)
    dest = parsed.dest
    assert dest is not None
    options = [o for o in dislodged.retreats if o.province == dest.province]
    if unit.type is UnitType.ARMY:
        dest = dest.bare
    elif dest.coast is None and len(options) == 1:
        dest = options[0]
    elif dest.coast is None and len(options) > 1:
        raise AmbiguousOrder(f"{unit} R {dest.province}: say which coast")
    if dest not in dislodged.retreats:
        allowed = ", ".join(str(o) for o in dislodged.retreats) or "none: it must disband"
        raise IllegalOrder(f"{unit} cannot retreat to {dest} (it may retreat to: {allowed})")
    return Retreat(unit, dest)


def _adjustment(
    parsed: ParsedOrder, position: Position, power: PowerName | None, flags: frozenset[Flag]
) -> Order:
    m = position.map
    if parsed.kind is OrderKind.WAIVE:
        return Waive()
    if parsed.kind is OrderKind.BUILD:
        spec = parsed.unit
        assert spec is not None and spec.type is not None
        loc = spec.location
        prov = m.provinces.get(loc.province)
        home_of = m.home_owner(loc.province)
        free_sites = bool(flags & {Flag.BUILD_ANY, Flag.HOME_BUILDS, Flag.REMOTE_BUILDS, Flag.GARRISON})
        ordering = m.power(power) if power is not None else None
        free_sites = free_sites or (ordering is not None and ordering.builds_anywhere)
        claims = build_claims(position, flags)
        if power is not None and power in claims:
            if loc.province not in claims[power]:
                raise IllegalOrder(f"{loc.province} is not a home centre of {power}")
        elif power is not None and home_of != power and not free_sites:
            raise IllegalOrder(f"{loc.province} is not a home centre of {power}")
        builder = power or (home_of if not free_sites else position.center_owner(loc.province))
        if builder is None or (position.center_owner(loc.province) != builder and builder not in claims):
            raise IllegalOrder(f"{builder or 'nobody'} does not own {loc.province}")
        if position.unit_at(loc.province) is not None:
            raise IllegalOrder(f"{loc.province} is occupied")
        if free_sites and loc.province not in build_sites(position, builder, flags):
            raise IllegalOrder(f"{builder} may not build in {loc.province}")
        if spec.type is UnitType.FLEET and prov is not None and prov.coasts and loc.coast is None:
            raise AmbiguousOrder(
                f"BUILD F {loc.province}: say which coast "
                f"({' or '.join(f'{loc.province}/{c}' for c in prov.coasts)})"
            )
        if spec.type is UnitType.ARMY:
            loc = loc.bare
        if not m.can_occupy(spec.type, loc):
            kind = "fleet" if spec.type is UnitType.FLEET else "army"
            raise IllegalOrder(f"a {kind} cannot be built in {loc}")
        return Build(Unit(spec.type, loc))
    if parsed.kind in (OrderKind.REMOVE, OrderKind.DISBAND):
        assert parsed.unit is not None
        owner, unit = _board_unit(parsed.unit, position)
        _check_owner(owner, unit, power, True)
        return Remove(unit)
    raise _wrong_phase(parsed, position)
