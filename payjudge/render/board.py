"""The board as SVG: position + orders + outcomes + geometry → text. Pure: no I/O.

Layers, bottom to top: sea, land and provinces (supply-centre provinces tinted by their
owner), coasts, labels, supply centres, units, the orders of the phase (moves as arrows,
supports dashed, convoys dotted, holds as rings; a failed order crossed out, a bounce
barred), dislodged units with their retreat options, and the legend (phase, centres).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from ..rules.geography import Location, Terrain, UnitType
from ..rules.names import PowerName
from ..rules.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    Waive,
)
from ..rules.outcome import OrderOutcome, Result
from ..rules.position import Dislodged, Position
from ..rules.turn import PhaseReport
from . import svg
from .geometry import Geometry, Point

UNIT = 9.0  # half the width of a unit token
LEGEND_ROW = 22.0


@dataclass(frozen=True)
class Picture:
    """What one picture shows (built by `board_svg`'s callers or from a `PhaseReport`)."""

    position: Position  # the board when the orders were given
    outcomes: tuple[OrderOutcome, ...] = ()
    retreats: Mapping[PowerName, tuple[Dislodged, ...]] = field(default_factory=dict)
    title: str | None = None


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
) -> str:
    return _Drawing(geometry, Picture(position, tuple(outcomes), retreats or {}, title)).svg()


