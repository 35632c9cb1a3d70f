"""The layers of one board (map, centres, units, orders, names) as SVG elements.

Drawing records what it covers (unit tokens, centre marks, the lines of the orders) so
that the names, placed last, go where nothing covers them; which marks it drew, for the
legend; and where the action is (units that moved, supported, built…), for insets.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING

from ..rules.geography import Location, Terrain, UnitType
from ..rules.names import PowerName
from ..rules.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Unit,
    Waive,
)
from ..rules.outcome import OrderOutcome, Result
from ..rules.position import Dislodged
from . import svg
from .geometry import Geometry, Point, Ring
from .insets import nearest
from .labels import Box, Segment, Wanted, place_labels
from .marks import Mark
from .routes import chain, inside, point_along, route, trim

if TYPE_CHECKING:
    from .board import Picture

UNIT = 9.0  # half the width of a unit token
LABEL_SIZE = 10.0
HALO: dict[str, object] = {
    "stroke": "#ffffff",
    "stroke_width": 2.5,
    "stroke_opacity": 0.85,
    "paint_order": "stroke",
}


def _circle(at: Point, r: float, sides: int = 16) -> Ring:
    return tuple(
        (at[0] + r * math.cos(2 * math.pi * k / sides), at[1] + r * math.sin(2 * math.pi * k / sides))
        for k in range(sides)
    )


class Layers:
    """One drawing of the board on `geometry` (the whole board, or an inset's part)."""

    def __init__(self, geometry: Geometry, picture: Picture, *, every_label: bool = False):
        """`every_label`: write every name even on a drawing that writes them itself."""
        self.g = geometry
        self.pic = picture
        self.pos = picture.position
        self.map = picture.position.map
        self.colour = svg.colours(self.map.power_names)
        self.every_label = every_label
        self.out: list[str] = []
        self.boxes: list[Box] = []
        self.lines: list[Segment] = []
        self.marks: set[Mark] = set()
        self.action: list[Point] = []
        self.walls = self._walls()

    def add(self, text: str) -> None:
        self.out.append(text)

    def draw(self, elsewhere: Sequence[Box] = ()) -> str:
        """The board's SVG; names in the `elsewhere` areas are left to the insets that
        enlarge them (written here they would only add to the crowd)."""
        self.draw_board()
        self.labels(elsewhere)
        return self.text()

    def draw_board(self) -> None:
        """Everything but the names: what they must avoid, and where the action is."""
        self.provinces()
        self.centers()
        self.units()
        self.orders()

    def text(self) -> str:
        return "\n".join(self.out)

    def _walls(self) -> list[Ring]:
        """What an arrow must go round: impassable land (a small circle on a drawing,
        which gives only a point)."""
        walls = list(self.g.impassable)
        for name, prov in self.map.provinces.items():
            if prov.terrain is Terrain.SHUT:
                place = self.g.provinces[name]
                if place.outline:
                    walls += place.outline
                else:
                    walls.append(_circle(place.unit, place.radius or 10.0))
        return walls

    def crowded(self) -> float:
        """How close provinces stand: the median distance from each to its nearest."""
        return nearest([p.unit for p in self.g.provinces.values()])

    # -- the map -----------------------------------------------------------------------
    def provinces(self) -> None:
        g = self.g
        self.add('<g class="map">')
        if g.background:  # the drawing shows land, sea, coasts and names itself
            x, y, w, h = g.background_frame or (0.0, 0.0, g.width, g.height)
            self.add(
                svg.element(
                    "image",
                    class_="drawing",
                    href=g.background,
                    x=x,
                    y=y,
                    width=w,
                    height=h,
                    preserveAspectRatio="none",
                    # an inset's picture, scaled a little: sharp enough, and resvg is
                    # five times faster at it than with its best filter
                    image_rendering="optimizeSpeed" if g.background_frame else None,
                )
            )
        else:
            self.outlines()
            self.coasts()
        self.add("</g>")

    def outlines(self) -> None:
        g = self.g
        for ring, kind, fill in [(r, "impassable", svg.IMPASSABLE) for r in g.impassable] + [
            (r, "lake", svg.SEA) for r in g.lakes
        ]:
            self.add(
                svg.element(
                    "path",
                    class_=kind,
                    d=svg.path_of((ring,)),
                    fill=fill,
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
        for name in sorted(self.map.provinces):
            self.province(name)

    def province(self, name: str) -> None:
        prov, place = self.map.provinces[name], self.g.provinces[name]
        owner = self.pos.center_owner(name) if prov.supply_center else None
        if prov.terrain is Terrain.WATER:
            kind, fill, stroke = "sea", svg.SEA, svg.SEA_EDGE
        elif prov.terrain is Terrain.SHUT:
            kind, fill, stroke = "impassable", svg.IMPASSABLE, svg.BORDER
        else:
            kind = "coast" if prov.terrain is Terrain.COAST else "land"
            fill, stroke = (svg.tint(self.colour[owner]) if owner else svg.LAND), svg.BORDER
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
                stroke_width=1.0 if not self.g.schematic else 1.5,
            )
        )

    def coasts(self) -> None:
        for name, coast in sorted(self.g.coasts.items()):
            for line in coast.lines:
                self.marks.add(Mark.COAST)
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
            text = name.split("/")[1].lower()
            self.boxes.append(_box(coast.label, 6.0, 5.0))
            self.add(
                svg.element(
                    "text",
                    text,
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

    def wanted(self, elsewhere: Sequence[Box]) -> list[Wanted]:
        """The names to write: every province's (on a DPjudge drawing, which writes the
        names itself, only those a unit or a mark now covers, outside the insets' areas)."""
        g, covered = self.g, self.covered()
        out = []
        for name in sorted(self.map.provinces):
            place = g.provinces[name]
            if g.background and (
                (not self.every_label and name not in covered)
                or any(_within(place.unit, box) for box in elsewhere)
            ):
                continue
            fits = partial(_in_any, place.outline) if place.outline else None
            out.append(Wanted(name, name, LABEL_SIZE, (place.label, place.unit), fits))
        return out

    def labels(self, elsewhere: Sequence[Box] = ()) -> None:
        """The names, each where nothing covers it (`labels.py`)."""
        g = self.g
        spots = place_labels(
            self.wanted(elsewhere), self.boxes, self.lines, (2.0, 2.0, g.width - 2.0, g.height - 2.0)
        )
        # on a drawing or a schematic a name may lie over lines: a white halo keeps it legible
        halo = bool(g.background) or g.schematic
        self.add('<g class="labels">')
        for name in sorted(spots):
            x, y = spots[name]
            sea = self.map.provinces[name].terrain is Terrain.WATER
            self.add(
                svg.element(
                    "text",
                    name,
                    class_="label",
                    x=x,
                    y=y,
                    font_size=LABEL_SIZE if not sea else 10.5,
                    font_weight="bold" if not sea else None,
                    font_style="italic" if sea else None,
                    fill="#2f5f8f" if sea else "#3d3425",
                    text_anchor="middle",
                    dominant_baseline="middle",
                    **(HALO if halo else {}),
                )
            )
        self.add("</g>")

    def covered(self) -> set[str]:
        """The provinces whose own anchor a unit or a mark now covers."""
        out = set()
        for name, place in self.g.provinces.items():
            x, y = place.unit
            if any(b[0] <= x <= b[2] and b[1] <= y <= b[3] for b in self.boxes):
                out.add(name)
        return out

    def centers(self) -> None:
        self.add('<g class="centers">')
        for name in sorted(self.map.supply_centers):
            at = self.g.provinces[name].center
            if at is None:
                continue
            self.marks.add(Mark.CENTRE)
            owner = self.pos.center_owner(name)
            self.boxes.append(_box(at, 5.5, 5.5))
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
        army = unit.type is UnitType.ARMY
        shape = svg.army if army else svg.fleet
        self.marks.add(Mark.ARMY if army else Mark.FLEET)
        self.boxes.append(_box(at, UNIT * (1.1 if army else 1.35), UNIT * 0.8))
        cls = f"{kind} {'army' if army else 'fleet'}"
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
                self.marks.add(Mark.DISLODGED)
        self.add("</g>")

    def at(self, location: Location) -> Point:
        return self.g.unit_point(location)

    def displaced(self, location: Location) -> Point:
        x, y = self.at(location)
        return x + UNIT * 1.6, y + UNIT * 1.4

    def ring(self, at: Point, colour: str, dashed: bool = False, r: float = UNIT * 1.6, **kw: object) -> None:
        self.boxes.append(_box(at, r, r))
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
        self.moves = {o.order.unit.province: o.order for o in self.pic.outcomes if isinstance(o.order, Move)}
        draw: dict[type[Order], Callable[[OrderOutcome, str, str], None]] = {
            Move: self.move,
            Retreat: self.move,
            SupportHold: self.support_hold,
            SupportMove: self.support_move,
            Convoy: self.convoy,
            Hold: self.hold,
            Disband: self.removed,
            Remove: self.removed,
            Build: self.build,
        }
        for o in self.pic.outcomes:
            cls = f"order {type(o.order).__name__.lower()}{'' if o.result.succeeded else ' failed'}"
            if o.result is Result.BOUNCED:
                cls += " bounced"
            handler = draw.get(type(o.order))
            if handler is not None:
                handler(o, cls, self.colour.get(o.power, svg.INK))
            if o.dislodged and not isinstance(o.order, Waive):
                self.marks.add(Mark.DISLODGED)
                self.ring(
                    self.at(o.order.unit.location),
                    svg.FAILED,
                    dashed=True,
                    class_="dislodged-mark",
                    data_location=str(o.order.unit.location),
                )
        self.retreat_options()
        self.add("</g>")

    def convoy_stops(self, army: Unit, dest: Location) -> list[Point]:
        """Where the fleets convoying `army` to `dest` stand."""
        return [
            self.at(o.order.unit.location)
            for o in self.pic.outcomes
            if isinstance(o.order, Convoy) and o.order.army == army and o.order.dest == dest
        ]

    def move(self, o: OrderOutcome, cls: str, colour: str) -> None:
        order = o.order
        assert isinstance(order, (Move, Retreat))
        retreat = isinstance(order, Retreat)
        src = self.displaced(order.unit.location) if retreat else self.at(order.unit.location)
        dest = self.at(order.dest)
        stops = [] if retreat else self.convoy_stops(order.unit, order.dest)
        path = chain(src, stops, dest) if stops else route(src, dest, self.walls)
        self.marks.add(Mark.CONVOYED if stops else Mark.MOVE)
        self.action += [src, dest]
        self.arrow(cls, path, colour, o.result.succeeded, o.result is Result.BOUNCED, convoyed=bool(stops))

    def support_hold(self, o: OrderOutcome, cls: str, colour: str) -> None:
        order = o.order
        assert isinstance(order, SupportHold)
        a, b = svg.shorten(self.at(order.unit.location), self.at(order.supported.location), UNIT, UNIT * 1.7)
        self.line(cls, a, b, colour, dash="6 4", ok=o.result.succeeded)
        self.ring(self.at(order.supported.location), colour, dashed=True, class_="support-ring")
        self.marks |= {Mark.SUPPORT, Mark.SUPPORT_HOLD}
        self.action += [a, b]

    def support_move(self, o: OrderOutcome, cls: str, colour: str) -> None:
        order = o.order
        assert isinstance(order, SupportMove)
        move = self.moves.get(order.supported.province)
        start = self.at(order.supported.location)
        end = self.at(move.dest if move else order.dest)
        target = point_along(route(start, end, self.walls), 0.55)
        a, b = svg.shorten(self.at(order.unit.location), target, UNIT, 2.0)
        self.line(cls, a, b, colour, dash="6 4", ok=o.result.succeeded, end_dot=True)
        self.marks.add(Mark.SUPPORT)
        self.action += [a, b]

    def convoy(self, o: OrderOutcome, cls: str, colour: str) -> None:
        order = o.order
        assert isinstance(order, Convoy)
        start, end = self.at(order.army.location), self.at(order.dest)
        a, b = svg.shorten(self.at(order.unit.location), svg.along(start, end, 0.5), UNIT, 2.0)
        self.line(cls, a, b, colour, dash="1.5 4", ok=o.result.succeeded, end_dot=True, width=3.0)
        self.marks.add(Mark.CONVOY)
        self.action += [a, b]

    def hold(self, o: OrderOutcome, cls: str, colour: str) -> None:
        if o.default or isinstance(o.order, Waive):
            return
        at = self.at(o.order.unit.location)
        self.add(f"<g {svg.attrs(class_=cls, data_power=o.power)}>")
        self.ring(at, svg.INK, r=UNIT * 1.55)
        self.ring(at, colour, r=UNIT * 1.55)
        self.add("</g>")
        self.marks.add(Mark.HOLD)

    def removed(self, o: OrderOutcome, cls: str, colour: str) -> None:
        assert isinstance(o.order, (Disband, Remove))
        loc = o.order.unit.location
        at = self.displaced(loc) if isinstance(o.order, Disband) else self.at(loc)
        self.add(svg.cross(at, 9.0, class_=f"{cls} mark"))
        self.marks.add(Mark.REMOVED)
        self.action.append(at)

    def build(self, o: OrderOutcome, cls: str, colour: str) -> None:
        assert isinstance(o.order, Build)
        unit = o.order.unit
        at = self.at(unit.location)
        self.action.append(at)
        if o.result.succeeded:
            self.unit(o.power, unit, at, kind="unit built")
            self.ring(at, "#1a8f2e", class_=cls, data_location=str(unit.location))
            self.marks.add(Mark.BUILT)
        else:  # a build not made: its site is marked, but no unit is on the board
            self.ring(at, svg.FAILED, dashed=True, class_=cls, data_location=str(unit.location))
            self.add(svg.cross(at, 9.0, class_=f"{cls} mark"))
            self.marks.add(Mark.VOID_BUILD)

    def stroke(
        self, path: Sequence[Point], colour: str, width: float, *, outline: float, dash: str | None
    ) -> None:
        """A line in `colour` over a wider dark one, so that it reads on any ground."""
        self.lines += list(itertools.pairwise(path))
        points = " ".join(f"{svg.num(x)},{svg.num(y)}" for x, y in path)
        for paint, w in ((svg.INK, outline), (colour, width)):
            self.add(
                svg.element(
                    "polyline",
                    points=points,
                    fill="none",
                    stroke=paint,
                    stroke_width=w,
                    stroke_dasharray=dash,
                    stroke_linecap="round",
                    stroke_linejoin="round",
                )
            )

    def arrow(
        self, cls: str, path: Sequence[Point], colour: str, ok: bool, bounced: bool, *, convoyed: bool = False
    ) -> None:
        path = trim(path, UNIT * 1.2, UNIT * 0.6)
        a, b = path[-2], path[-1]
        self.add(f"<g {svg.attrs(class_=cls + (' convoyed' if convoyed else ''))}>")
        dash = "7 4" if not ok else ("12 3" if convoyed else None)
        self.stroke(path, colour, 2.8, outline=5.0, dash=dash)
        self.add(svg.element("polygon", points=svg.arrow_head(a, b, 13.0), fill=svg.INK))
        self.add(svg.element("polygon", points=svg.arrow_head(a, b, 9.0), fill=colour))
        if bounced:  # a bar across the head: it went no further
            self.marks.add(Mark.BOUNCED)
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
            self.marks.add(Mark.FAILED)
            self.add(svg.cross(point_along(path, 0.5)))
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
        self.stroke((a, b), colour, width, outline=width + 2.0, dash=dash)
        if end_dot:
            self.add(
                svg.element("circle", cx=b[0], cy=b[1], r=3.5, fill=colour, stroke=svg.INK, stroke_width=1.2)
            )
        if not ok:
            self.marks.add(Mark.FAILED)
            self.add(svg.cross(svg.along(a, b, 0.3), 5.0))
        self.add("</g>")

    def retreat_options(self) -> None:
        """Where each dislodged unit may retreat to: thin dotted red arrows."""
        for power, ds in sorted((self.pic.retreats or self.pos.dislodged).items()):
            for d in ds:
                src = self.at(d.unit.location) if self.pic.retreats else self.displaced(d.unit.location)
                for dest in d.retreats:
                    self.marks.add(Mark.RETREAT_OPTION)
                    self.retreat_option(power, d, dest, src)

    def retreat_option(self, power: PowerName, d: Dislodged, dest: Location, src: Point) -> None:
        path = trim(route(src, self.at(dest), self.walls), UNIT * 1.4, UNIT * 0.8)
        self.action += [path[0], path[-1]]
        self.lines += list(itertools.pairwise(path))
        group = svg.attrs(
            class_="retreat-option", data_power=power, data_from=str(d.unit.location), data_to=str(dest)
        )
        self.add(
            f"<g {group}>"
            + svg.element(
                "polyline",
                points=" ".join(f"{svg.num(x)},{svg.num(y)}" for x, y in path),
                fill="none",
                stroke=svg.FAILED,
                stroke_width=1.6,
                stroke_dasharray="2 3",
            )
            + svg.element("polygon", points=svg.arrow_head(path[-2], path[-1], 7.0), fill=svg.FAILED)
            + "</g>"
        )


def _in_any(rings: Sequence[Ring], p: Point) -> bool:
    return any(inside(p, r) for r in rings)


def _within(p: Point, box: Box) -> bool:
    return box[0] <= p[0] <= box[2] and box[1] <= p[1] <= box[3]


def _box(at: Point, half_w: float, half_h: float) -> Box:
    return at[0] - half_w, at[1] - half_h, at[0] + half_w, at[1] + half_h
