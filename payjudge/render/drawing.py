"""DPjudge's drawing of a map: its `.ps` base map through Ghostscript, and where to draw.

DPjudge ships a PostScript drawing beside most maps. Its `% INFO` block gives, for every
location, the point where DPjudge drew a unit (`%  311  155 ADR    Adriatic Sea`), in the
coordinates its `DrawMap` procedure leaves in force; DPjudge's newer drawings also list
each supply centre's mark in `/VisitSupplies` (`/POL 368 286 s`). We let Ghostscript run
the drawing's own `DrawMap` (and `ShowPage`, which adds the names and the centre marks),
measure in the same run where those coordinates land on the page (the transformation
matrix) and how big the drawing is (Ghostscript's bbox device), and render it upright
as a PNG about 1000 pixels wide. The board renderer then draws units, centres and orders
on top of that picture (`Geometry.background`), exactly as on our own maps.

Nothing of the drawing is copied: the keeper installs it (`payjudge map install`), and
pictures are made from the installed file.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import re
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from ..rules.geography import Map, Terrain
from .geometry import CoastPlace, Geometry, Place, Point
from .insets import crowded
from .pixels import Pixels

WIDTH = 1000.0  # the picture's width, as our own standard map's
_FAR = 2000  # where the drawing is moved while it is measured (no clipping)
_NUMBER = r"-?\d+(?:\.\d+)?"
_INFO = re.compile(rf"^%\s+({_NUMBER})\s+({_NUMBER})\s+(\S+)")
_SUPPLY = re.compile(rf"/([A-Za-z0-9_/]+)\s+({_NUMBER})\s+({_NUMBER})\s+s\b")
_MATRIX = re.compile(r"\[\s*((?:" + _NUMBER + r"(?:e-?\d+)?\s*){6})\]")
_BBOX = re.compile(
    r"%%HiResBoundingBox:\s+(" + _NUMBER + r")\s+(" + _NUMBER + r")\s+(" + _NUMBER + r")\s+(" + _NUMBER + r")"
)
TIMEOUT = 60


class DrawingError(ValueError):
    """A drawing that cannot be used (the message says why)."""


@dataclass(frozen=True)
class Drawing:
    """What a `.ps` file says about its map: the points of its INFO block (by location,
    upper case) and of its supply-centre marks."""

    info: dict[str, Point]
    supplies: dict[str, Point]

    @classmethod
    def read(cls, text: str) -> Drawing:
        info: dict[str, Point] = {}
        lines = text.splitlines()
        try:
            start = next(i for i, line in enumerate(lines) if line.strip() == "% INFO")
        except StopIteration:
            raise DrawingError("no % INFO block (not a DPjudge map drawing)") from None
        for line in lines[start + 1 :]:
            if not line.startswith("%") or line.strip() in ("% MAP", "% LANG"):
                break
            m = _INFO.match(line)
            if m:  # other lines (classical's `(R) (RHODES)`, translations) name nothing we know
                info.setdefault(m.group(3).upper(), (float(m.group(1)), float(m.group(2))))
        supplies: dict[str, Point] = {}
        visit = re.search(r"/VisitSupplies\s*\{(.*?)\}\s*bd", text, re.S)
        if visit:
            for name, x, y in _SUPPLY.findall(visit.group(1)):
                supplies[name.upper()] = (float(x), float(y))
        return cls(info, supplies)

    def problems(self, game_map: Map) -> list[str]:
        """The map's provinces this drawing has no point for (empty when it fits; a coast
        without a point of its own is drawn at its province)."""
        return [
            f"the drawing has no point for {p}"
            for p in sorted(game_map.provinces)
            if p.upper() not in self.info
        ]


def ghostscript() -> str | None:
    return shutil.which("gs")


def _run(args: list[str], program: bytes) -> subprocess.CompletedProcess[bytes]:
    gs = ghostscript()
    if gs is None:
        raise DrawingError("Ghostscript (gs) is not installed: apt-get install ghostscript")
    # -dSAFER: the drawing may not open, write or delete files; it reads its program from stdin
    try:
        return subprocess.run(
            [gs, "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-dNOINTERPOLATE", *args, "-"],
            input=program,
            capture_output=True,
            timeout=TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        raise DrawingError(f"Ghostscript took more than {TIMEOUT} s on the drawing") from None


def _program(ps: bytes, prelude: str) -> bytes:
    """The drawing, then one page: its base map, where its coordinates land, the page."""
    return (
        ps + b"\n%%Page: 1 1\n" + prelude.encode() + b"\nDrawMap\n"
        b"(MATRIX ) print matrix currentmatrix matrix defaultmatrix matrix invertmatrix "
        b"matrix concatmatrix == flush\nShowPage\n"
    )


def _measure(ps: bytes, prelude: str) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The drawing's matrix (from its coordinates to the default page) and bounding box."""
    done = _run(
        [
            "-sDEVICE=bbox",
            f"-dDEVICEWIDTHPOINTS={2 * _FAR}",
            f"-dDEVICEHEIGHTPOINTS={2 * _FAR}",
            "-dFIXEDMEDIA",
        ],
        _program(ps, prelude),
    )
    out, err = done.stdout.decode("latin-1"), done.stderr.decode("latin-1")
    matrix, box = _MATRIX.search(out.partition("MATRIX")[2]), _BBOX.search(err)
    if done.returncode != 0 or matrix is None or box is None:
        tail = (err or out).strip().splitlines()[-3:]
        raise DrawingError("Ghostscript could not run the drawing's DrawMap: " + " / ".join(tail))
    return tuple(float(v) for v in matrix.group(1).split()), tuple(float(v) for v in box.groups())


