"""The board as SVG: position + orders + outcomes + geometry → text. Pure: no I/O.

Layers, bottom to top: sea, land and provinces (supply-centre provinces tinted by their
owner), coasts, supply centres, units, the orders of the phase (moves as arrows routed
around impassable land, convoyed moves through their fleets, supports dashed, convoys
dotted, holds as rings; a failed order crossed out, a bounce barred), dislodged units with
their retreat options, the province names (placed last, where nothing covers them:
`labels.py`), and the legend (`legend.py`). A large map whose provinces crowd gets an
enlarged inset of the area where units moved (`insets.py`): under the board in one
picture (`picture_svg`), or each on a sheet of its own (`picture_sheets`), which is how a
mail carries them so that none is shrunk below what reads.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..rules.names import PowerName
from ..rules.outcome import OrderOutcome
from ..rules.position import Dislodged, Position
from ..rules.turn import PhaseReport
from . import svg
from .geometry import Geometry
from .insets import Inset, plan_insets
from .layers import Layers
from .legend import PowerLine, legend_height, legend_svg, power_lines
from .marks import Mark
from .picture import Picture

INSET_GAP = 8.0
CAPTION = 30.0  # the strip above an inset mailed on its own, for its caption


def report_svg(geometry: Geometry, report: PhaseReport) -> str:
    """The picture of a played phase: its board, orders and results."""
    return board_svg(geometry, report.before, report.outcomes, retreats=report.dislodged)


def board_svg(
    geometry: Geometry,
    position: Position,
    outcomes: Iterable[OrderOutcome] = (),
    *,
    retreats: Mapping[PowerName, tuple[Dislodged, ...]] | None = None,
    title: str | None = None,
    viewer: PowerName | None = None,
) -> str:
    picture = Picture(position, tuple(outcomes), retreats or {}, title, viewer)
    return picture_svg(geometry, picture)


@dataclass(frozen=True)
class _Parts:
    """A picture drawn once, before it is laid out as one sheet or as several."""

    board: str  # the board's SVG body, with the frames of its insets
    insets: tuple[tuple[Inset, str], ...]  # each inset and its body
    marks: tuple[Mark, ...]  # every mark drawn, in the legend's order
    lines: tuple[PowerLine, ...]
    title: str


def _draw(g: Geometry, picture: Picture, numbered: bool) -> _Parts:
    """The board, its insets and what the legend lists; `numbered` frames for sheets."""
    main = Layers(g, picture)
    main.draw_board()
    insets = plan_insets(g, main.action, main.crowded())
    main.leave_edges([inset.box for inset in insets])
    main.labels([inset.box for inset in insets])
    marks = set(main.marks) | ({Mark.INSET_APART if numbered else Mark.INSET} if insets else set())
    drawn = []
    frames = []
    for n, inset in enumerate(insets, 1):
        drawn.append((inset, _inset(g, picture, inset, marks)))
        frames.append(_frame(inset, n if numbered else None))
    pos = picture.position
    lines = power_lines(
        pos.map.power_names,
        main.colour,
        {p: len(cs) for p, cs in pos.centers.items()},
        {p: len(us) for p, us in pos.units.items()},
        picture.viewer,
    )
    board = "\n".join([f'<g class="board">{main.text()}</g>', *frames])
    ordered = tuple(m for m in Mark if m in marks)
    return _Parts(board, tuple(drawn), ordered, tuple(lines), picture.title or pos.phase.title)


def _head(width: float, height: float) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" {svg.attrs(width=width, height=height)} '
        f'viewBox="0 0 {svg.num(width)} {svg.num(height)}" '
        f'font-family="DejaVu Sans, Verdana, Arial, sans-serif">'
    )


def picture_svg(geometry: Geometry, picture: Picture) -> str:
    """The whole picture: the board, any insets under it, and the legend."""
    return _whole(geometry, _draw(geometry, picture, numbered=False))


def _whole(g: Geometry, parts: _Parts) -> str:
    body = [parts.board]
    top = g.height
    for inset, text in parts.insets:
        body.append(_placed(g, inset, text, top + INSET_GAP))
        top += INSET_GAP + inset.height
    height = top + legend_height(parts.marks, len(parts.lines), g.width)
    legend = legend_svg(parts.title, parts.marks, parts.lines, g.width, top)
    return "\n".join([_head(g.width, height), *body, legend, "</svg>"]) + "\n"


def picture_sheets(geometry: Geometry, picture: Picture) -> tuple[str, ...]:
    """The picture as separate sheets, each mailed as its own PNG so that none is shrunk
    below what reads: the board with its legend (the enlarged areas framed and numbered),
    then each inset under a caption naming its number. Without insets: one sheet, the
    same as `picture_svg`."""
    g = geometry
    parts = _draw(g, picture, numbered=True)
    if not parts.insets:
        return (_whole(g, parts),)  # no frames, so no numbers: the whole picture
    height = g.height + legend_height(parts.marks, len(parts.lines), g.width)
    legend = legend_svg(parts.title, parts.marks, parts.lines, g.width, g.height)
    sheets = ["\n".join([_head(g.width, height), parts.board, legend, "</svg>"]) + "\n"]
    for n, (inset, text) in enumerate(parts.insets, 1):
        caption = svg.element(
            "text",
            f"{parts.title}: area {n} enlarged",
            class_="caption",
            x=12.0,
            y=CAPTION - 9.0,
            font_size=16.0,
            font_weight="bold",
            fill=svg.INK,
        )
        strip = svg.element("rect", width=g.width, height=CAPTION, fill="#fbf8f0")
        placed = _placed(g, inset, text, CAPTION)
        sheets.append(
            "\n".join([_head(g.width, CAPTION + inset.height), strip, caption, placed, "</svg>"]) + "\n"
        )
    return tuple(sheets)


def _placed(g: Geometry, inset: Inset, body: str, top: float) -> str:
    """An inset's body in its frame, its top at `top`."""
    frame = svg.attrs(class_="inset", x=0.0, y=top, width=g.width, height=inset.height)
    view = f'viewBox="0 0 {svg.num(g.width)} {svg.num(inset.height)}"'
    return f'<svg {frame} {view} overflow="hidden">{body}</svg>'


def _inset(g: Geometry, picture: Picture, inset: Inset, marks: set[Mark]) -> str:
    """An enlarged part of the board, drawn again at its own scale (so units and names keep
    their size and stand apart), with its rim."""
    layers = Layers(inset.geometry(g), picture, every_label=not g.background)
    body = layers.draw()
    marks.update(layers.marks)
    rim = svg.element(
        "rect",
        x=0.0,
        y=0.0,
        width=g.width,
        height=inset.height,
        fill="none",
        stroke=svg.INK,
        stroke_width=3.0,
    )
    return body + rim


def _frame(inset: Inset, number: int | None) -> str:
    """On the board, a frame round the area the inset enlarges (numbered when the insets
    are mailed apart, so that each sheet's caption points back to its frame)."""
    x0, y0, x1, y1 = inset.box
    tag = ""
    if number is not None:
        tag = svg.element(
            "text",
            str(number),
            class_="inset-number",
            x=x0 + 4.0,
            y=y0 + 17.0,
            font_size=16.0,
            font_weight="bold",
            fill=svg.INK,
            stroke="#ffffff",
            stroke_width=3.0,
            paint_order="stroke",
        )
    return tag + svg.element(
        "rect",
        class_="inset-frame",
        x=x0,
        y=y0,
        width=x1 - x0,
        height=y1 - y0,
        fill="none",
        stroke=svg.INK,
        stroke_width=1.6,
        stroke_dasharray="6 3",
    )
