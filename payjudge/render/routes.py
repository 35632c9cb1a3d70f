"""Where an order's line runs: around impassable land, and through a convoy's fleets.

A straight line from unit to destination is drawn when it crosses nothing impassable;
otherwise the shortest way round over the corners of the obstacles' hulls, pushed a
little outwards (a visibility graph searched with Dijkstra). Obstacles are few and small
(Switzerland, a desert), so the graph has a few dozen corners at most. Pure geometry.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Callable, Sequence

from .geometry import Point, Ring

MARGIN = 7.0  # how far a detour keeps from the obstacle's edge, in picture units


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Whether segments ab and cd properly cross (touching at an end does not count)."""
    d1, d2 = _cross(c, d, a), _cross(c, d, b)
    d3, d4 = _cross(a, b, c), _cross(a, b, d)
    return ((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0)) and d1 * d2 != 0 and d3 * d4 != 0


def inside(p: Point, ring: Ring) -> bool:
    """Whether `p` lies inside the polygon `ring` (even-odd)."""
    x, y = p
    hit = False
    for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def blocked(a: Point, b: Point, ring: Ring) -> bool:
    """Whether the segment ab passes through the polygon `ring`."""
    if inside(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), ring):
        return True
    return any(_segments_cross(a, b, p, q) for p, q in zip(ring, ring[1:] + ring[:1]))


def hull(points: Sequence[Point]) -> Ring:
    """The convex hull (Andrew's monotone chain), counter-clockwise."""
    pts = sorted(set(points))
    if len(pts) < 3:
        return tuple(pts)
    lower: list[Point] = []
    upper: list[Point] = []
    for p in pts:
        while len(lower) >= 2 and _cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and _cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return tuple(lower[:-1] + upper[:-1])


def grown(ring: Ring, margin: float = MARGIN) -> Ring:
    """The hull of `ring` with every corner pushed `margin` away from its centre."""
    h = hull(ring)
    cx = sum(p[0] for p in h) / len(h)
    cy = sum(p[1] for p in h) / len(h)
    out = []
    for x, y in h:
        d = math.hypot(x - cx, y - cy) or 1.0
        out.append((x + (x - cx) / d * margin, y + (y - cy) / d * margin))
    return tuple(out)


def _shortest(nodes: Sequence[Point], clear: Callable[[Point, Point], bool]) -> tuple[Point, ...] | None:
    """The shortest way from `nodes[0]` to `nodes[1]` over the others, stepping only
    where `clear` allows (Dijkstra); None when there is none."""
    best = {0: 0.0}
    back: dict[int, int] = {}
    queue = [(0.0, 0)]
    while queue:
        cost, i = heapq.heappop(queue)
        if i == 1:
            break
        if cost > best.get(i, math.inf):
            continue
        for j in range(1, len(nodes)):
            step = cost + math.dist(nodes[i], nodes[j])
            if j != i and step < best.get(j, math.inf) and clear(nodes[i], nodes[j]):
                best[j], back[j] = step, i
                heapq.heappush(queue, (step, j))
    if 1 not in back:
        return None
    path, i = [nodes[1]], 1
    while i != 0:
        i = back[i]
        path.append(nodes[i])
    return tuple(reversed(path))


def route(a: Point, b: Point, obstacles: Sequence[Ring]) -> tuple[Point, ...]:
    """The way from `a` to `b` that passes through none of `obstacles` (an obstacle
    holding `a` or `b` itself is ignored): `(a, b)` when the straight line is clear."""
    walls = [r for r in obstacles if len(r) >= 3 and not inside(a, r) and not inside(b, r)]
    hit = [r for r in walls if blocked(a, b, r)]
    if not hit:
        return (a, b)
    corners = [c for r in hit for c in grown(r) if not any(inside(c, w) for w in walls)]

    def clear(p: Point, q: Point) -> bool:
        return not any(blocked(p, q, r) for r in walls)

    # no way round found: the straight line is better than nothing
    return _shortest([a, b, *corners], clear) or (a, b)


def chain(start: Point, stops: Sequence[Point], end: Point) -> tuple[Point, ...]:
    """A convoy's course: from `start` through every stop, each time to the nearest one
    not yet visited, then to `end`."""
    left = list(stops)
    path = [start]
    while left:
        nearest = min(left, key=lambda p: math.dist(path[-1], p))
        left.remove(nearest)
        path.append(nearest)
    path.append(end)
    return tuple(path)


def trim(path: Sequence[Point], start: float, end: float) -> tuple[Point, ...]:
    """`path` with `start` cut off its first leg and `end` off its last (at most 40 % of
    each leg), so a line stops short of the unit tokens at its ends."""
    pts = list(path)
    a, b = pts[0], pts[1]
    d = math.dist(a, b) or 1.0
    s = min(start, d * 0.4)
    pts[0] = (a[0] + (b[0] - a[0]) / d * s, a[1] + (b[1] - a[1]) / d * s)
    a, b = pts[-2], pts[-1]
    d = math.dist(a, b) or 1.0
    e = min(end, d * 0.4)
    pts[-1] = (b[0] - (b[0] - a[0]) / d * e, b[1] - (b[1] - a[1]) / d * e)
    return tuple(pts)


def point_along(path: Sequence[Point], t: float) -> Point:
    """The point at fraction `t` of the path's length."""
    legs = [math.dist(p, q) for p, q in itertools.pairwise(path)]
    goal = sum(legs) * t
    for (p, q), leg in zip(itertools.pairwise(path), legs):
        if goal <= leg and leg > 0:
            k = goal / leg
            return p[0] + (q[0] - p[0]) * k, p[1] + (q[1] - p[1]) * k
        goal -= leg
    return path[-1]