SHUT_RADIUS = 12.0
DETAIL = 2.5  # the detail picture, for insets of crowded maps, is this much larger


@dataclass(frozen=True)
class Rendered:
    """A drawing rendered upright: the PNG, its size in picture units, and the mapping of
    the drawing's coordinates onto it; `detail` is the same picture `DETAIL` times larger,
    from which insets are cut."""

    png: bytes
    width: float
    height: float
    matrix: tuple[float, ...]  # drawing coordinates -> picture units (a b c d e f)
    detail: bytes | None = None

    def point(self, p: Point) -> Point:
        a, b, c, d, e, f = self.matrix
        return round(a * p[0] + c * p[1] + e, 1), round(b * p[0] + d * p[1] + f, 1)


def _draw(ps: bytes, turn: str, box: tuple[int, int, int, int], k: float, device: str = "png16m") -> bytes:
    """One Ghostscript run: the drawing's `box` (points), `k` pixels a point, as PNG (or
    as the `device` writes it: ppmraw, raw pixels)."""
    x0, y0, x1, y1 = box
    done = _run(
        [
            f"-sDEVICE={device}",
            f"-r{72 * k:.4f}",
            f"-dDEVICEWIDTHPOINTS={x1 - x0}",
            f"-dDEVICEHEIGHTPOINTS={y1 - y0}",
            "-dFIXEDMEDIA",
            "-dTextAlphaBits=4",
            "-dGraphicsAlphaBits=4",
            "-sstdout=%stderr",
            "-sOutputFile=%stdout",
        ],
        _program(ps, f"{-x0} {-y0} translate {turn}"),
    )
    if done.returncode != 0 or not done.stdout.startswith(b"P6" if device == "ppmraw" else b"\x89PNG"):
        raise DrawingError("Ghostscript could not render the drawing")
    return done.stdout


def render_drawing(
    ps: bytes, width: float = WIDTH, *, detail: bool | Callable[[Rendered], bool] = False
) -> Rendered:
    """Render a DPjudge `.ps` upright, `width` pixels wide (three Ghostscript runs:
    measure the turn, measure the size, draw; a fourth draws the detail picture when
    `detail` says so, given the rendering without it)."""
    matrix, _ = _measure(ps, f"{_FAR} {_FAR} translate")
    angle = round(math.degrees(math.atan2(matrix[1], matrix[0])) / 90) * 90 % 360
    turn = f"{_FAR} {_FAR} translate {-angle} rotate"
    matrix, (x0, y0, x1, y1) = _measure(ps, turn)
    box = math.floor(x0), math.floor(y0), math.ceil(x1), math.ceil(y1)
    x0, y0, x1, y1 = box
    if x1 - x0 < 10 or y1 - y0 < 10:
        raise DrawingError("the drawing's DrawMap draws nothing")
    k = width / (x1 - x0)
    png = _draw(ps, turn, box, k)
    a, b, c, d, e, f = matrix
    # default page (points, y up) -> picture units (k per point, y down from the top)
    to_picture = (a * k, -b * k, c * k, -d * k, (e - x0) * k, (y1 - f) * k)
    rendered = Rendered(png, round(width, 1), round((y1 - y0) * k, 1), to_picture)
    if detail(rendered) if callable(detail) else detail:
        # written by us, row by row unfiltered, so that an inset can cut out its part
        # (render/pixels.py)
        detail_png = Pixels.from_ppm(_draw(ps, turn, box, k * DETAIL, "ppmraw")).png()
        rendered = replace(rendered, detail=detail_png)
    return rendered


