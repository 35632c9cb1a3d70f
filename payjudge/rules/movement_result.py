"""The outcome of a movement phase once every order is resolved (`movement.py`): each
order's result, the units where they end the phase, the dislodged units with the places
each may retreat to, and the provinces a standoff left empty."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .borders import crossing_refused
from .geography import Location, UnitType
from .names import PowerName
from .orders import Unit
from .outcome import OrderOutcome, Result
from .position import Dislodged, Position

if TYPE_CHECKING:
    from .movement import _Board

# Enum members read once (as in movement.py: each `Result.X` is a descriptor call)
_ARMY: Final = UnitType.ARMY
_SUCCEEDS: Final = Result.SUCCEEDS
_BOUNCED: Final = Result.BOUNCED
_NO_CONVOY: Final = Result.NO_CONVOY
_DISRUPTED: Final = Result.DISRUPTED
_CUT: Final = Result.CUT
_VOID: Final = Result.VOID
_DISLODGED: Final = Result.DISLODGED


class MovementResult:
    """The board once every order is resolved: a value (Final attributes, as turn.PhaseReport)."""

    __slots__ = ("contested", "dislodged", "outcomes", "units")

    outcomes: Final[tuple[OrderOutcome, ...]]
    units: Final[dict[PowerName, tuple[Unit, ...]]]  # after the moves, without the dislodged
    dislodged: Final[dict[PowerName, tuple[Dislodged, ...]]]
    contested: Final[frozenset[str]]  # provinces left empty by a standoff

    def __init__(
        self,
        outcomes: tuple[OrderOutcome, ...],
        units: dict[PowerName, tuple[Unit, ...]],
        dislodged: dict[PowerName, tuple[Dislodged, ...]],
        contested: frozenset[str],
    ) -> None:
        self.outcomes = outcomes
        self.units = units
        self.dislodged = dislodged
        self.contested = contested


def movement_result(b: _Board, position: Position, defaults: frozenset[str]) -> MovementResult:
    """Outcomes, units and dislodged units once every order is resolved. Each step
    walks only the orders of its kind: most units hold, and a hold succeeds unless
    its unit is dislodged."""
    resolution, dest, at = b.resolution, b.dest, b.at
    moved = [i for i in b.moves if resolution[i]]
    entered: dict[str, int] = {dest[i]: i for i in moved}  # type: ignore[misc]
    went = set(moved)
    # a unit that did not move, where a move succeeded, is dislodged by it
    dislodged_by: dict[int, int] = {}
    for province, attacker in entered.items():
        j = at.get(province)
        if j is not None and j not in went:
            dislodged_by[j] = attacker
    occupied, contested = _standoffs(b, moved, entered)
    gone = [False] * len(b.units)
    for i in dislodged_by:
        gone[i] = True
    results = _results(b, gone)
    powers, orders, prov = b.powers, b.orders, b.prov
    outcomes = tuple(
        [
            OrderOutcome(powers[i], orders[i], results[i], gone[i], prov[i] in defaults)
            for i in range(len(results))
        ]
    )
    return MovementResult(
        outcomes,
        _units_after(b, position, moved, gone),
        _dislodged(b, position, dislodged_by, occupied, contested),
        frozenset(contested),
    )


def _standoffs(b: _Board, moved: list[int], entered: dict[str, int]) -> tuple[set[str], set[str]]:
    """The provinces occupied after the moves, and those left empty by a standoff
    (retreats may not go there); the provinces of dislodged units are among those entered."""
    prov = b.prov
    occupied = set(prov)
    occupied.difference_update([prov[i] for i in moved])
    occupied.update(entered)
    contested = set()
    for province, movers in b.moves_to.items():
        if province in occupied:
            continue
        for c in movers:
            if b.prevent_strength(c) > 0:
                contested.add(province)
                break
    return occupied, contested


def _results(b: _Board, gone: list[bool]) -> list[Result]:
    """Each order's result; `gone`: the units dislodged."""
    resolution, by_convoy = b.resolution, b.by_convoy
    results = [_DISLODGED if g else _SUCCEEDS for g in gone]  # holds; the other kinds below
    for i in b.moves:
        if not resolution[i]:
            if by_convoy[i] and not b.convoyers.get(i):
                results[i] = _NO_CONVOY
            elif by_convoy[i] and not b.path(i):
                results[i] = _DISRUPTED
            else:
                results[i] = _BOUNCED
    for i in b.supports:
        results[i] = _VOID if b.support_target[i] < 0 else (_SUCCEEDS if resolution[i] else _CUT)
    for i in b.convoys:
        if b.convoy_target[i] < 0:
            results[i] = _VOID
        elif i in b.szykman:
            results[i] = _DISRUPTED
        elif gone[i]:
            results[i] = _DISLODGED
        else:  # an attack stopped it under WEAK_CONVOYS or SAFE_CONVOYS
            results[i] = _SUCCEEDS if resolution[i] else _DISRUPTED
    return results


def _units_after(
    b: _Board, position: Position, moved: list[int], gone: list[bool]
) -> dict[PowerName, tuple[Unit, ...]]:
    """Each power's units where they end the phase, the dislodged ones left out."""
    after: list[Unit] = list(b.units)
    for i in moved:
        after[i] = b.orders[i].arrived  # type: ignore[union-attr]
    new_units: dict[PowerName, tuple[Unit, ...]] = {}
    end = 0
    for power in sorted(position.units):  # each power's units are together on the board
        start, end = end, end + len(position.units[power])
        if True in gone[start:end]:
            mine = tuple(after[k] for k in range(start, end) if not gone[k])
        else:
            mine = tuple(after[start:end])
        if mine:
            new_units[power] = mine
    return new_units


def _dislodged(
    b: _Board, position: Position, dislodged_by: dict[int, int], occupied: set[str], contested: set[str]
) -> dict[PowerName, tuple[Dislodged, ...]]:
    """The dislodged units of each power, with where each may retreat."""
    prov = b.prov
    dislodged: dict[PowerName, list[Dislodged]] = {}
    for i in sorted(dislodged_by):
        attacker, power, unit = dislodged_by[i], b.powers[i], b.units[i]
        dislodged.setdefault(power, []).append(
            Dislodged(
                unit,
                prov[attacker],
                _retreats(position, power, unit, prov[attacker], b.by_convoy[attacker], occupied, contested),
            )
        )
    return {p: tuple(ds) for p, ds in dislodged.items()}


def _retreats(
    position: Position,
    power: PowerName,
    unit: Unit,
    attacker_from: str,
    by_convoy: bool,
    occupied: set[str],
    contested: set[str],
) -> tuple[Location, ...]:
    m = position.map
    if unit.type is _ARMY:
        options = [Location(p) for p in m.army_neighbours(unit.province)]
    else:
        options = list(m.fleet_neighbours(unit.location))
    allowed = []
    for loc in options:
        p = loc.province
        if p in occupied or p in contested:
            continue
        if p == attacker_from and not by_convoy:  # DATC 4.A.5: allowed after a convoyed attack
            continue
        if crossing_refused(position, power, unit.province, p):  # the map's `X(CEN)`, `R:X`
            continue
        allowed.append(loc)
    return tuple(sorted(allowed))
