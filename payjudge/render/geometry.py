"""Where each province is drawn: outlines, coast lines and anchor points, read from data."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..rules.geography import Location, Map

Point = tuple[float, float]
Ring = tuple[Point, ...]


@dataclass(frozen=True, slots=True)
class Place:
    """One province: its outline (rings, drawn even-odd) and where its label, unit and
    supply centre go."""

    outline: tuple[Ring, ...]
    label: Point
    unit: Point
    center: Point | None = None
    # a schematic province is a circle of this radius; on a drawing, impassable land
    radius: float | None = None


@dataclass(frozen=True, slots=True)
class CoastPlace:
    """One coast of a province with several: the coast line and where a fleet on it stands."""

    lines: tuple[Ring, ...]
    unit: Point
    label: Point


@dataclass(frozen=True)
class Geometry:
    name: str
    width: float
    height: float
    provinces: Mapping[str, Place]
    coasts: Mapping[str, CoastPlace] = field(default_factory=dict)
    impassable: tuple[Ring, ...] = ()  # land that belongs to no province
    lakes: tuple[Ring, ...] = ()
    edges: tuple[tuple[str, str], ...] = ()  # adjacencies drawn as lines (schematic pictures)
    schematic: bool = False
    # a picture of the map under everything (a DPjudge drawing, as a data: URI): the
    # provinces then have no outlines, only their anchor points
    background: str | None = None
    # where that picture lies (x, y, width, height); None: the whole geometry. An inset
    # shows a part of it, enlarged
    background_frame: tuple[float, float, float, float] | None = None
    detail: str | None = None  # the same picture, larger: insets are cut from it

    def unit_point(self, location: Location) -> Point:
        """Where a unit on `location` is drawn: at its coast when the coast has a place."""
        if location.coast:
            coast = self.coasts.get(str(location))
            if coast is not None:
                return coast.unit
        return self.provinces[location.province].unit

    def problems(self, game_map: Map) -> list[str]:
        """What a map needs and this geometry lacks (empty when it fits the map)."""
        out = [f"no place for province {p}" for p in sorted(game_map.provinces) if p not in self.provinces]
        for name, prov in sorted(game_map.provinces.items()):
            if len(prov.coasts) > 1:
                out += [
                    f"no place for coast {name}/{c}" for c in prov.coasts if f"{name}/{c}" not in self.coasts
                ]
        return out


def _point(value: Any, what: str) -> Point:
    if not (
        isinstance(value, (list, tuple))
        and len(value) == 2
        and all(isinstance(v, (int, float)) for v in value)
    ):
        raise ValueError(f"{what}: a point is [x, y], not {value!r}")
    return float(value[0]), float(value[1])


def _ring(text: Any, what: str) -> Ring:
    """A ring written as `x,y x,y …` (compact, and readable in a diff)."""
    if not isinstance(text, str):
        raise ValueError(f"{what}: a ring is a string of x,y pairs")
    try:
        ring = tuple((float(x), float(y)) for x, y in (pair.split(",") for pair in text.split()))
    except ValueError:
        raise ValueError(f"{what}: a ring is a string of x,y pairs") from None
    if len(ring) < 2:
        raise ValueError(f"{what}: a ring needs at least two points")
    return ring


def parse_geometry(doc: Mapping[str, Any]) -> Geometry:
    """A `Geometry` from its JSON document; ValueError names the faulty entry."""
    provinces = {}
    for name, entry in dict(doc.get("provinces", {})).items():
        where = f"province {name}"
        provinces[name] = Place(
            tuple(_ring(r, where) for r in entry.get("outline", [])),
            _point(entry.get("label"), where),
            _point(entry.get("unit"), where),
            _point(entry["center"], where) if entry.get("center") is not None else None,
        )
    coasts = {}
    for name, entry in dict(doc.get("coasts", {})).items():
        where = f"coast {name}"
        coasts[name] = CoastPlace(
            tuple(_ring(r, where) for r in entry.get("line", [])),
            _point(entry.get("unit"), where),
            _point(entry.get("label"), where),
        )
    width, height = doc.get("width"), doc.get("height")
    if not isinstance(width, (int, float)) or not isinstance(height, (int, float)):
        raise ValueError("width and height must be numbers")
    return Geometry(
        str(doc.get("name", "")),
        float(width),
        float(height),
        provinces,
        coasts,
        tuple(_ring(r, "impassable") for r in doc.get("impassable", [])),
        tuple(_ring(r, "lakes") for r in doc.get("lakes", [])),
    )
