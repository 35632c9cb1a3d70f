"""Which powers are near each other on the board: the geometry of TOUCH_PRESS and REMOTE_PRESS.

A unit "could support a hold" of another when it could move into that unit's province;
a power "touches" another when a unit of either could support a hold of a unit of the other.
"""

from __future__ import annotations

from .names import PowerName
from .position import Position


def _reaches_unit(pos: Position, mover: PowerName, other: PowerName) -> bool:
    """Some unit of `mover` could move into the province of some unit of `other`."""
    targets = {u.province for u in pos.units.get(other, ())}
    return any(
        pos.map.reaches_province(u.type, u.location, p) for u in pos.units.get(mover, ()) for p in targets
    )


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
