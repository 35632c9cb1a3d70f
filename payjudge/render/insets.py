"""Insets: the crowded part of a large map where units moved, enlarged under the board.

On youngstown, Europe takes a third of a 1000-pixel picture, and its provinces stand a
dozen pixels apart: neither names nor units can be read. When provinces near the action
stand closer than `LEGIBLE`, the action is gathered into clusters and each (at most
`MOST`) is drawn again below the board, enlarged until its provinces stand about
`SPACING` apart, with units and names at their usual size so they no longer overlap.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, replace

from .geometry import CoastPlace, Geometry, Place, Point
from .pixels import cut

Box = tuple[float, float, float, float]

LEGIBLE = 30.0  # provinces closer than this (median, to the nearest) crowd each other
CROWDED = 1.6  # a map whose provinces stand closer than LEGIBLE times this may need insets
SPACING = 48.0  # how far apart the inset puts them
MOST = 2
TILES = 4  # a cluster too wide to enlarge enough in one inset is cut into at most this many
MAX_SCALE = 3.0  # no more than the drawing's detail picture holds (2.5 times)
MAX_HEIGHT = 560.0  # of an inset, in picture units
PAD = 36.0  # around the action, in board units
JOIN = 90.0  # action points closer than this belong to one cluster


@dataclass(frozen=True)
class Inset:
    """A part of the board (`box`, in board units) drawn `scale` times larger."""

    box: Box
    scale: float

    @property
    def height(self) -> float:
        return round((self.box[3] - self.box[1]) * self.scale, 1)

    def point(self, p: Point) -> Point:
        return round((p[0] - self.box[0]) * self.scale, 1), round((p[1] - self.box[1]) * self.scale, 1)

    def geometry(self, g: Geometry) -> Geometry:
        """`g` as the inset shows it: every point moved and enlarged."""
        pt = self.point

        def place(p: Place) -> Place:
            return Place(
                tuple(tuple(pt(q) for q in ring) for ring in p.outline),
                pt(p.label),
                pt(p.unit),
                pt(p.center) if p.center else None,
                p.radius * self.scale if p.radius else None,
            )

        def coast(c: CoastPlace) -> CoastPlace:
            return CoastPlace(tuple(tuple(pt(q) for q in ring) for ring in c.lines), pt(c.unit), pt(c.label))

        x, y, w, h = g.background_frame or (0.0, 0.0, g.width, g.height)
        x0, y0 = pt((x, y))
        background = g.detail or g.background
        frame = (x0, y0, w * self.scale, h * self.scale) if g.background else None
        if background and frame:  # only the part in view, when the picture can be cut
            part = cut(background, frame, (0.0, 0.0, g.width, self.height))
            if part is not None:
                background, frame = part
        return replace(
            g,
            width=g.width,
            height=self.height,
            provinces={n: place(p) for n, p in g.provinces.items()},
            coasts={n: coast(c) for n, c in g.coasts.items()},
            impassable=tuple(tuple(pt(q) for q in r) for r in g.impassable),
            lakes=tuple(tuple(pt(q) for q in r) for r in g.lakes),
            background=background,
            background_frame=frame,
            detail=None,
        )


def clusters(points: Sequence[Point], join: float = JOIN) -> list[list[Point]]:
    """The points grouped so that each lies within `join` of another of its group
    (single linkage), the biggest group first."""
    groups: list[list[Point]] = []
    for p in points:
        near = [grp for grp in groups if any(math.dist(p, q) < join for q in grp)]
        merged = [p] + [q for grp in near for q in grp]
        groups = [grp for grp in groups if grp not in near] + [merged]
    return sorted(groups, key=lambda grp: (-len(grp), min(grp)))


def nearest(points: Sequence[Point]) -> float:
    """The median distance from each point to its nearest neighbour (inf for fewer than
    two): how crowded the provinces stand."""
    if len(points) < 2:
        return math.inf
    return statistics.median(min(math.dist(p, q) for q in points if q is not p) for p in points)


def crowded(points: Sequence[Point]) -> bool:
    """Whether provinces at these points crowd enough for a picture to need insets."""
    return nearest(points) < LEGIBLE * CROWDED


def spacing(g: Geometry, box: Box) -> float:
    """The median distance from each province in `box` to its nearest neighbour."""
    points = [p.unit for p in g.provinces.values()]
    inner = [p for p in points if box[0] <= p[0] <= box[2] and box[1] <= p[1] <= box[3]]
    if len(inner) < 2:
        return math.inf
    return statistics.median(min(math.dist(p, q) for q in points if q is not p) for p in inner)


def _frame(g: Geometry, group: Sequence[Point], scale: float) -> Box:
    """A box `g.width / scale` wide round the group, kept on the board."""
    xs, ys = [p[0] for p in group], [p[1] for p in group]
    w = g.width / scale
    h = min(max(max(ys) - min(ys) + 2 * PAD, w * 0.45), MAX_HEIGHT / scale, g.height)
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    x0 = min(max(cx - w / 2, 0.0), g.width - w)
    y0 = min(max(cy - h / 2, 0.0), g.height - h)
    return round(x0, 1), round(y0, 1), round(x0 + w, 1), round(y0 + h, 1)


def _shared(a: Box, b: Box) -> float:
    """The share of `a` that `b` covers too."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    area = (a[2] - a[0]) * (a[3] - a[1]) or 1.0
    return w * h / area if w > 0 and h > 0 else 0.0


