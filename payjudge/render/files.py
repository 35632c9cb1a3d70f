"""Finding a map's geometry: the drawing shipped beside its `.map` file, or a schematic."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

from ..rules.geography import Map
from .geometry import Geometry, parse_geometry
from .schematic import schematic_geometry


def _variants() -> Path:
    return Path(str(resources.files("payjudge") / "variants"))


def drawn_geometry(game_map: Map, folder: Path | None = None) -> Geometry | None:
    """`<map>.geometry.json` beside the map, when it exists and fits the map."""
    path = (folder or _variants()) / f"{game_map.name}.geometry.json"
    if not path.is_file():
        return None
    geometry = parse_geometry(json.loads(path.read_text(encoding="utf-8")))
    problems = geometry.problems(game_map)
    if problems:
        raise ValueError(f"{path.name}: " + "; ".join(problems))
    return geometry


def geometry_for(game_map: Map) -> Geometry:
    """The picture's geometry for a map, computed once per map: drawn, or else schematic."""
    def compute(m: Map) -> Geometry:
        return drawn_geometry(m) or schematic_geometry(m)
    return game_map.derived("render:geometry", compute)
