"""Build payjudge/variants/standard.geometry.json from our drawing in standard_outline.py.

    .venv/bin/pip install shapely && .venv/bin/python tools/draw_standard.py

Needs shapely (only here: the judge reads the JSON it writes). Projects longitude and
latitude with a Lambert conformal conic projection (the board's tilted Scandinavia),
cuts land and sea into provinces by nearest seed, places the anchors, and checks that
the provinces which touch in the picture are those the map says are adjacent.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import shapely
from shapely.geometry import MultiPoint, Point, Polygon, box
from shapely.ops import polylabel, unary_union, voronoi_diagram

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import standard_outline as O

from payjudge.rules.mapfile import load_variant

WIDTH = 1000.0
MARGIN = 0.0
OUT = Path(__file__).resolve().parent.parent / "payjudge" / "variants" / "standard.geometry.json"

_phi1, _phi2, _lat0, _lon0 = map(math.radians, (40.0, 62.0, 52.0, 15.0))
_n = math.log(math.cos(_phi1) / math.cos(_phi2)) / math.log(
    math.tan(math.pi / 4 + _phi2 / 2) / math.tan(math.pi / 4 + _phi1 / 2)
)
_F = math.cos(_phi1) * math.tan(math.pi / 4 + _phi1 / 2) ** _n / _n
_rho0 = _F / math.tan(math.pi / 4 + _lat0 / 2) ** _n


def lcc(lon: float, lat: float) -> tuple[float, float]:
    rho = _F / math.tan(math.pi / 4 + math.radians(lat) / 2) ** _n
    theta = _n * (math.radians(lon) - _lon0)
    return rho * math.sin(theta), -(_rho0 - rho * math.cos(theta))


_centre = None
# lon, lat, magnification, radius (share of the frame's width): the crowded middle, Britain
LENSES = [(7.0, 50.0, 0.55, 0.30), (-2.5, 54.5, 0.35, 0.07)]


def lens(x: float, y: float) -> tuple[float, float]:
    """Magnify the crowded parts of the board (as the board itself does), smoothly and
    monotonically: a point at distance r from a centre moves to r * (1 + k e^(-r²/2σ²))."""
    for (cx, cy), k, sigma in _lenses:
        dx, dy = x - cx, y - cy
        f = 1 + k * math.exp(-(dx * dx + dy * dy) / (2 * sigma**2))
        x, y = cx + dx * f, cy + dy * f
    return x, y


_raw = [lcc(*p) for p in O.FRAME]
_span = max(x for x, _ in _raw) - min(x for x, _ in _raw)
_lenses: list = []
for _lon, _lat, _k, _r in LENSES:  # each lens works on the picture the ones before made
    _lenses.append((lens(*lcc(_lon, _lat)), _k, _r * _span))
_corners = [lens(*lcc(*p)) for p in O.FRAME]
_x0, _y0 = min(x for x, _ in _corners), min(y for _, y in _corners)
_scale = WIDTH / (max(x for x, _ in _corners) - _x0)
HEIGHT = round((max(y for _, y in _corners) - _y0) * _scale)


def proj(lon: float, lat: float) -> tuple[float, float]:
    x, y = lens(*lcc(lon, lat))
    return (x - _x0) * _scale + MARGIN, (y - _y0) * _scale + MARGIN


def poly(points) -> Polygon:
    dense = []
    for (a, b), (c, d) in zip(points, points[1:] + points[:1]):
        steps = max(1, int(max(abs(c - a), abs(d - b)) / 2))  # long edges follow the curve
        dense += [(a + (c - a) * i / steps, b + (d - b) * i / steps) for i in range(steps)]
    return Polygon([proj(*p) for p in dense]).buffer(0)


def seed_points(seeds):
    return {name: [Point(proj(*p)) for p in pts] for name, pts in seeds.items()}


def voronoi(region, seeds: dict[str, list[Point]]) -> dict[str, object]:
    """Split `region` by nearest seed; each name gets the union of its seeds' cells."""
    pts = [(name, p) for name, ps in seeds.items() for p in ps]
    cells = voronoi_diagram(MultiPoint([p for _, p in pts]), envelope=FRAME.buffer(2000))
    parts: dict[str, list] = {}
    for cell in cells.geoms:
        owner = next(name for name, p in pts if cell.contains(p))
        parts.setdefault(owner, []).append(cell)
    return {name: unary_union(cs).intersection(region) for name, cs in parts.items()}


