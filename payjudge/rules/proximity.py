"""Which powers are near each other on the board: the geometry of TOUCH_PRESS and REMOTE_PRESS.

A unit "could support a hold" of another when it could move into that unit's province;
a power "touches" another when a unit of either could support a hold of a unit of the other.
"""

from __future__ import annotations

from .borders import support_refused
from .geography import Map
from .names import PowerName
from .orders import Unit
from .position import Position


def could_support_hold(game_map: Map, unit: Unit, province: str) -> bool:
    """`unit` could support a hold in `province`: it could move there, and the border
    between them is not one across which no support is given (DPjudge's `~`/`*` marks)."""
    return game_map.reaches_province(unit.type, unit.location, province) and not support_refused(
        game_map, unit.province, province
    )


def supports_either_way(game_map: Map, a: Unit, b: Unit) -> bool:
    """Either unit could support the other to hold: the adjacency of TOUCH_BRIBE,
    REMOTE_BRIBE, TOUCH_PRESS and REMOTE_PRESS (seed 003)."""
    return could_support_hold(game_map, a, b.province) or could_support_hold(game_map, b, a.province)


def _reaches_unit(pos: Position, mover: PowerName, other: PowerName) -> bool:
    """Some unit of `mover` could move into the province of some unit of `other`."""
    targets = {u.province for u in pos.units.get(other, ())}
    return any(could_support_hold(pos.map, u, p) for u in pos.units.get(mover, ()) for p in targets)


def _reaches_centre(pos: Position, mover: PowerName, owner: PowerName) -> bool:
    """Some unit of `mover` could move into a supply centre `owner` owns."""
    centres = pos.centers.get(owner, ())
    return any(
        pos.map.reaches_province(u.type, u.location, c) for u in pos.units.get(mover, ()) for c in centres
    )


def touching(pos: Position, a: PowerName, b: PowerName) -> bool:
    """A unit of `a` could support a unit of `b` to hold, or the other way round."""
    return _reaches_unit(pos, a, b) or _reaches_unit(pos, b, a)


def remote(pos: Position, a: PowerName, b: PowerName) -> bool:
    """Nothing of `b` is near `a`: not touching, and neither could move into the other's centres."""
    return not (touching(pos, a, b) or _reaches_centre(pos, b, a) or _reaches_centre(pos, a, b))
