"""Large maps read at the size they are mailed (issue 28 item 1, its last point).

"Readable", measured on each PNG a results mail carries (`Pictures.sheets`), for
youngstown, imperial, chaos and modern after every unit has moved:
- each sheet is at most `MAIL_LIMIT` bytes and drawn at no less than `MIN_ZOOM`, so a
  province's name (10 px in the SVG) is at least 8.5 px high as mailed;
- every unit stands where its token overlaps no other token, as mailed (tokens are
  18 x 12.6 px in the SVG): on a sheet where the provinces stand apart, the board;
  where they crowd, an enlarged inset of its own sheet;
- a crowded map gets at least one inset, enlarged at least 1.5 times, of where units moved.

DPjudge's maps are read in place from the shared folder, never copied.
"""

from __future__ import annotations

import shutil
import struct
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from payjudge.game.pictures import MAIL_LIMIT, MIN_ZOOM, fitted
from payjudge.render.board import picture_sheets
from payjudge.render.files import geometry_for
from payjudge.render.geometry import Geometry, Point
from payjudge.render.insets import LEGIBLE, Inset, plan_insets
from payjudge.render.layers import LABEL_SIZE, UNIT, Layers
from payjudge.render.picture import Picture
from payjudge.rules.geography import Location, Map, UnitType
from payjudge.rules.mapfile import load_map_file
from payjudge.rules.position import Position
from payjudge.rules.turn import advance

MAPS = Path("/work/shared/dpjudge-maps/maps")
NS = "{http://www.w3.org/2000/svg}"
READ_PX = 8.5  # the least height of a province's name, in mailed pixels

pytestmark = pytest.mark.skipif(
    not MAPS.is_dir() or shutil.which("gs") is None, reason="needs DPjudge's maps and Ghostscript"
)


def _order(m: Map, kind: UnitType, at: Location) -> str:
    """The unit's move to its first neighbour, alphabetically (a hold if it has none)."""
    letter = "A" if kind is UnitType.ARMY else "F"
    if kind is UnitType.ARMY:
        dests = sorted(m.army_neighbours(at.province))
    else:
        dests = sorted(str(loc) for loc in m.fleet_neighbours(at))
    return f"{letter} {at} - {dests[0]}" if dests else f"{letter} {at} H"


def _moved(name: str) -> Picture:
    """A spring where every unit moves (chaos first builds an army in each home)."""
    m = load_map_file(MAPS / f"{name}.map", [MAPS])
    pos = Position.initial(m)
    if not any(True for _ in pos.all_units()):
        builds = {p.name: [f"BUILD A {p.homes[0]}"] for p in m.powers if p.homes}
        _, pos = advance(pos, builds)
    orders: dict[str, list[str]] = {}
    for power, unit in pos.all_units():
        orders.setdefault(power, []).append(_order(m, unit.type, unit.location))
    report, _ = advance(pos, orders)
    return Picture(report.before, report.outcomes, report.dislodged)


def _zoom(data: bytes, width: float) -> float:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    (px,) = struct.unpack(">I", data[16:20])  # IHDR's width
    return px / width


def _apart(points: list[Point]) -> None:
    """No unit token (2 UNIT wide, 1.4 UNIT high) overlaps another."""
    for i, (x, y) in enumerate(points):
        for xx, yy in points[i + 1 :]:
            assert abs(x - xx) >= UNIT * 2 or abs(y - yy) >= UNIT * 1.4, ((x, y), (xx, yy))


def _overlap(p: Point, q: Point) -> bool:
    return abs(p[0] - q[0]) < UNIT * 2 and abs(p[1] - q[1]) < UNIT * 1.4


def _every_unit_reads(g: Geometry, picture: Picture, insets: list[Inset]) -> None:
    """Each unit's token overlaps no other: on the board, or else in an inset."""
    units = [g.unit_point(u.location) for _, u in picture.position.all_units()]
    for inset in insets:
        shown = [inset.point(p) for p in units]
        _apart([p for p in shown if 0 <= p[0] <= g.width and 0 <= p[1] <= inset.height])
    for i, p in enumerate(units):
        if any(_overlap(p, q) for j, q in enumerate(units) if j != i):
            assert any(_within(p, inset.box) for inset in insets), f"no inset shows the unit at {p}"


def _within(p: Point, box: tuple[float, float, float, float]) -> bool:
    return box[0] + UNIT <= p[0] <= box[2] - UNIT and box[1] + UNIT <= p[1] <= box[3] - UNIT


@pytest.mark.parametrize("name", ["youngstown", "imperial", "chaos", "modern"])
def test_every_mailed_sheet_of_a_large_map_reads(name, tmp_path_factory):
    picture = _moved(name)
    m = picture.position.map
    g = geometry_for(m, MAPS, tmp_path_factory.getbasetemp() / "drawings")
    sheets = picture_sheets(g, picture)
    for text in sheets:
        data = fitted(text)
        assert len(data) <= MAIL_LIMIT
        zoom = _zoom(data, g.width)
        assert zoom >= MIN_ZOOM
        root = ET.fromstring(text)
        sizes = [float(el.get("font-size")) for el in root.iter(f"{NS}text") if el.get("class") == "label"]
        assert sizes and min(sizes) * zoom >= READ_PX
    main = Layers(g, picture)
    main.draw_board()
    insets = plan_insets(g, main.action, main.crowded())
    assert len(sheets) == 1 + len(insets)
    _every_unit_reads(g, picture, insets)
    if main.crowded() < LEGIBLE and main.action:
        assert insets and min(i.scale for i in insets) >= 1.5, "a crowded map gets an inset of the action"
    for n, text in enumerate(sheets[1:], 1):
        root = ET.fromstring(text)
        (frame,) = [el for el in root.iter(f"{NS}svg") if el.get("class") == "inset"]
        assert float(frame.get("width")) == g.width
        caption = next(el.text for el in root.iter(f"{NS}text") if el.get("class") == "caption")
        assert caption.endswith(f"area {n} enlarged")
    assert LABEL_SIZE * MIN_ZOOM >= READ_PX