FRAME = box(0, 0, WIDTH, HEIGHT)


def rings(geom, digits: int = 1) -> list[str]:
    out = []
    polys = (
        [geom]
        if geom.geom_type == "Polygon"
        else [g for g in getattr(geom, "geoms", []) if g.geom_type == "Polygon"]
    )
    for p in polys:
        if p.area < 4:
            continue
        for ring in [p.exterior, *p.interiors]:
            coords = list(ring.coords)[:-1]
            out.append(" ".join(f"{x:.{digits}f},{y:.{digits}f}" for x, y in coords))
    return out


def xy(p) -> list[float]:
    return [round(p.x, 1), round(p.y, 1)]


def main() -> None:
    m = load_variant("standard")
    mainland = poly(O.MAINLAND).difference(poly(O.BLACK_SEA)).difference(poly(O.CASPIAN))
    islands = [(poly(pts), owner) for pts, owner in O.ISLANDS]
    land = unary_union([mainland, *[g for g, _ in islands]]).intersection(FRAME)
    water = FRAME.difference(land)
    black = poly(O.BLACK_SEA).intersection(FRAME)
    lakes = unary_union([poly(p) for p in O.LAKES]).intersection(FRAME)
    ocean = water.difference(black).difference(lakes)

    land_seeds = seed_points(O.LAND_SEEDS)
    britain = islands[0][0]
    on_britain = {n: ps for n, ps in land_seeds.items() if britain.contains(ps[0])}
    on_mainland = {n: ps for n, ps in land_seeds.items() if n not in on_britain}
    shapes: dict[str, object] = {}
    shapes.update(voronoi(mainland.intersection(FRAME), on_mainland))
    shapes.update(voronoi(britain.intersection(FRAME), on_britain))
    impassable = [g for name, g in shapes.items() if name.startswith("_")]
    shapes = {n: g for n, g in shapes.items() if not n.startswith("_")}
    for geom, owner in islands[1:]:
        geom = geom.intersection(FRAME)
        if owner:
            shapes[owner] = unary_union([shapes[owner], geom.difference(mainland)])
        elif not geom.is_empty:
            impassable.append(geom)
    sea_seeds = seed_points(O.SEA_SEEDS)
    sea_seeds.pop("BLA")  # the Black Sea is drawn whole, not as a Voronoi cell
    shapes.update(voronoi(ocean, sea_seeds))
    shapes["BLA"] = black

    absorb_fragments(shapes)
    problems = check(m, shapes)
    doc = {
        "name": "standard",
        "width": WIDTH,
        "height": HEIGHT,
        "provinces": {},
        "coasts": {},
        "impassable": rings(unary_union(impassable)),
        "lakes": rings(lakes),
    }
    for name in sorted(m.provinces):
        geom = shapes[name]
        entry = anchors(name, geom, m.provinces[name].supply_center)
        doc["provinces"][name] = {"outline": rings(geom), **entry}
    for coast, (seas, (lo0, la0, lo1, la1)) in O.COASTS.items():
        province = coast.split("/")[0]
        area = poly([(lo0, la0), (lo1, la0), (lo1, la1), (lo0, la1)])
        sea = unary_union([shapes[s] for s in seas.split()]).buffer(1.5)
        line = shapes[province].boundary.intersection(sea).intersection(area)
        line = shapely.line_merge(line) if line.geom_type == "MultiLineString" else line
        lines = (
            [line]
            if line.geom_type == "LineString"
            else [g for g in getattr(line, "geoms", []) if g.geom_type == "LineString"]
        )
        if not lines or line.is_empty:
            problems.append(f"{coast}: no coast line")
            continue
        longest = max(lines, key=lambda g: g.length)
        mid = longest.interpolate(0.5, normalized=True)
        inner = Point(doc["provinces"][province]["unit"])
        dx, dy = inner.x - mid.x, inner.y - mid.y
        d = math.hypot(dx, dy) or 1
        unit = Point(mid.x + dx / d * 9, mid.y + dy / d * 9)
        out = Point(mid.x - dx / d * 10, mid.y - dy / d * 10)
        doc["coasts"][coast] = {
            "line": [" ".join(f"{x:.1f},{y:.1f}" for x, y in g.coords) for g in lines if g.length > 2],
            "unit": xy(unit),
            "label": xy(out),
        }
    OUT.write_text(json.dumps(doc, indent=0, sort_keys=False) + "\n")
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes), {WIDTH:.0f}x{HEIGHT}")
    for p in problems:
        print("  ", p)