class _Drawing:
    def __init__(self, geometry: Geometry, picture: Picture):
        self.g = geometry
        self.pic = picture
        self.pos = picture.position
        self.map = picture.position.map
        self.colour = svg.colours(self.map.power_names)
        self.out: list[str] = []

    def add(self, text: str) -> None:
        self.out.append(text)

    def svg(self) -> str:
        g = self.g
        powers = self.map.power_names
        legend_h = 34.0 + LEGEND_ROW * math.ceil(len(powers) / 4) + 22.0
        height = g.height + legend_h
        self.add(
            f'<svg xmlns="http://www.w3.org/2000/svg" {svg.attrs(width=g.width, height=height)} '
            f'viewBox="0 0 {svg.num(g.width)} {svg.num(height)}" '
            f'font-family="DejaVu Sans, Verdana, Arial, sans-serif">'
        )
        self.add(
            svg.element(
                "rect",
                class_="background",
                width=g.width,
                height=g.height,
                fill="#eceef0" if g.schematic else svg.SEA,
            )
        )
        self.provinces()
        self.centers()
        self.units()
        self.orders()
        self.legend(g.height, legend_h)
        self.add("</svg>")
        return "\n".join(self.out) + "\n"

    # -- the map -----------------------------------------------------------------------
    def provinces(self) -> None:
        g, m = self.g, self.map
        self.add('<g class="map">')
        if g.background:  # the drawing shows land, sea, coasts and names itself
            self.add(
                svg.element(
                    "image",
                    class_="drawing",
                    href=g.background,
                    x=0.0,
                    y=0.0,
                    width=g.width,
                    height=g.height,
                    preserveAspectRatio="none",
                )
            )
            self.add("</g>")
            return
        for ring in g.impassable:
            self.add(
                svg.element(
                    "path",
                    class_="impassable",
                    d=svg.path_of((ring,)),
                    fill=svg.IMPASSABLE,
                    stroke=svg.BORDER,
                    stroke_width=0.6,
                )
            )
        for ring in g.lakes:
            self.add(
                svg.element(
                    "path",
                    class_="lake",
                    d=svg.path_of((ring,)),
                    fill=svg.SEA,
                    stroke=svg.BORDER,
                    stroke_width=0.6,
                )
            )
        for a, b in g.edges:
            pa, pb = g.provinces[a].unit, g.provinces[b].unit
            self.add(
                svg.element(
                    "line",
                    class_="adjacency",
                    x1=pa[0],
                    y1=pa[1],
                    x2=pb[0],
                    y2=pb[1],
                    stroke="#9a9a9a",
                    stroke_width=1.0,
                    stroke_opacity=0.5,
                )
            )
        for name in sorted(m.provinces):
            prov, place = m.provinces[name], g.provinces[name]
            owner = self.pos.center_owner(name) if prov.supply_center else None
            if prov.terrain is Terrain.WATER:
                kind, fill, stroke = "sea", svg.SEA, svg.SEA_EDGE
            elif prov.terrain is Terrain.SHUT:
                kind, fill, stroke = "impassable", svg.IMPASSABLE, svg.BORDER
            else:
                kind, fill, stroke = (
                    "coast" if prov.terrain is Terrain.COAST else "land",
                    svg.tint(self.colour[owner]) if owner else svg.LAND,
                    svg.BORDER,
                )
            self.add(
                svg.element(
                    "path",
                    class_=f"province {kind}",
                    id=f"p-{name}",
                    data_owner=owner,
                    d=svg.path_of(place.outline),
                    fill=fill,
                    fill_rule="evenodd",
                    stroke=stroke,
                    stroke_width=1.0 if not g.schematic else 1.5,
                )
            )
        for name, coast in sorted(g.coasts.items()):
            for line in coast.lines:
                self.add(
                    svg.element(
                        "path",
                        class_="coast-line",
                        data_coast=name,
                        d=svg.path_of((line,), close=False),
                        fill="none",
                        stroke="#2d6fb0",
                        stroke_width=2.5,
                        stroke_dasharray="5 3",
                    )
                )
            self.add(
                svg.element(
                    "text",
                    name.split("/")[1].lower(),
                    class_="coast-label",
                    x=coast.label[0],
                    y=coast.label[1],
                    font_size=8.5,
                    fill="#2d6fb0",
                    text_anchor="middle",
                    dominant_baseline="middle",
                    font_style="italic",
                )
            )
        for name in sorted(m.provinces):
            x, y = g.provinces[name].label
            sea = m.provinces[name].terrain is Terrain.WATER
            self.add(
                svg.element(
                    "text",
                    name,
                    class_="label",
                    x=x,
                    y=y,
                    font_size=10.0 if not sea else 10.5,
                    font_weight="bold" if not sea else None,
                    font_style="italic" if sea else None,
                    fill="#2f5f8f" if sea else "#3d3425",
                    text_anchor="middle",
                    dominant_baseline="middle",
                )
            )
        self.add("</g>")

    def centers(self) -> None:
        self.add('<g class="centers">')
        for name in sorted(self.map.supply_centers):
            at = self.g.provinces[name].center
            if at is None:
                continue
            owner = self.pos.center_owner(name)
            self.add(
                svg.element(
                    "circle",
                    class_="center",
                    data_province=name,
                    data_owner=owner,
                    cx=at[0],
                    cy=at[1],
                    r=5.0,
                    fill=self.colour[owner] if owner else "#ffffff",
                    stroke=svg.INK,
                    stroke_width=1.3,
                )
            )
            self.add(svg.element("circle", cx=at[0], cy=at[1], r=1.6, fill=svg.INK))
        self.add("</g>")

    # -- units -------------------------------------------------------------------------
    def unit(self, power: PowerName, unit: Unit, at: Point, kind: str = "unit", **extra: object) -> None:
        shape = svg.army if unit.type is UnitType.ARMY else svg.fleet
        cls = f"{kind} {'army' if unit.type is UnitType.ARMY else 'fleet'}"
        self.add(
            f"<g {svg.attrs(class_=cls, data_power=power, data_location=str(unit.location), **extra)}>"
            f"{shape(at, self.colour.get(power, '#ffffff'), UNIT)}</g>"
        )

    def units(self) -> None:
        self.add('<g class="units">')
        for power, unit in self.pos.all_units():
            self.unit(power, unit, self.at(unit.location))
        for power, ds in sorted(self.pos.dislodged.items()):
            for d in ds:  # a retreat phase: the dislodged unit beside the one that took its place
                at = self.displaced(d.unit.location)
                self.unit(power, d.unit, at, kind="unit dislodged")
                self.ring(at, svg.FAILED, dashed=True)
        self.add("</g>")

    def at(self, location: Location) -> Point:
        return self.g.unit_point(location)

    def displaced(self, location: Location) -> Point:
        x, y = self.at(location)
        return x + UNIT * 1.6, y + UNIT * 1.4

    def ring(self, at: Point, colour: str, dashed: bool = False, r: float = UNIT * 1.6, **kw: object) -> None:
        self.add(
            svg.element(
                "circle",
                cx=at[0],
                cy=at[1],
                r=r,
                fill="none",
                stroke=colour,
                stroke_width=2.2,
                stroke_dasharray="4 3" if dashed else None,
                **kw,
            )
        )

    # -- orders ------------------------------------------------------------------------
    def orders(self) -> None:
        self.add('<g class="orders">')
        moves = {o.order.unit.province: o.order for o in self.pic.outcomes if isinstance(o.order, Move)}
        for o in self.pic.outcomes:
            order, ok = o.order, o.result.succeeded
            colour = self.colour.get(o.power, svg.INK)
            cls = f"order {type(order).__name__.lower()}{'' if ok else ' failed'}"
            if o.result is Result.BOUNCED:
                cls += " bounced"
            if isinstance(order, (Move, Retreat)):
                src = (
                    self.displaced(order.unit.location)
                    if isinstance(order, Retreat)
                    else self.at(order.unit.location)
                )
                self.arrow(cls, src, self.at(order.dest), colour, ok, o.result is Result.BOUNCED)
            elif isinstance(order, SupportHold):
                a, b = svg.shorten(
                    self.at(order.unit.location), self.at(order.supported.location), UNIT, UNIT * 1.7
                )
                self.line(cls, a, b, colour, dash="6 4", ok=ok)
                self.ring(self.at(order.supported.location), colour, dashed=True, class_="support-ring")
            elif isinstance(order, SupportMove):
                move = moves.get(order.supported.province)
                start = self.at(order.supported.location)
                end = self.at(move.dest if move else order.dest)
                target = svg.along(start, end, 0.55)
                a, b = svg.shorten(self.at(order.unit.location), target, UNIT, 2.0)
                self.line(cls, a, b, colour, dash="6 4", ok=ok, end_dot=True)
            elif isinstance(order, Convoy):
                start, end = self.at(order.army.location), self.at(order.dest)
                a, b = svg.shorten(self.at(order.unit.location), svg.along(start, end, 0.5), UNIT, 2.0)
                self.line(cls, a, b, colour, dash="1.5 4", ok=ok, end_dot=True, width=3.0)
            elif isinstance(order, Hold):
                if not o.default:
                    at = self.at(order.unit.location)
                    self.add(f"<g {svg.attrs(class_=cls, data_power=o.power)}>")
                    self.ring(at, svg.INK, r=UNIT * 1.55)
                    self.ring(at, colour, r=UNIT * 1.55)
                    self.add("</g>")
            elif isinstance(order, Disband):
                self.add(svg.cross(self.displaced(order.unit.location), 9.0, class_=f"{cls} mark"))
            elif isinstance(order, Build):
                at = self.at(order.unit.location)
                if ok:
                    self.unit(o.power, order.unit, at, kind="unit built")
                    self.ring(at, "#1a8f2e", class_=cls, data_location=str(order.unit.location))
                else:  # a build not made: its site is marked, but no unit is on the board
                    self.ring(at, svg.FAILED, dashed=True, class_=cls, data_location=str(order.unit.location))
                    self.add(svg.cross(at, 9.0, class_=f"{cls} mark"))
            elif isinstance(order, Remove):
                self.add(svg.cross(self.at(order.unit.location), 9.0, class_=f"{cls} mark"))
            if o.dislodged and not isinstance(order, Waive):
                at = self.at(order.unit.location)
                self.ring(
                    at,
                    svg.FAILED,
                    dashed=True,
                    class_="dislodged-mark",
                    data_location=str(order.unit.location),
                )
        self.retreat_options()
        self.add("</g>")

    def stroke(
        self, a: Point, b: Point, colour: str, width: float, *, outline: float, dash: str | None
    ) -> None:
        """A line in `colour` over a wider dark one, so that it reads on any ground."""
        for paint, w in ((svg.INK, outline), (colour, width)):
            self.add(
                svg.element(
                    "line",
                    x1=a[0],
                    y1=a[1],
                    x2=b[0],
                    y2=b[1],
                    stroke=paint,
                    stroke_width=w,
                    stroke_dasharray=dash,
                    stroke_linecap="round",
                )
            )

    def arrow(self, cls: str, src: Point, dest: Point, colour: str, ok: bool, bounced: bool) -> None:
        a, b = svg.shorten(src, dest, UNIT * 1.2, UNIT * 0.6)
        self.add(f"<g {svg.attrs(class_=cls)}>")
        dash = None if ok else "7 4"
        self.stroke(a, b, colour, 2.8, outline=5.0, dash=dash)
        self.add(svg.element("polygon", points=svg.arrow_head(a, b, 13.0), fill=svg.INK))
        self.add(svg.element("polygon", points=svg.arrow_head(a, b, 9.0), fill=colour))
        if bounced:  # a bar across the head: it went no further
            d = math.dist(a, b) or 1.0
            px, py = -(b[1] - a[1]) / d, (b[0] - a[0]) / d
            c = svg.along(a, b, 1 - 16.0 / d) if d > 20 else b
            self.add(
                svg.element(
                    "line",
                    class_="bounce",
                    x1=c[0] + px * 9,
                    y1=c[1] + py * 9,
                    x2=c[0] - px * 9,
                    y2=c[1] - py * 9,
                    stroke=svg.FAILED,
                    stroke_width=3.5,
                )
            )
        if not ok:
            self.add(svg.cross(svg.along(a, b, 0.5)))
        self.add("</g>")

    def line(
        self,
        cls: str,
        a: Point,
        b: Point,
        colour: str,
        *,
        dash: str,
        ok: bool,
        end_dot: bool = False,
        width: float = 2.4,
    ) -> None:
        self.add(f"<g {svg.attrs(class_=cls)}>")
        self.stroke(a, b, colour, width, outline=width + 2.0, dash=dash)
        if end_dot:
            self.add(
                svg.element("circle", cx=b[0], cy=b[1], r=3.5, fill=colour, stroke=svg.INK, stroke_width=1.2)
            )
        if not ok:
            self.add(svg.cross(svg.along(a, b, 0.3), 5.0))
        self.add("</g>")

    def retreat_options(self) -> None:
        """Where each dislodged unit may retreat to: thin dotted red arrows."""
        for power, ds in sorted((self.pic.retreats or self.pos.dislodged).items()):
            for d in ds:
                src = self.at(d.unit.location) if self.pic.retreats else self.displaced(d.unit.location)
                for dest in d.retreats:
                    a, b = svg.shorten(src, self.at(dest), UNIT * 1.4, UNIT * 0.8)
                    group = svg.attrs(
                        class_="retreat-option",
                        data_power=power,
                        data_from=str(d.unit.location),
                        data_to=str(dest),
                    )
                    self.add(
                        f"<g {group}>"
                        + svg.element(
                            "line",
                            x1=a[0],
                            y1=a[1],
                            x2=b[0],
                            y2=b[1],
                            stroke=svg.FAILED,
                            stroke_width=1.6,
                            stroke_dasharray="2 3",
                        )
                        + svg.element("polygon", points=svg.arrow_head(a, b, 7.0), fill=svg.FAILED)
                        + "</g>"
                    )

    # -- legend ------------------------------------------------------------------------
    def legend(self, top: float, height: float) -> None:
        g, pos = self.g, self.pos
        title = self.pic.title or pos.phase.title
        self.add(f'<g class="legend" transform="translate(0,{svg.num(top)})">')
        self.add(svg.element("rect", width=g.width, height=height, fill="#fbf8f0", stroke=svg.BORDER))
        self.add(
            svg.element(
                "text",
                title,
                class_="phase",
                x=14.0,
                y=22.0,
                font_size=16.0,
                font_weight="bold",
                fill=svg.INK,
            )
        )
        self.add(
            svg.element(
                "text",
                "→ move   ⋯ support   ∙∙∙ convoy   ○ hold   ✕ failed   | bounced",
                class_="key",
                x=g.width - 14.0,
                y=22.0,
                font_size=10.5,
                fill="#555555",
                text_anchor="end",
            )
        )
        col = (g.width - 28.0) / 4
        for i, power in enumerate(self.map.power_names):
            x, y = 14.0 + col * (i % 4), 40.0 + LEGEND_ROW * (i // 4)
            n_centres = len(pos.centers.get(power, ()))
            n_units = len(pos.units.get(power, ()))
            self.add(f"<g {svg.attrs(class_='power', data_power=power, data_centers=n_centres)}>")
            self.add(
                svg.element(
                    "rect",
                    x=x,
                    y=y,
                    width=16.0,
                    height=12.0,
                    fill=self.colour[power],
                    stroke=svg.INK,
                    stroke_width=1.0,
                )
            )
            self.add(
                svg.element(
                    "text",
                    f"{power.title()}  {n_centres} centres, {n_units} units",
                    x=x + 22.0,
                    y=y + 10.5,
                    font_size=12.0,
                    fill=svg.INK,
                )
            )
            self.add("</g>")
        self.add("</g>")
