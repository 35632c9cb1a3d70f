"""Units on a map whose terrain changes by phase (the map's `IN` lines: loeb9's Arctic is
water in spring only): the board of each phase, and what becomes of the units standing on
a space whose terrain changed under them (seed 003 §1.3, UNITS_ADAPT and HIBERNATE).

Without either flag a unit on terrain it cannot stand on is destroyed. UNITS_ADAPT turns
it into the other kind of unit where that one can stand (a fleet on a sea that became
land is an army). HIBERNATE keeps a unit on a space that became impassable, and a fleet
on a space that became land: it stays, and may only hold until the terrain lets it move
again. With both, a unit hibernates where it may, and an army on water becomes a fleet.
A fleet whose coast is gone stays in its province: on its only part when the province
has no coasts any more, on its last coast (in alphabetical order) when the coasts
changed or a sea became a province with coasts.
"""

from __future__ import annotations

from collections.abc import Mapping

from .flags import Flag
from .geography import Location, Map, Terrain, UnitType
from .names import PowerName
from .orders import Unit
from .phase import Phase


def phase_map(game_map: Map, phase: Phase) -> Map:
    """The board as it is in `phase`: the map's `IN` lines for it applied."""
    if not game_map.phase_lines:
        return game_map
    return game_map.in_phase(f"{phase.season.name} {phase.year} {phase.type.name}")


def can_stand(game_map: Map, unit_type: UnitType, location: Location) -> bool:
    """Whether a unit of `unit_type` may stand on `location` (a fleet on a coast of a
    province with several)."""
    province = game_map.provinces.get(location.province)
    if province is None:
        return False
    if unit_type is UnitType.ARMY:
        return province.terrain.army_can_enter
    if not province.terrain.fleet_can_enter:
        return False
    return location.coast in province.coasts if province.coasts else location.coast is None


def hibernating(game_map: Map, unit: Unit) -> bool:
    """A unit kept by HIBERNATE on a space it cannot stand on now: it may only hold."""
    return not can_stand(game_map, unit.type, unit.location)


def _relanded(game_map: Map, location: Location) -> Location:
    """Where a fleet stands once the coasts of its province changed."""
    coasts = game_map.provinces[location.province].coasts
    if not coasts:
        return location.bare
    if location.coast in coasts:
        return location
    return Location(location.province, coasts[-1])


def adapt(game_map: Map, unit: Unit, flags: frozenset[Flag]) -> Unit | None:
    """`unit` on the board of `game_map` (a new phase's): itself, moved to a coast of its
    province, converted (UNITS_ADAPT), kept hibernating (HIBERNATE), or None: destroyed."""
    province = game_map.provinces.get(unit.province)
    if province is None:
        return None
    here = unit.location if unit.type is UnitType.ARMY else _relanded(game_map, unit.location)
    if can_stand(game_map, unit.type, here):
        return unit if here == unit.location else Unit(unit.type, here)
    terrain = province.terrain
    if Flag.HIBERNATE in flags and (
        terrain is Terrain.SHUT or (unit.type is UnitType.FLEET and terrain is Terrain.LAND)
    ):
        return Unit(unit.type, here)
    if Flag.UNITS_ADAPT in flags:
        if unit.type is UnitType.FLEET and terrain.army_can_enter:
            return Unit(UnitType.ARMY, unit.location.bare)
        if unit.type is UnitType.ARMY and terrain.fleet_can_enter:
            return Unit(UnitType.FLEET, _relanded(game_map, unit.location))
    return None


def adapt_units(
    game_map: Map, units: Mapping[PowerName, tuple[Unit, ...]], flags: frozenset[Flag]
) -> tuple[dict[PowerName, tuple[Unit, ...]], tuple[tuple[PowerName, Unit], ...]]:
    """Every power's units on the board of `game_map`, and those the terrain destroyed."""
    kept: dict[PowerName, tuple[Unit, ...]] = {}
    lost: list[tuple[PowerName, Unit]] = []
    for power, us in units.items():
        mine = []
        for unit in us:
            new = adapt(game_map, unit, flags)
            if new is None:
                lost.append((power, unit))
            else:
                mine.append(new)
        kept[power] = tuple(mine)
    return kept, tuple(lost)
