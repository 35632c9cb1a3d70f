"""The board as SVG: position + orders + outcomes + geometry → text. Pure: no I/O.

Layers, bottom to top: sea, land and provinces (supply-centre provinces tinted by their
owner), coasts, supply centres, units, the orders of the phase (moves as arrows routed
around impassable land, convoyed moves through their fleets, supports dashed, convoys
dotted, holds as rings; a failed order crossed out, a bounce barred), dislodged units with
their retreat options, the province names (placed last, where nothing covers them:
`labels.py`), and the legend (`legend.py`). A large map whose provinces crowd gets an
enlarged inset of the area where units moved (`insets.py`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..rules.names import PowerName
from ..rules.outcome import OrderOutcome
from ..rules.position import Dislodged, Position
from ..rules.turn import PhaseReport
from . import svg
from .geometry import Geometry
from .insets import Inset, plan_insets
from .layers import Layers
from .legend import legend_height, legend_svg, power_lines
from .marks import Mark
from .picture import Picture

INSET_GAP = 8.0


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


def picture_svg(geometry: Geometry, picture: Picture) -> str:
    """The whole picture: the board, any insets under it, and the legend."""
    g = geometry
    main = Layers(g, picture)
    main.draw_board()
    insets = plan_insets(g, main.action, main.crowded())
    main.labels([inset.box for inset in insets])
    body = main.text()
    marks = set(main.marks) | ({Mark.INSET} if insets else set())
    parts = [f'<g class="board">{body}</g>']
    top = g.height
    for inset in insets:
        parts.append(_inset(g, picture, inset, top + INSET_GAP, marks))
        parts.append(_frame(inset))
        top += INSET_GAP + inset.height
    pos = picture.position
    lines = power_lines(
        pos.map.power_names,
        main.colour,
        {p: len(cs) for p, cs in pos.centers.items()},
        {p: len(us) for p, us in pos.units.items()},
        picture.viewer,
    )
    ordered = [m for m in Mark if m in marks]
    legend_h = legend_height(ordered, len(lines), g.width)
    height = top + legend_h
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" {svg.attrs(width=g.width, height=height)} '
        f'viewBox="0 0 {svg.num(g.width)} {svg.num(height)}" '
        f'font-family="DejaVu Sans, Verdana, Arial, sans-serif">'
    )
    title = picture.title or pos.phase.title
    legend = legend_svg(title, ordered, lines, g.width, top)
    return "\n".join([head, *parts, legend, "</svg>"]) + "\n"


def _inset(g: Geometry, picture: Picture, inset: Inset, top: float, marks: set[Mark]) -> str:
    """An enlarged part of the board, drawn again at its own scale (so units and names keep
    their size and stand apart), clipped to its frame."""
    layers = Layers(inset.geometry(g), picture, every_label=not g.background)
    body = layers.draw()
    marks.update(layers.marks)
    frame = svg.attrs(class_="inset", x=0.0, y=top, width=g.width, height=inset.height)
    view = f'viewBox="0 0 {svg.num(g.width)} {svg.num(inset.height)}"'
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
    return f'<svg {frame} {view} overflow="hidden">{body}{rim}</svg>'


def _frame(inset: Inset) -> str:
    """On the board, a frame round the area the inset enlarges."""
    x0, y0, x1, y1 = inset.box
    return svg.element(
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