def drawing_geometry(game_map: Map, drawing: Drawing, rendered: Rendered) -> Geometry:
    """The places of a map on its DPjudge drawing (no outlines: the drawing is the map)."""
    places, coasts = {}, {}
    for name, prov in game_map.provinces.items():
        at = rendered.point(drawing.info[name.upper()])
        center = None
        if prov.supply_center:
            mark = drawing.supplies.get(name.upper())
            center = rendered.point(mark) if mark else (at[0] + 14.0, at[1] + 12.0)
        # impassable land is only a point on the drawing: arrows keep this far from it
        radius = SHUT_RADIUS if prov.terrain is Terrain.SHUT else None
        places[name] = Place((), at, at, center, radius)
        if len(prov.coasts) > 1:
            for coast in prov.coasts:
                point = drawing.info.get(f"{name}/{coast}".upper())
                unit = rendered.point(point) if point else at
                coasts[f"{name}/{coast}"] = CoastPlace((), unit, unit)
    href = "data:image/png;base64," + base64.b64encode(rendered.png).decode("ascii")
    detail = rendered.detail and "data:image/png;base64," + base64.b64encode(rendered.detail).decode("ascii")
    return Geometry(
        game_map.name, rendered.width, rendered.height, places, coasts, background=href, detail=detail or None
    )


def _cached(cached: Path) -> Rendered | None:
    """A rendering kept before, if it is whole. The detail picture (only a crowded map's)
    is kept as `.detail`, not `.png`: one PNG per drawing. A cache from before details
    were made says nothing of them, and one from before they were written to be cut
    (`cut`, render/pixels.py) holds Ghostscript's: the drawing is rendered again."""
    if not (cached.with_suffix(".json").is_file() and cached.with_suffix(".png").is_file()):
        return None
    meta = json.loads(cached.with_suffix(".json").read_text())
    more = cached.with_suffix(".detail")
    if "detail" not in meta or (meta["detail"] and not (more.is_file() and meta.get("cut"))):
        return None
    return Rendered(
        cached.with_suffix(".png").read_bytes(),
        meta["width"],
        meta["height"],
        tuple(meta["matrix"]),
        more.read_bytes() if meta["detail"] else None,
    )


def load_drawing(path: Path, game_map: Map, cache_dir: Path | None = None) -> Geometry:
    """The geometry of `game_map` drawn by the DPjudge drawing at `path`. The rendered base
    map is kept in `cache_dir` (keyed by the file's digest), so Ghostscript runs once."""
    ps = path.read_bytes()
    drawing = Drawing.read(ps.decode("latin-1"))
    problems = drawing.problems(game_map)
    if problems:
        raise DrawingError(
            f"{path.name}: "
            + "; ".join(problems[:5])
            + (f" (and {len(problems) - 5} more)" if len(problems) > 5 else "")
        )
    digest = hashlib.sha256(ps).hexdigest()[:16]
    cached = cache_dir / f"{path.stem}-{digest}" if cache_dir else None
    rendered = _cached(cached) if cached else None
    if rendered is None:
        points = list(drawing.info.values())
        rendered = render_drawing(ps, detail=lambda r: crowded([r.point(p) for p in points]))
        if cached:
            cached.parent.mkdir(parents=True, exist_ok=True)
            cached.with_suffix(".png").write_bytes(rendered.png)
            if rendered.detail:
                cached.with_suffix(".detail").write_bytes(rendered.detail)
            doc = {"width": rendered.width, "height": rendered.height, "matrix": rendered.matrix}
            detail = rendered.detail is not None
            cached.with_suffix(".json").write_text(json.dumps({**doc, "detail": detail, "cut": detail}))
    return drawing_geometry(game_map, drawing, rendered)
