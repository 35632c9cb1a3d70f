"""The layers of one board as SVG, bottom to top: the map (or DPjudge's drawing),
supply centres, units, the orders (`order_layer.py`), and the names, placed last where
nothing covers them (`labels.py`). What each layer covers and marks is recorded on the
canvas (`canvas.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING

from ..rules.geography import Terrain
from . import svg
from .canvas import UNIT, box_around
from .geometry import Geometry, Point, Ring
from .labels import Box, Wanted, place_labels
from .marks import Mark
from .order_layer import OrderLayer
from .routes import inside

if TYPE_CHECKING:
    from .picture import Picture

__all__ = ["UNIT", "Layers"]

LABEL_SIZE = 10.0
HALO: dict[str, object] = {
    "stroke": "#ffffff",
    "stroke_width": 2.5,
    "stroke_opacity": 0.85,
    "paint_order": "stroke",
}


class Layers(OrderLayer):
    """One drawing of the board on `geometry` (the whole board, or an inset's part)."""

    def __init__(self, geometry: Geometry, picture: Picture, *, every_label: bool = False):
        """`every_label`: write every name even on a drawing that writes them itself."""
        super().__init__(geometry, picture)
        self.every_label = every_label

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
                    x=svg.fine(x),
                    y=svg.fine(y),
                    width=svg.fine(w),
                    height=svg.fine(h),
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
            self.edge_lines.append((len(self.out), pa, pb))
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
            self.boxes.append(box_around(coast.label, 6.0, 5.0))
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

    def leave_edges(self, elsewhere: Sequence[Box]) -> None:
        """Drop the adjacency lines inside the `elsewhere` areas: their insets draw them
        where they can be told apart, and on the board they only add to the crowd (and
        their faint grey costs imperial's board sheet a fifth of its bytes)."""
        for at, pa, pb in self.edge_lines:
            if any(_within(pa, box) and _within(pb, box) for box in elsewhere):
                self.out[at] = ""

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
            self.boxes.append(box_around(at, 5.5, 5.5))
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


def _in_any(rings: Sequence[Ring], p: Point) -> bool:
    return any(inside(p, r) for r in rings)


def _within(p: Point, box: Box) -> bool:
    return box[0] <= p[0] <= box[2] and box[1] <= p[1] <= box[3]
