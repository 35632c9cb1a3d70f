"""Check a parsed order against the position: the unit exists, the order is allowed.

Returns a typed, canonical order or raises `IllegalOrder` / `AmbiguousOrder` with a
message that names the unit and the reason. Canonicalisation fills in what the player
may leave out: the unit type, the coast a unit stands on, the one coast a fleet can
reach (`moves.py`); and it keeps `VIA CONVOY` only where the army could also walk.
"""

from __future__ import annotations

from .adjustments import build_claims, build_sites
from .borders import crossing_refused, support_refused
from .checks import board_unit, wrong_phase
from .checks import check_owner as _check_owner
from .convoys import army_can_reach, army_chain, carrier, convoy_seas, land_linked

# where text/offer_memo.py looks for them
from .convoys import chain_looked_for as chain_looked_for
from .convoys import fleet_chain as fleet_chain
from .errors import AmbiguousOrder, IllegalOrder
from .flags import Flag
from .geography import Location, UnitType
from .moves import move_order
from .names import PowerName
from .orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    Waive,
)
from .parse import OrderKind, ParsedOrder
from .phase import PhaseType
from .position import Position
from .terrain import hibernating


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


def _movement(
    parsed: ParsedOrder,
    position: Position,
    power: PowerName | None,
    check_owner: bool,
    flags: frozenset[Flag],
    dummies: frozenset[PowerName],
) -> Order:
    """A movement order: its unit found on the board, then the check of its kind."""
    kind = parsed.kind
    # a tuple, not a set: compiled, `in` a tuple compares, `in` a set hashes the member in Python
    if kind not in (OrderKind.HOLD, OrderKind.MOVE, OrderKind.SUPPORT, OrderKind.CONVOY):
        raise wrong_phase(parsed, position)
    assert parsed.unit is not None
    owner, unit = board_unit(parsed.unit, position)
    _check_owner(owner, unit, power, check_owner)
    if kind is OrderKind.HOLD:
        return Hold(unit)
    if hibernating(position.map, unit):  # HIBERNATE: kept on terrain it cannot stand on
        raise IllegalOrder(f"{unit} is hibernating (HIBERNATE): it may only hold")
    if kind is OrderKind.MOVE:
        if Flag.IMMOBILE_DUMMIES in flags and owner in dummies:
            raise IllegalOrder(f"{unit} belongs to the dummy {owner}, whose units may not move")
        return move_order(parsed, unit, position, owner, flags)
    if kind is OrderKind.SUPPORT:
        return _support(parsed, unit, owner, position, flags)
    return _convoy(parsed, unit, position, flags)


def _support(
    parsed: ParsedOrder, unit: Unit, owner: PowerName, position: Position, flags: frozenset[Flag]
) -> Order:
    assert parsed.target is not None
    target_owner, target = board_unit(parsed.target, position, "supported unit")
    if target.province == unit.province:
        raise IllegalOrder(f"{unit} cannot support itself")
    if parsed.dest is None:
        if not position.map.reaches_province(unit.type, unit.location, target.province):
            raise IllegalOrder(f"{unit} cannot support {target}: it could not move to {target.province}")
        _check_border(position, owner, unit, target.province)
        return SupportHold(unit, target)
    dest = parsed.dest
    _check_support_move(unit, owner, target, dest, position, flags)
    across = crossing_refused(position, target_owner, target.province, dest.province)
    if across and (
        target.type is UnitType.FLEET
        or not fleet_chain(position, target.province, dest.province, avoid=unit.province, flags=flags)
    ):
        raise IllegalOrder(f"{target} cannot move to {dest.province}: {across}")
    if target.type is UnitType.ARMY:
        return SupportMove(unit, target, _army_supported_dest(unit, target, dest, position, flags))
    _check_fleet_supported(unit, target, dest, position, flags)
    return SupportMove(unit, target, dest)


def _check_support_move(
    unit: Unit, owner: PowerName, target: Unit, dest: Location, position: Position, flags: frozenset[Flag]
) -> None:
    """The supporting unit's side of a support of a move: it could go there itself."""
    m = position.map
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
        raise IllegalOrder(f"{unit} cannot support a move to {dest.province}: it could not move there itself")
    _check_border(position, owner, unit, dest.province)


def _army_supported_dest(
    unit: Unit, target: Unit, dest: Location, position: Position, flags: frozenset[Flag]
) -> Location:
    """An army supported to `dest` must be able to get there, walking or convoyed by
    fleets other than the supporting one; a coast named is dropped."""
    if (
        not army_can_reach(position, target.province, dest.province, avoid=unit.province, flags=flags)
        or not position.map.provinces[dest.province].terrain.army_can_enter
    ):
        raise IllegalOrder(f"{target} cannot move to {dest.province}")
    return dest.bare


