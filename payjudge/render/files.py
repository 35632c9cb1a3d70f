"""Finding a map's geometry: a DPjudge drawing installed with it, our own drawing shipped
beside its `.map` file, or else a schematic laid out from its graph."""

from __future__ import annotations

import json
import logging
from importlib import resources
from pathlib import Path

from ..rules.geography import Map
from .drawing import DrawingError, load_drawing
from .geometry import Geometry, parse_geometry
from .schematic import schematic_geometry

log = logging.getLogger("payjudge.render")


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


def drawing_path(game_map: Map, maps_dir: Path | None) -> Path | None:
    """The DPjudge drawing (`<map>.ps`) installed beside the map, if any."""
    if maps_dir is None:
        return None
    path = Path(maps_dir) / f"{game_map.name}.ps"
    return path if path.is_file() else None


def geometry_for(game_map: Map, maps_dir: Path | None = None, cache_dir: Path | None = None) -> Geometry:
    """The picture's geometry for a map, computed once per map: the DPjudge drawing
    installed with it (rendered by Ghostscript, the result kept in `cache_dir`), else our
    own drawing (`<map>.geometry.json`, installed or shipped), else a schematic. A drawing
    that cannot be used (no Ghostscript, a broken file) is logged and the next one taken:
    a picture is never missing."""
    ps = drawing_path(game_map, maps_dir)

    def compute(m: Map) -> Geometry:
        if ps is not None:
            try:
                return load_drawing(ps, m, cache_dir)
            except (DrawingError, OSError, ValueError) as exc:
                log.warning("map %s: its drawing %s is not used: %s", m.name, ps, exc)
        installed = drawn_geometry(m, Path(maps_dir)) if maps_dir else None
        return installed or drawn_geometry(m) or schematic_geometry(m)

    return game_map.derived(f"render:geometry:{ps}:{ps.stat().st_mtime_ns if ps else ''}", compute)
