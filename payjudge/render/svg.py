"""Small SVG pieces: escaping, numbers, colours, arrows and unit shapes (text in, text out)."""

from __future__ import annotations

import math
from xml.sax.saxutils import escape, quoteattr

from .geometry import Point, Ring

INK = "#222222"
FAILED = "#d11f1f"
SEA = "#b7d3ec"
SEA_EDGE = "#8fb3d6"
LAND = "#f1e9d2"
IMPASSABLE = "#cfcabd"
BORDER = "#8c7f66"

STANDARD_COLOURS = {
    "AUSTRIA": "#d7263d",
    "ENGLAND": "#2b3f9e",
    "FRANCE": "#3aa0e6",
    "GERMANY": "#5b5b5b",
    "ITALY": "#2e9d3a",
    "RUSSIA": "#8e44ad",
    "TURKEY": "#e8b10f",
}
PALETTE = (
    "#d7263d",
    "#2b3f9e",
    "#3aa0e6",
    "#5b5b5b",
    "#2e9d3a",
    "#8e44ad",
    "#e8b10f",
    "#e0771b",
    "#1fa39a",
    "#a0522d",
    "#d63fa0",
    "#7a8b1c",
    "#4b2e83",
    "#0f6b6b",
)


def colours(powers: tuple[str, ...]) -> dict[str, str]:
    """Each power's colour: the usual ones on the standard board, a palette otherwise."""
    if all(p in STANDARD_COLOURS for p in powers):
        return {p: STANDARD_COLOURS[p] for p in powers}
    return {p: PALETTE[i % len(PALETTE)] for i, p in enumerate(powers)}


def tint(colour: str, share: float = 0.3) -> str:
    """`colour` mixed with white: `share` of the colour."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))

    def mix(c: int) -> int:
        return round(255 - (255 - c) * share)

    return f"#{mix(r):02x}{mix(g):02x}{mix(b):02x}"


def num(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def fine(v: float) -> str:
    """A coordinate to a thousandth: where a picture is laid, a tenth off would move its
    enlarged pixels (an inset's part of the detail picture, render/pixels.py)."""
    return f"{v:.3f}".rstrip("0").rstrip(".")


def attrs(**kw: object) -> str:
    out = []
    for key, value in kw.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        text = num(value) if isinstance(value, float) else str(value)
        out.append(f"{name}={quoteattr(text)}")
    return " ".join(out)


def element(tag: str, text: str | None = None, /, **kw: object) -> str:
    if text is None:
        return f"<{tag} {attrs(**kw)}/>"
    return f"<{tag} {attrs(**kw)}>{escape(text)}</{tag}>"


def path_of(rings: tuple[Ring, ...], close: bool = True) -> str:
    parts = []
    for ring in rings:
        pts = " L".join(f"{num(x)},{num(y)}" for x, y in ring)
        parts.append(f"M{pts}{'Z' if close else ''}")
    return " ".join(parts)


def shorten(a: Point, b: Point, start: float, end: float) -> tuple[Point, Point]:
    """The segment a→b with `start` cut off its beginning and `end` off its end."""
    d = math.dist(a, b) or 1.0
    ux, uy = (b[0] - a[0]) / d, (b[1] - a[1]) / d
    start, end = min(start, d * 0.4), min(end, d * 0.4)
    return (a[0] + ux * start, a[1] + uy * start), (b[0] - ux * end, b[1] - uy * end)


def along(a: Point, b: Point, t: float) -> Point:
    return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t


def arrow_head(a: Point, b: Point, size: float = 9.0) -> str:
    """The points of a triangle pointing at `b`, coming from `a`."""
    d = math.dist(a, b) or 1.0
    ux, uy = (b[0] - a[0]) / d, (b[1] - a[1]) / d
    px, py = -uy, ux
    base = (b[0] - ux * size, b[1] - uy * size)
    pts = [
        b,
        (base[0] + px * size * 0.5, base[1] + py * size * 0.5),
        (base[0] - px * size * 0.5, base[1] - py * size * 0.5),
    ]
    return " ".join(f"{num(x)},{num(y)}" for x, y in pts)


def cross(at: Point, size: float = 6.0, **kw: object) -> str:
    """A red ✕: an order that failed."""
    x, y = at
    d = (
        f"M{num(x - size)},{num(y - size)} L{num(x + size)},{num(y + size)} "
        f"M{num(x - size)},{num(y + size)} L{num(x + size)},{num(y - size)}"
    )
    return element("path", d=d, stroke=FAILED, stroke_width=3.0, stroke_linecap="round", fill="none", **kw)


def army(at: Point, fill: str, size: float = 9.0) -> str:
    """An army: a round token with a flat base, like a helmet seen from the side."""
    x, y = at
    s = size
    d = (
        f"M{num(x - s)},{num(y + s * 0.55)} L{num(x - s)},{num(y)} "
        f"A{num(s)},{num(s)} 0 0 1 {num(x + s)},{num(y)} L{num(x + s)},{num(y + s * 0.55)} Z"
    )
    return element("path", d=d, fill=fill, stroke=INK, stroke_width=1.5)


def fleet(at: Point, fill: str, size: float = 9.0) -> str:
    """A fleet: a hull with a bow and a little superstructure."""
    x, y = at
    s = size
    d = (
        f"M{num(x - s * 1.25)},{num(y)} L{num(x + s * 1.25)},{num(y)} "
        f"L{num(x + s * 0.8)},{num(y + s * 0.6)} L{num(x - s * 0.9)},{num(y + s * 0.6)} Z "
        f"M{num(x - s * 0.45)},{num(y)} L{num(x - s * 0.45)},{num(y - s * 0.6)} "
        f"L{num(x + s * 0.35)},{num(y - s * 0.6)} L{num(x + s * 0.35)},{num(y)} Z"
    )
    return element("path", d=d, fill=fill, stroke=INK, stroke_width=1.5, stroke_linejoin="round")
