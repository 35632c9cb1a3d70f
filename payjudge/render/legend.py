"""The legend under the board: the phase, a key of every mark the board drew (each beside
a small copy of the mark), and each power's centres and units.

In a BLIND picture the viewer cannot count the other powers: their counts read `?`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from . import svg
from .marks import Mark

ROW = 22.0
KEY_ROW = 20.0
PAD = 14.0
ICON = 26.0  # the width kept for a mark's icon
CHAR = 6.1  # about the width of a character of the key's 10.5-pixel text


@dataclass(frozen=True)
class PowerLine:
    """One power's line: its name, colour and counts (None: the viewer cannot count)."""

    name: str
    colour: str
    centres: int | None
    units: int | None

    @property
    def text(self) -> str:
        def count(n: int | None) -> str:
            return "?" if n is None else str(n)

        return f"{self.name.title()}  {count(self.centres)} centres, {count(self.units)} units"


def _icon(mark: Mark, x: float, y: float) -> str:
    """A small copy of `mark`, centred at (x, y)."""
    a, b = (x - 10.0, y), (x + 10.0, y)
    line = {"x1": a[0], "y1": a[1], "x2": b[0], "y2": b[1], "stroke_width": 2.2}
    if mark is Mark.ARMY:
        return svg.army((x, y + 1), "#ffffff", 6.0)
    if mark is Mark.FLEET:
        return svg.fleet((x, y + 1), "#ffffff", 6.0)
    if mark is Mark.CENTRE:
        return svg.element("circle", cx=x, cy=y, r=5.0, fill="#ffffff", stroke=svg.INK, stroke_width=1.3)
    if mark in (Mark.MOVE, Mark.CONVOYED, Mark.RETREAT_OPTION, Mark.BOUNCED):
        colour = svg.FAILED if mark is Mark.RETREAT_OPTION else svg.INK
        dash = {Mark.CONVOYED: "6 2", Mark.RETREAT_OPTION: "2 3"}.get(mark)
        out = svg.element("line", **line, stroke=colour, stroke_dasharray=dash)
        out += svg.element("polygon", points=svg.arrow_head(a, b, 7.0), fill=colour)
        if mark is Mark.BOUNCED:
            out += svg.element(
                "line", x1=x + 4, y1=y - 6, x2=x + 4, y2=y + 6, stroke=svg.FAILED, stroke_width=3.0
            )
        return out
    if mark in (Mark.SUPPORT, Mark.CONVOY):
        dash = "4 3" if mark is Mark.SUPPORT else "1.5 3"
        return svg.element("line", **line, stroke=svg.INK, stroke_dasharray=dash) + svg.element(
            "circle", cx=b[0], cy=b[1], r=3.0, fill=svg.INK
        )
    if mark is Mark.FAILED or mark is Mark.REMOVED:
        return svg.cross((x, y), 5.0)
    if mark is Mark.COAST:
        return svg.element("line", **line, stroke="#2d6fb0", stroke_dasharray="5 3")
    if mark in (Mark.INSET, Mark.INSET_APART):
        return svg.element(
            "rect", x=x - 10, y=y - 6, width=20.0, height=12.0, fill="none", stroke=svg.INK, stroke_width=1.6
        )
    colour, dashed = {
        Mark.HOLD: (svg.INK, False),
        Mark.SUPPORT_HOLD: (svg.INK, True),
        Mark.DISLODGED: (svg.FAILED, True),
        Mark.BUILT: ("#1a8f2e", False),
        Mark.VOID_BUILD: (svg.FAILED, True),
    }[mark]
    ring = svg.element(
        "circle",
        cx=x,
        cy=y,
        r=7.0,
        fill="none",
        stroke=colour,
        stroke_width=2.0,
        stroke_dasharray="3 2" if dashed else None,
    )
    return ring + (svg.cross((x, y), 3.5) if mark is Mark.VOID_BUILD else "")


def _key_rows(marks: Sequence[Mark], width: float) -> list[list[tuple[Mark, float]]]:
    """The marks flowed into rows that fit `width`, each with its x."""
    rows: list[list[tuple[Mark, float]]] = [[]]
    x = PAD
    for mark in marks:
        w = ICON + len(mark.value) * CHAR + 16.0
        if x + w > width - PAD and rows[-1]:
            rows.append([])
            x = PAD
        rows[-1].append((mark, x))
        x += w
    return rows


def legend_height(marks: Sequence[Mark], powers: int, width: float) -> float:
    keys = len(_key_rows(marks, width)) if marks else 0
    return 34.0 + KEY_ROW * keys + ROW * -(-powers // 4) + 16.0


def legend_svg(
    title: str, marks: Sequence[Mark], lines: Sequence[PowerLine], width: float, top: float
) -> str:
    """The legend, `width` wide, its top at `top` (its height is `legend_height`)."""
    marks = [m for m in Mark if m in set(marks)]  # always in the same order
    height = legend_height(marks, len(lines), width)
    out = [f'<g class="legend" transform="translate(0,{svg.num(top)})">']
    out.append(svg.element("rect", width=width, height=height, fill="#fbf8f0", stroke=svg.BORDER))
    out.append(
        svg.element(
            "text", title, class_="phase", x=PAD, y=22.0, font_size=16.0, font_weight="bold", fill=svg.INK
        )
    )
    y = 34.0
    for row in _key_rows(marks, width) if marks else []:
        for mark, x in row:
            out.append(f"<g {svg.attrs(class_='key', data_mark=mark.name.lower())}>")
            out.append(_icon(mark, x + ICON / 2 - 2, y + KEY_ROW / 2))
            out.append(
                svg.element(
                    "text", mark.value, x=x + ICON + 2, y=y + KEY_ROW / 2 + 4, font_size=10.5, fill="#444444"
                )
            )
            out.append("</g>")
        y += KEY_ROW
    col = (width - 2 * PAD) / 4
    for i, line in enumerate(lines):
        x, yy = PAD + col * (i % 4), y + 6.0 + ROW * (i // 4)
        known = "?" if line.centres is None else str(line.centres)
        out.append(f"<g {svg.attrs(class_='power', data_power=line.name, data_centers=known)}>")
        out.append(
            svg.element(
                "rect", x=x, y=yy, width=16.0, height=12.0, fill=line.colour, stroke=svg.INK, stroke_width=1.0
            )
        )
        out.append(svg.element("text", line.text, x=x + 22.0, y=yy + 10.5, font_size=12.0, fill=svg.INK))
        out.append("</g>")
    out.append("</g>")
    return "\n".join(out)


def power_lines(
    powers: Sequence[str],
    colours: Mapping[str, str],
    centres: Mapping[str, int],
    units: Mapping[str, int],
    viewer: str | None,
) -> list[PowerLine]:
    """Each power's line; with a `viewer` (BLIND), only the viewer's own counts are known."""
    return [
        PowerLine(p, colours[p], centres.get(p, 0), units.get(p, 0))
        if viewer is None or p == viewer
        else PowerLine(p, colours[p], None, None)
        for p in powers
    ]