def _check_fleet_supported(
    unit: Unit, target: Unit, dest: Location, position: Position, flags: frozenset[Flag]
) -> None:
    """A fleet supported to `dest` must reach it (or be carried there, PORTAGE_CONVOY)."""
    m = position.map
    if not m.reaches_province(UnitType.FLEET, target.location, dest.province) and not (
        Flag.PORTAGE_CONVOY in flags
        and (dest.province == target.province or Flag.MULTI_COAST_PORTAGE not in flags)
        and army_chain(position, target.province, dest.province, avoid=unit.province)
    ):
        raise IllegalOrder(f"{target} cannot move to {dest.province}")
    if dest.coast is not None and dest.coast not in m.provinces[dest.province].coasts:
        raise IllegalOrder(f"{dest.province} has no coast {dest.coast}")


def _convoy(parsed: ParsedOrder, unit: Unit, position: Position, flags: frozenset[Flag]) -> Order:
    m = position.map
    assert parsed.target is not None
    if Flag.PORTAGE_CONVOY in flags and unit.type is UnitType.ARMY:
        return _portage(parsed, unit, position, flags)
    if unit.type is not UnitType.FLEET or not carrier(m, unit.province, flags):
        raise IllegalOrder(f"{unit} cannot convoy: only a fleet at sea can")
    _, army = board_unit(parsed.target, position, "convoyed unit")
    if army.type is not UnitType.ARMY:
        raise IllegalOrder(f"{unit} cannot convoy {army}: only armies are convoyed")
    if parsed.dest is None or parsed.dest.province not in m.provinces:
        raise IllegalOrder(f"{unit}: unknown destination for the convoy")
    dest = parsed.dest.bare
    if dest.province == army.province:
        raise IllegalOrder(f"{unit} cannot convoy {army} to the province it is in")
    if not (m.is_coastal(army.province) and m.is_coastal(dest.province)):
        raise IllegalOrder(f"{unit} cannot convoy {army} to {dest.province}: both ends must be on a coast")
    if unit.province not in convoy_seas(m, army.province, dest.province, flags):
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


def _portage(parsed: ParsedOrder, unit: Unit, position: Position, flags: frozenset[Flag]) -> Convoy:
    """PORTAGE_CONVOY: an army's order to carry a fleet overland (no coast is named), or
    from one coast of a province to another (the province written twice); under
    MULTI_COAST_PORTAGE only the latter."""
    m = position.map
    assert parsed.target is not None
    _, fleet = board_unit(parsed.target, position, "convoyed unit")
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
    if unit.province not in land_linked(m, fleet.province, ends) & land_linked(m, dest.province, ends):
        raise IllegalOrder(
            f"{unit} cannot carry {fleet} to {dest.province}: "
            f"{unit.province} is not on a way overland between them"
        )
    return Convoy(unit, fleet, dest)


def _retreat(parsed: ParsedOrder, position: Position, power: PowerName | None, check_owner: bool) -> Order:
    if parsed.kind not in (OrderKind.RETREAT, OrderKind.MOVE, OrderKind.DISBAND, OrderKind.REMOVE):
        raise wrong_phase(parsed, position)
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
    if parsed.kind is OrderKind.WAIVE:
        return Waive()
    if parsed.kind is OrderKind.BUILD:
        return _build(parsed, position, power, flags)
    if parsed.kind in (OrderKind.REMOVE, OrderKind.DISBAND):
        assert parsed.unit is not None
        owner, unit = board_unit(parsed.unit, position)
        _check_owner(owner, unit, power, True)
        return Remove(unit)
    raise wrong_phase(parsed, position)


def _build(parsed: ParsedOrder, position: Position, power: PowerName | None, flags: frozenset[Flag]) -> Build:
    m = position.map
    spec = parsed.unit
    assert spec is not None and spec.type is not None
    loc = spec.location
    prov = m.provinces.get(loc.province)
    builder, free_sites = _builder(loc.province, position, power, flags)
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


def _builder(
    province: str, position: Position, power: PowerName | None, flags: frozenset[Flag]
) -> tuple[PowerName, bool]:
    """Who builds in `province` (the power ordering, or, unnamed, its owner) and whether
    the rules let it build outside its home centres; raises when it may not build there."""
    m = position.map
    home_of = m.home_owner(province)
    free_sites = bool(flags & {Flag.BUILD_ANY, Flag.HOME_BUILDS, Flag.REMOTE_BUILDS, Flag.GARRISON})
    ordering = m.power(power) if power is not None else None
    free_sites = free_sites or (ordering is not None and ordering.builds_anywhere)
    claims = build_claims(position, flags)
    if power is not None and power in claims:
        if province not in claims[power]:
            raise IllegalOrder(f"{province} is not a home centre of {power}")
    elif power is not None and home_of != power and not free_sites:
        raise IllegalOrder(f"{province} is not a home centre of {power}")
    builder = power or (home_of if not free_sites else position.center_owner(province))
    if builder is None or (position.center_owner(province) != builder and builder not in claims):
        raise IllegalOrder(f"{builder or 'nobody'} does not own {province}")
    return builder, free_sites
