"""Where each province's name goes: a placement pass over candidate spots per province.

Every name has a few candidate spots: its own label point first, then spots around its
unit and label points at growing distances. Each candidate is scored by how much it
would cover what is already on the picture (unit tokens, centre marks, the lines of the
orders, names placed before it) and whether it leaves its own province; the cheapest
wins and becomes an obstacle for the names placed after it. Greedy, but each name is
tried in turn from the most crowded province out, which settles the hard ones first.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .geometry import Point

Box = tuple[float, float, float, float]  # x0, y0, x1, y1
Segment = tuple[Point, Point]

CHAR = 0.66  # the width of a capital in DejaVu Sans Bold, as a share of the font size
RINGS = (0.0, 14.0, 20.0, 27.0, 35.0)  # distances of the candidate spots, picture units
DIRECTIONS = 8
OUTSIDE = 40.0  # the cost of a spot outside its own province (a unit of covered area is 1)
LINE = 60.0  # the cost of a line of an order through a name


@dataclass(frozen=True)
class Wanted:
    """One name to place: its text, font size, and the points its candidates start from."""

    name: str
    text: str
    size: float
    anchors: tuple[Point, ...]
    fits: Callable[[Point], bool] | None = None  # whether a spot lies in its province


def text_box(at: Point, text: str, size: float) -> Box:
    w = len(text) * size * CHAR / 2 + 1.5
    h = size * 0.55 + 1.0
    return at[0] - w, at[1] - h, at[0] + w, at[1] + h


def _overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _clip(p: Point, q: Point, box: Box) -> bool:
    """Whether the segment pq passes through `box` (Liang-Barsky)."""
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for edge, delta in (
        (p[0] - box[0], -dx),
        (box[2] - p[0], dx),
        (p[1] - box[1], -dy),
        (box[3] - p[1], dy),
    ):
        if delta == 0:
            if edge < 0:
                return False
            continue
        t = edge / delta
        if delta < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True


def candidates(anchors: Sequence[Point]) -> list[Point]:
    """The label point itself, then spots around each anchor, nearest first."""
    out = [anchors[0]]
    for r in RINGS[1:]:
        for anchor in anchors:
            for k in range(DIRECTIONS):
                # below and above first: a name reads best under or over its unit
                angle = math.pi / 2 + math.pi * (k // 2) / (DIRECTIONS / 2) * (1 if k % 2 else -1)
                out.append((anchor[0] + math.cos(angle) * r * 1.3, anchor[1] + math.sin(angle) * r))
    return out


class Placer:
    """The picture's obstacles, and the names placed so far."""

    def __init__(self, boxes: Sequence[Box], lines: Sequence[Segment], bounds: Box):
        self.boxes = list(boxes)
        self.lines = list(lines)
        self.bounds = bounds

    def cost(self, box: Box, fits: bool) -> float:
        x0, y0, x1, y1 = self.bounds
        if box[0] < x0 or box[1] < y0 or box[2] > x1 or box[3] > y1:
            return math.inf
        covered = sum(_overlap(box, b) for b in self.boxes)
        crossed = sum(LINE for p, q in self.lines if _clip(p, q, box))
        return covered + crossed + (0.0 if fits else OUTSIDE)

    def near(self, anchors: Sequence[Point], reach: float) -> Placer:
        """The same picture with only the obstacles within `reach` of the anchors (a
        name's candidates never go further): far fewer to score against."""
        x0 = min(p[0] for p in anchors) - reach
        x1 = max(p[0] for p in anchors) + reach
        y0 = min(p[1] for p in anchors) - reach
        y1 = max(p[1] for p in anchors) + reach
        area = (x0, y0, x1, y1)
        boxes = [b for b in self.boxes if _overlap(b, area) > 0]
        lines = [s for s in self.lines if _clip(s[0], s[1], area)]
        return Placer(boxes, lines, self.bounds)

    def place(self, wanted: Wanted) -> Point:
        best, best_cost = wanted.anchors[0], math.inf
        local = self.near(wanted.anchors, RINGS[-1] * 1.3 + len(wanted.text) * wanted.size)
        for spot in candidates(wanted.anchors):
            box = text_box(spot, wanted.text, wanted.size)
            cost = local.cost(box, wanted.fits is None or wanted.fits(spot))
            if cost < best_cost:
                best, best_cost = spot, cost
            if cost == 0:
                break
        self.boxes.append(text_box(best, wanted.text, wanted.size))
        return best


def place_labels(
    wanted: Sequence[Wanted], boxes: Sequence[Box], lines: Sequence[Segment], bounds: Box
) -> dict[str, Point]:
    """Each name's spot, chosen so that it covers as little as can be (see the module)."""
    placer = Placer(boxes, lines, bounds)

    def crowding(w: Wanted) -> float:
        return placer.near(w.anchors[:1], 40.0).cost(text_box(w.anchors[0], w.text, w.size), True)

    order = sorted(wanted, key=lambda w: (-crowding(w), w.name))
    return {w.name: placer.place(w) for w in order}
