"""Stepping on from a phase played to the next phase that really happens: a retreat phase
only with units to retreat, adjustments only with something to adjust; on the way, the
centres change hands (or, under VASSAL_DUMMIES, are settled with the vassals), and a map
whose terrain changes by phase strands the units its new board has no room for.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import cast

from .adjustments import adjustments_due
from .flags import Flag
from .geography import Map
from .names import PowerName, ProvinceName
from .orders import Unit
from .phase import PhaseType
from .position import Dislodged, Position
from .terrain import adapt_units, phase_map
from .vassals import settle


def next_position(
    before: Position,
    units: Mapping[PowerName, tuple[Unit, ...]],
    dislodged: Mapping[PowerName, tuple[Dislodged, ...]],
    flags: frozenset[Flag] = frozenset(),
    vassals: Vassals | None = None,
) -> tuple[Position, tuple[tuple[str, PowerName | None, PowerName], ...], tuple[tuple[PowerName, Unit], ...]]:
    """Step to the next phase that really happens, from the units after `before`'s phase;
    with the centres that changed hands and the units the terrain of a phase destroyed
    (on a map whose terrain changes by phase, each phase passed has its own board).
    Under VASSAL_DUMMIES (`vassals`) the centres and the control are settled as
    `vassals.settle` says, and `vassals` keeps the outcome."""
    m, centers, phase = before.map, before.centers, before.phase
    changes: tuple[tuple[str, PowerName | None, PowerName], ...] = ()
    stranded: tuple[tuple[PowerName, Unit], ...] = ()
    while True:
        phase = phase.next()
        board = phase_map(m, phase)
        if board is not m:
            m = board
            units, lost = adapt_units(m, units, flags)
            stranded += lost
        if phase.type is PhaseType.RETREATS:
            if any(dislodged.values()):
                return Position(m, phase, units, centers, dislodged), changes, stranded
            continue
        if phase.type is PhaseType.ADJUSTMENTS:
            if vassals is None:
                centers, changes = _captured(m, units, centers)
            else:
                allegiance = settle(
                    m,
                    units,
                    centers,
                    vassals.dummies,
                    vassals.control,
                    torn_allegiance=Flag.TORN_ALLEGIANCE in flags,
                )
                centers, changes, units = allegiance.centers, allegiance.changes, allegiance.units
                vassals.control, vassals.torn, vassals.settled = allegiance.control, allegiance.torn, True
            pos = Position(m, phase, units, centers, dislodged)
            if adjustments_due(pos, flags):
                return pos, changes, stranded
            continue
        return Position(m, phase, units, centers, dislodged), changes, stranded


@dataclass
class Vassals:
    """VASSAL_DUMMIES while a phase is played: the dummies, the control, and what the end
    of the fall made of them."""

    dummies: frozenset[PowerName]
    control: Mapping[PowerName, PowerName]
    torn: tuple[tuple[PowerName, Unit], ...] = ()
    settled: bool = False


def _captured(
    m: Map, units: Mapping[PowerName, Sequence[Unit]], centers: Mapping[PowerName, frozenset[ProvinceName]]
) -> tuple[Mapping[PowerName, frozenset[ProvinceName]], tuple[tuple[str, PowerName | None, PowerName], ...]]:
    """Centre ownership once each supply centre belongs to the power whose unit stands on it.

    Only the owners of the centres taken change: their sets are made anew, the others are
    kept as they are (a fall takes a few centres of the thirty-odd)."""
    changes = []
    supply_centers = m.derived("turn:supply_centers", _supply_centers)
    for power, us in units.items():
        mine = centers.get(power, ())
        for unit in us:
            province = unit.province
            if province in supply_centers and province not in mine:
                changes.append((province, _owner(centers, province), power))
    if not changes:
        return centers, ()
    new = dict(centers)
    for center, old, power in changes:
        # the names of centres taken come from units' locations (`str`): they are `ProvinceName`s
        taken = {cast(ProvinceName, center)}
        if old is not None:
            new[old] = new[old] - taken
        new[power] = new.get(power, frozenset()) | taken
    return new, tuple(sorted(changes))


def _owner(centers: Mapping[PowerName, frozenset[ProvinceName]], center: str) -> PowerName | None:
    for power, owned in centers.items():
        if center in owned:
            return power
    return None


def _supply_centers(m: Map) -> frozenset[str]:
    return m.supply_centers
