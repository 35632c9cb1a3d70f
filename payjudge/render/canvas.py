"""What every layer of a board draws on: the SVG written so far, what it covers (for
the names, placed last), the marks drawn (for the legend), and where the action is (for
insets); with the primitives the layers share (unit tokens, rings, points).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..rules.geography import Location, Terrain, UnitType
from ..rules.names import PowerName
from ..rules.orders import Unit
from . import svg
from .geometry import Geometry, Point, Ring
from .insets import nearest
from .labels import Box, Segment
from .marks import Mark

if TYPE_CHECKING:
    from .picture import Picture

UNIT = 9.0  # half the width of a unit token


def _circle(at: Point, r: float, sides: int = 16) -> Ring:
    return tuple(
        (at[0] + r * math.cos(2 * math.pi * k / sides), at[1] + r * math.sin(2 * math.pi * k / sides))
        for k in range(sides)
    )


class Canvas:
    """One drawing of the board on `geometry` (the whole board, or an inset's part)."""

    def __init__(self, geometry: Geometry, picture: Picture):
        self.g = geometry
        self.pic = picture
        self.pos = picture.position
        self.map = picture.position.map
        self.colour = svg.colours(self.map.power_names)
        self.out: list[str] = []
        self.boxes: list[Box] = []
        self.lines: list[Segment] = []
        self.marks: set[Mark] = set()
        self.action: list[Point] = []
        self.edge_lines: list[tuple[int, Point, Point]] = []  # where in `out`, and its ends
        self.walls = self._walls()

    def add(self, text: str) -> None:
        self.out.append(text)

    def text(self) -> str:
        return "\n".join(self.out)

    def _walls(self) -> list[Ring]:
        """What an arrow must go round: impassable land (a small circle on a drawing,
        which gives only a point)."""
        walls = list(self.g.impassable)
        for name, prov in self.map.provinces.items():
            if prov.terrain is Terrain.SHUT:
                place = self.g.provinces[name]
                if place.outline:
                    walls += place.outline
                else:
                    walls.append(_circle(place.unit, place.radius or 10.0))
        return walls

    def crowded(self) -> float:
        """How close provinces stand: the median distance from each to its nearest."""
        return nearest([p.unit for p in self.g.provinces.values()])

    # -- the map -----------------------------------------------------------------------
    def unit(self, power: PowerName, unit: Unit, at: Point, kind: str = "unit", **extra: object) -> None:
        army = unit.type is UnitType.ARMY
        shape = svg.army if army else svg.fleet
        self.marks.add(Mark.ARMY if army else Mark.FLEET)
        self.boxes.append(box_around(at, UNIT * (1.1 if army else 1.35), UNIT * 0.8))
        cls = f"{kind} {'army' if army else 'fleet'}"
        self.add(
            f"<g {svg.attrs(class_=cls, data_power=power, data_location=str(unit.location), **extra)}>"
            f"{shape(at, self.colour.get(power, '#ffffff'), UNIT)}</g>"
        )

    def at(self, location: Location) -> Point:
        return self.g.unit_point(location)

    def displaced(self, location: Location) -> Point:
        x, y = self.at(location)
        return x + UNIT * 1.6, y + UNIT * 1.4

    def ring(self, at: Point, colour: str, dashed: bool = False, r: float = UNIT * 1.6, **kw: object) -> None:
        self.boxes.append(box_around(at, r, r))
        self.add(
            svg.element(
                "circle",
                cx=at[0],
                cy=at[1],
                r=r,
                fill="none",
                stroke=colour,
                stroke_width=2.2,
                stroke_dasharray="4 3" if dashed else None,
                **kw,
            )
        )


def box_around(at: Point, half_w: float, half_h: float) -> Box:
    return at[0] - half_w, at[1] - half_h, at[0] + half_w, at[1] + half_h
