"""What one picture shows: the value the drawing modules pass each other (`board.py`
draws it, `canvas.py` and `layers.py` read it). Apart so that they all import it from
below, not from one another."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..rules.names import PowerName
from ..rules.outcome import OrderOutcome
from ..rules.position import Dislodged, Position


@dataclass(frozen=True)
class Picture:
    """What one picture shows (built by `board_svg`'s callers or from a `PhaseReport`)."""

    position: Position  # the board when the orders were given
    outcomes: tuple[OrderOutcome, ...] = ()
    retreats: Mapping[PowerName, tuple[Dislodged, ...]] = field(default_factory=dict)
    title: str | None = None
    viewer: PowerName | None = None  # a BLIND picture: what this power can count
