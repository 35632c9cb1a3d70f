"""The orders of a phase on the board: moves as arrows (round impassable land, or
through their convoying fleets), supports dashed, convoys dotted, holds as rings, builds,
removals, dislodgements and retreat options; a failed order crossed out, a bounce barred.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence

from ..rules.geography import Location
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
from .canvas import UNIT, Canvas
from .geometry import Point
from .marks import Mark
from .routes import chain, point_along, route, trim


class OrderLayer(Canvas):
    """The orders' layer: drawn after the units, before the names."""

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