def anchors(name: str, geom, center: bool) -> dict:
    main = max(getattr(geom, "geoms", [geom]), key=lambda g: g.area)
    fixed = getattr(O, "ANCHORS", {}).get(name, {})
    c = polylabel(main, tolerance=0.5)
    out: dict = {}
    out["unit"] = xy(Point(proj(*fixed["unit"]))) if "unit" in fixed else xy(c)
    ux, uy = out["unit"]

    def best(offsets, clearance):
        """The first offset from the unit that lies inside the province, well clear of its edge."""
        for need in (clearance, clearance / 2, 0):
            for dx, dy in offsets:
                p = Point(ux + dx, uy + dy)
                if main.contains(p) and main.exterior.distance(p) >= need:
                    return [round(p.x, 1), round(p.y, 1)]
        return [round(ux + offsets[0][0], 1), round(uy + offsets[0][1], 1)]

    out["label"] = best([(0, -18), (0, -15), (0, 19), (-20, -12), (20, -12), (0, -22)], 5)
    if center:
        out["center"] = best([(14, 11), (-14, 11), (15, 0), (-15, 0), (0, 15), (12, -12), (-12, -12)], 5)
    return out


def absorb_fragments(shapes) -> None:
    """A sliver cut off from its province (nearest seed across a peninsula) joins the
    neighbour it shares the longest border with."""
    for name in sorted(shapes):
        g = shapes[name]
        parts = [p for p in getattr(g, "geoms", [g]) if p.geom_type == "Polygon"]
        if len(parts) < 2 or name == "DEN":
            continue
        biggest = max(p.area for p in parts)
        for piece in parts:
            if piece.area >= 0.2 * biggest:
                continue
            best, length = None, 0.0
            for other, og in shapes.items():
                if other == name:
                    continue
                shared = piece.boundary.intersection(og.buffer(0.3)).length
                if shared > length:
                    best, length = other, shared
            if best is not None:
                shapes[name] = shapes[name].difference(piece.buffer(0.01))
                shapes[best] = unary_union([shapes[best], piece])


def check(m, shapes) -> list[str]:
    problems = []
    for name in m.provinces:
        if name not in shapes or shapes[name].is_empty:
            problems.append(f"{name}: no shape")
    for name, g in shapes.items():
        parts = [p for p in getattr(g, "geoms", [g]) if p.area > 4]
        if len(parts) > 1 and name not in ("DEN",):
            problems.append(f"{name}: {len(parts)} pieces, areas {[round(p.area) for p in parts]}")
    adjacent = set()
    for a, ns in m.army_adjacency.items():
        adjacent |= {frozenset((a, b)) for b in ns}
    for loc, ns in m.fleet_adjacency.items():
        adjacent |= {frozenset((loc.province, b.province)) for b in ns}
    names = sorted(shapes)
    touching = set()
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            shared = shapes[a].buffer(0.6).intersection(shapes[b].buffer(0.6))
            if not shared.is_empty and shared.area > 6:
                touching.add(frozenset((a, b)))
    touching -= {frozenset(("NAF", "SPA"))}  # across the Strait of Gibraltar
    touching = {t for t in touching if "SWI" not in t}  # impassable
    for pair in sorted(touching - adjacent, key=sorted):
        a, b = sorted(pair)
        at = shapes[a].buffer(0.6).intersection(shapes[b].buffer(0.6)).centroid
        problems.append(f"touch but not adjacent: {a}-{b} at {at.x:.0f},{at.y:.0f}")
    for pair in sorted(adjacent - touching, key=sorted):
        problems.append(f"adjacent but not touching: {'-'.join(sorted(pair))}")
    return problems


if __name__ == "__main__":
    main()
