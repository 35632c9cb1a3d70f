"""A picture for a map nobody has drawn: its provinces laid out from its own graph.

A force-directed layout (Fruchterman and Reingold): adjacent provinces pull together, all
provinces push apart. It starts from positions derived from the province names, so the
same map always gives the same picture. Provinces are circles, adjacencies faint lines.
"""

from __future__ import annotations

import math
import random
import zlib

from ..rules.geography import Location, Map, Terrain
from .geometry import CoastPlace, Geometry, Place

WIDTH, HEIGHT, MARGIN = 1000.0, 760.0, 40.0
GRAVITY = 2.0
MIN_RADIUS = 8.0


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


def _edges(m: Map) -> list[tuple[str, str]]:
    pairs: set[tuple[str, str]] = set()
    for a, ns in m.army_adjacency.items():
        pairs |= {_pair(a, b) for b in ns if b != a}
    for loc, fleet_ns in m.fleet_adjacency.items():
        pairs |= {_pair(loc.province, b.province) for b in fleet_ns if b.province != loc.province}
    return sorted(p for p in pairs if p[0] in m.provinces and p[1] in m.provinces)


def layout(
    names: list[str], edges: list[tuple[str, str]], iterations: int | None = None
) -> dict[str, tuple[float, float]]:
    """Positions in the unit square, deterministic for the same names and edges."""
    n = len(names)
    if n == 0:
        return {}
    rng = random.Random(zlib.crc32(" ".join(names).encode()))
    pos = [[rng.random(), rng.random()] for _ in names]
    index = {name: i for i, name in enumerate(names)}
    links = [(index[a], index[b]) for a, b in edges]
    k = math.sqrt(1.0 / n)
    steps = iterations if iterations is not None else max(40, min(250, 4_000_000 // (n * n)))
    temperature = 0.1
    for step in range(steps):
        disp = [[0.0, 0.0] for _ in names]
        for i in range(n):
            xi, yi = pos[i]
            di = disp[i]
            for j in range(i + 1, n):
                dx, dy = xi - pos[j][0], yi - pos[j][1]
                d2 = dx * dx + dy * dy or 1e-9
                f = k * k / d2  # repulsion k²/d, along (dx, dy)/d
                di[0] += dx * f
                di[1] += dy * f
                disp[j][0] -= dx * f
                disp[j][1] -= dy * f
        for i, j in links:
            dx, dy = pos[i][0] - pos[j][0], pos[i][1] - pos[j][1]
            d = math.hypot(dx, dy) or 1e-9
            f = d / k  # attraction d²/k, along (dx, dy)/d
            disp[i][0] -= dx * f
            disp[i][1] -= dy * f
            disp[j][0] += dx * f
            disp[j][1] += dy * f
        for i in range(n):  # a little gravity: provinces with no neighbour (impassable ones) stay near
            disp[i][0] += (0.5 - pos[i][0]) * GRAVITY
            disp[i][1] += (0.5 - pos[i][1]) * GRAVITY
        for i in range(n):
            dx, dy = disp[i]
            d = math.hypot(dx, dy) or 1e-9
            limit = min(d, temperature)
            pos[i][0] += dx / d * limit
            pos[i][1] += dy / d * limit
        temperature = 0.1 * (1 - (step + 1) / steps) + 0.002
    xs, ys = [p[0] for p in pos], [p[1] for p in pos]
    span = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
    return {name: ((pos[i][0] - min(xs)) / span, (pos[i][1] - min(ys)) / span) for name, i in index.items()}


def _circle(x: float, y: float, r: float, sides: int = 24) -> tuple[tuple[float, float], ...]:
    return tuple(
        (
            round(x + r * math.cos(2 * math.pi * s / sides), 1),
            round(y + r * math.sin(2 * math.pi * s / sides), 1),
        )
        for s in range(sides)
    )


def _coast_places(m: Map, name: str, at: dict[str, tuple[float, float]], r: float) -> dict[str, CoastPlace]:
    """Where the fleets on each coast of `name` stand: towards the seas that coast touches."""
    x, y = at[name]
    out = {}
    for coast in m.provinces[name].coasts:
        seas = [
            at[n.province]
            for n in m.fleet_adjacency.get(Location(name, coast), ())
            if m.provinces[n.province].terrain is Terrain.WATER
        ]
        seas = seas or [at[n.province] for n in m.fleet_adjacency.get(Location(name, coast), ())]
        dx = sum(s[0] for s in seas) / len(seas) - x if seas else 0.0
        dy = sum(s[1] for s in seas) / len(seas) - y if seas else 1.0
        d = math.hypot(dx, dy) or 1.0
        ux, uy = x + dx / d * r * 0.7, y + dy / d * r * 0.7
        out[f"{name}/{coast}"] = CoastPlace(
            (),
            (round(ux, 1), round(uy, 1)),
            (round(x + dx / d * (r + 9), 1), round(y + dy / d * (r + 9), 1)),
        )
    return out


def schematic_geometry(m: Map) -> Geometry:
    """The map's provinces as circles where the layout puts them, 1000 units wide."""
    names = sorted(m.provinces)
    edges = _edges(m)
    unit = layout(names, edges)
    xs = [p[0] for p in unit.values()] or [0.0]
    ys = [p[1] for p in unit.values()] or [0.0]
    sx = (WIDTH - 2 * MARGIN) / ((max(xs) - min(xs)) or 1)
    sy = (HEIGHT - 2 * MARGIN) / ((max(ys) - min(ys)) or 1)
    at = {n: (MARGIN + (x - min(xs)) * sx, MARGIN + (y - min(ys)) * sy) for n, (x, y) in unit.items()}
    lengths = sorted(math.dist(at[a], at[b]) for a, b in edges) or [60.0]
    r = max(12.0, min(26.0, lengths[len(lengths) // 2] * 0.3))
    places: dict[str, Place] = {}
    coasts: dict[str, CoastPlace] = {}
    for name in names:
        x, y = at[name]
        prov = m.provinces[name]
        # where provinces crowd, smaller circles: a circle never reaches past half the way
        # to its nearest neighbour, so none covers another's unit or name
        near = min((math.dist(at[name], at[o]) for o in names if o != name), default=2 * r)
        ri = round(max(MIN_RADIUS, min(r, near * 0.48)), 1)
        center = (round(x + ri * 0.75, 1), round(y + ri * 0.7, 1)) if prov.supply_center else None
        places[name] = Place(
            (_circle(x, y, ri),), (round(x, 1), round(y - ri - 5, 1)), (round(x, 1), round(y, 1)), center, ri
        )
        if len(prov.coasts) > 1:
            coasts.update(_coast_places(m, name, at, ri))
    return Geometry(m.name, WIDTH, HEIGHT, places, coasts, edges=tuple(edges), schematic=True)