def _tiles(g: Geometry, group: Sequence[Point], scale: float) -> list[Inset]:
    """The group's area (its points and `PAD` round them) cut into a grid of insets at
    `scale`, each as wide as the picture; only the cells with action, the fullest first."""
    x0, y0 = min(p[0] for p in group) - PAD, min(p[1] for p in group) - PAD
    x1, y1 = max(p[0] for p in group) + PAD, max(p[1] for p in group) + PAD
    w, most_h = g.width / scale, MAX_HEIGHT / scale
    cols, rows = math.ceil((x1 - x0) / w - 1e-9), math.ceil((y1 - y0) / most_h - 1e-9)
    step_x, h = (x1 - x0) / cols, (y1 - y0) / rows
    cells: dict[tuple[int, int], int] = {}
    for p in group:
        key = (min(int((p[0] - x0) // step_x), cols - 1), min(int((p[1] - y0) // h), rows - 1))
        cells[key] = cells.get(key, 0) + 1
    out = []
    for (c, r), _n in sorted(cells.items(), key=lambda kv: (-kv[1], kv[0])):
        cx, cy = x0 + (c + 0.5) * step_x, y0 + (r + 0.5) * h
        tall = min(h + PAD, most_h, g.height)  # rows overlap where the grid leaves room
        left = min(max(cx - w / 2, 0.0), g.width - w)
        top = min(max(cy - tall / 2, 0.0), g.height - tall)
        box = (round(left, 1), round(top, 1), round(left + w, 1), round(top + tall, 1))
        out.append(Inset(box, round(scale, 3)))
    return out


def _grid_scale(g: Geometry, group: Sequence[Point], wanted: float) -> float:
    """The scale at which the group, cut into at most `TILES` insets (two by two), shows
    its provinces as near `wanted` as that allows."""
    xs, ys = [p[0] for p in group], [p[1] for p in group]
    across = 2 * g.width / (max(xs) - min(xs) + 2 * PAD)
    down = 2 * MAX_HEIGHT / (max(ys) - min(ys) + 2 * PAD)
    return max(1.5, min(wanted, across, down))


def _insets(g: Geometry, group: list[Point], wanted: float) -> list[Inset]:
    """The insets of one cluster: the cluster whole when one inset enlarges it nearly as
    much as it wants, else a grid of them (imperial's action covers most of its board:
    one inset of all of it would hardly enlarge it)."""
    xs = [p[0] for p in group]
    fit = g.width / (max(xs) - min(xs) + 2 * PAD)
    if fit >= wanted * 0.8:
        scale = max(1.5, min(wanted, fit))
        return [Inset(_frame(g, group, scale), round(scale, 3))]
    return _tiles(g, group, _grid_scale(g, group, wanted))


def plan_insets(g: Geometry, action: Sequence[Point], spread: float) -> list[Inset]:
    """The insets a picture needs: none on a map whose provinces stand apart."""
    if spread >= LEGIBLE * CROWDED or not action:
        return []
    out: list[Inset] = []
    most = MOST
    for cluster in clusters(action):
        xs, ys = [p[0] for p in cluster], [p[1] for p in cluster]
        near = (min(xs) - PAD, min(ys) - PAD, max(xs) + PAD, max(ys) + PAD)
        local = spacing(g, near)
        if local >= LEGIBLE:
            continue
        planned = _insets(g, cluster, min(MAX_SCALE, SPACING / max(local, 1.0)))
        if len(planned) > 1:
            most = TILES
        for inset in planned:
            if any(_shared(inset.box, other.box) > 0.5 for other in out):
                continue  # mostly shown already
            out.append(inset)
            if len(out) >= most:
                return out
    return out
