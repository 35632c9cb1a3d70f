"""Pictures of the board: the SVG shows every province, unit, centre and order with its
result; the PNG is a real PNG of the picture's size; an undrawn map gets a schematic."""

from __future__ import annotations

import json
import math
import struct
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from payjudge.jsonapi.common import position
from payjudge.render.board import board_svg, report_svg
from payjudge.render.files import geometry_for
from payjudge.render.raster import png
from payjudge.render.schematic import schematic_geometry
from payjudge.render.svg import STANDARD_COLOURS
from payjudge.rules.mapfile import load_map_file, load_variant
from payjudge.rules.orders import Unit
from payjudge.rules.position import Position
from payjudge.rules.turn import advance

CASE = Path(__file__).parent / "fall1901.json"
DPJUDGE_MAPS = Path("/work/shared/dpjudge-maps/maps")
NS = "{http://www.w3.org/2000/svg}"


def played():
    doc = json.loads(CASE.read_text())
    report, _ = advance(position(doc), doc["orders"][0])
    return report


def classes(el) -> set[str]:
    return set(el.get("class", "").split())


def groups(root, *wanted: str):
    return [el for el in root.iter() if set(wanted) <= classes(el)]


@pytest.fixture(scope="module")
def picture():
    report = played()
    return report, ET.fromstring(report_svg(geometry_for(report.before.map), report))


def test_every_province_centre_and_unit_is_drawn(picture):
    report, root = picture
    m = report.before.map
    ids = {el.get("id") for el in root.iter(f"{NS}path") if el.get("id")}
    assert ids == {f"p-{p}" for p in m.provinces}
    kinds = {el.get("id")[2:]: classes(el) for el in groups(root, "province")}
    assert "sea" in kinds["NTH"] and "land" in kinds["MUN"] and "coast" in kinds["BRE"]
    assert "impassable" in kinds["SWI"]
    labels = {el.text for el in groups(root, "label")}
    assert labels == set(m.provinces)
    assert {el.get("data-coast") for el in groups(root, "coast-line")} == {
        "STP/NC",
        "STP/SC",
        "SPA/NC",
        "SPA/SC",
        "BUL/EC",
        "BUL/SC",
    }
    centres = {el.get("data-province"): el for el in groups(root, "center")}
    assert set(centres) == set(m.supply_centers)
    for name, el in centres.items():
        owner = report.before.center_owner(name)
        assert el.get("data-owner") == owner
        assert el.get("fill") == (STANDARD_COLOURS[owner] if owner else "#ffffff")
    units = [el for el in groups(root, "unit") if "dislodged" not in classes(el)]
    drawn = {(el.get("data-power"), el.get("data-location"), "army" in classes(el)) for el in units}
    assert drawn == {(p, str(u.location), u.type.value == "A") for p, u in report.before.all_units()}
    for el in units:  # each unit in its owner's colour
        assert {s.get("fill") for s in el.iter(f"{NS}path")} == {STANDARD_COLOURS[el.get("data-power")]}


def test_fleet_on_a_coast_is_drawn_at_that_coast(picture):
    _, root = picture
    g = geometry_for(load_variant())
    fleet = next(el for el in groups(root, "fleet") if el.get("data-location") == "STP/SC")
    x, _y = g.coasts["STP/SC"].unit
    assert f"M{x - 9 * 1.25:.1f}".rstrip("0").rstrip(".") in next(fleet.iter(f"{NS}path")).get("d")
    assert g.coasts["STP/SC"].unit != g.provinces["STP"].unit


def test_orders_and_results_are_drawn(picture):
    report, root = picture
    moves = groups(root, "order", "move")
    assert len(moves) == sum(type(o.order).__name__ == "Move" for o in report.outcomes)
    bounced = groups(root, "order", "move", "bounced")
    assert len(bounced) == sum(o.result.value == "bounced" for o in report.outcomes) > 0
    assert all(g.find(f"{NS}line[@class='bounce']") is not None for g in bounced)
    assert len(groups(root, "order", "supportmove")) == 5
    assert len(groups(root, "order", "supporthold")) == 0
    assert len(groups(root, "order", "convoy")) == 1
    assert len(groups(root, "order", "hold")) == 1
    # a failed order carries a red cross
    for g in groups(root, "failed"):
        if "hold" in classes(g):
            continue  # a hold fails only when its unit is dislodged: marked as such below
        assert any(p.get("stroke") == "#d11f1f" for p in g.iter(f"{NS}path")), g.attrib
    # the dislodged units are marked, with their retreat options
    dislodged = {el.get("data-location") for el in groups(root, "dislodged-mark")}
    assert dislodged == {str(o.order.unit.location) for o in report.outcomes if o.dislodged} == {"GAL", "BUR"}
    options = {(el.get("data-from"), el.get("data-to")) for el in groups(root, "retreat-option")}
    expected = {
        (str(d.unit.location), str(r)) for ds in report.dislodged.values() for d in ds for r in d.retreats
    }
    assert options == expected and ("GAL", "BOH") in options


def test_legend_names_the_phase_and_counts_centres(picture):
    report, root = picture
    assert groups(root, "phase")[0].text == "Fall 1901 Movement"
    counts = {el.get("data-power"): int(el.get("data-centers")) for el in groups(root, "power")}
    assert counts == {p: len(report.before.centers.get(p, ())) for p in report.before.map.power_names}


def test_png_is_a_png_of_the_picture_size():
    report = played()
    text = report_svg(geometry_for(report.before.map), report)
    root = ET.fromstring(text)
    data = png(text)
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (int(float(root.get("width"))), int(float(root.get("height"))))
    assert (width, height) == (1000, 1074)  # the board (940) and its legend, with a key of its marks
    assert len(png(text, zoom=0.5)) < len(data)


def test_standard_geometry_fits_the_map():
    m = load_variant()
    g = geometry_for(m)
    assert not g.schematic and g.problems(m) == []
    for name, place in g.provinces.items():  # every anchor lies inside its own province
        for what in ("unit", "center"):
            point = getattr(place, what)
            if point is not None:
                assert any(_inside(point, ring) for ring in place.outline), (name, what, point)


def _inside(p, ring) -> bool:
    x, y = p
    inside = False
    for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


SMALL_MAP = """
BEGIN SPRING 1901 MOVEMENT
RED (RED:R) AAA
BLUE (BLUE:B) DDD
UNOWNED CCC
RED
A AAA
BLUE
F DDD
Aland = AAA
Bland = BBB
Cland = CCC
Dland = DDD
Water = WWW
COAST AAA ABUTS BBB WWW
COAST BBB ABUTS AAA CCC WWW
COAST CCC ABUTS BBB DDD WWW
COAST DDD ABUTS CCC WWW
WATER WWW ABUTS AAA BBB CCC DDD
"""


def test_schematic_picture_of_a_small_map(tmp_path):
    (tmp_path / "tiny.map").write_text(SMALL_MAP)
    m = load_map_file(tmp_path / "tiny.map")
    g = geometry_for(m)
    assert g.schematic and set(g.provinces) == set(m.provinces)
    assert ("AAA", "BBB") in g.edges and ("AAA", "CCC") not in g.edges
    assert g == schematic_geometry(m)  # the same map, the same picture
    root = ET.fromstring(board_svg(g, Position.initial(m)))
    assert {el.get("id") for el in groups(root, "province")} == {f"p-{p}" for p in m.provinces}
    assert len(groups(root, "adjacency")) == len(g.edges)
    assert {el.get("data-location") for el in groups(root, "unit")} == {"AAA", "DDD"}


@pytest.mark.skipif(not DPJUDGE_MAPS.is_dir(), reason="no DPjudge maps here")
@pytest.mark.parametrize("name", ["ancmed", "chromatic", "modern", "youngstown"])
def test_schematic_picture_of_a_dpjudge_map(name):
    m = load_map_file(DPJUDGE_MAPS / f"{name}.map")
    g = schematic_geometry(m)
    assert set(g.provinces) == set(m.provinces) and g.problems(m) == []
    points = {p.unit for p in g.provinces.values()}
    assert len(points) == len(m.provinces)  # no two provinces on one spot
    # the board fills the picture: provinces with no neighbour (youngstown's impassable
    # ones) do not drift off and squeeze the rest into a corner
    lengths = sorted(math.dist(g.provinces[a].unit, g.provinces[b].unit) for a, b in g.edges)
    assert lengths[len(lengths) // 2] > 40
    text = board_svg(g, Position.initial(m))
    root = ET.fromstring(text)
    assert len(groups(root, "unit")) == sum(len(us) for us in m.start_units.values())
    data = png(text)
    assert struct.unpack(">II", data[16:24]) == (1000, int(float(root.get("height"))))


def test_a_build_not_made_draws_no_unit():
    """A void build (no build due) is marked at its site, but no unit is drawn there: the
    picture never shows a unit that is not on the board (issue 26)."""
    from payjudge.rules.phase import Phase

    m = load_variant()
    units = {"FRANCE": ["A MAR", "F BRE"], "GERMANY": ["A KIE", "A MUN", "A HOL"]}
    pos = Position(
        m,
        Phase.parse("W1901A"),
        {p: tuple(Unit.parse(u) for u in us) for p, us in units.items()},
        {"FRANCE": frozenset({"PAR", "BRE", "MAR"}), "GERMANY": frozenset({"BER", "KIE", "MUN"})},
    )
    report, _ = advance(pos, {"FRANCE": ["BUILD A PAR"], "GERMANY": ["BUILD A BER"]})
    results = {str(o.order): o.result.value for o in report.outcomes}
    assert results == {"BUILD A PAR": "succeeds", "BUILD A BER": "void"}
    root = ET.fromstring(report_svg(geometry_for(m), report))
    built = {el.get("data-location") for el in groups(root, "unit", "built")}
    assert built == {"PAR"}
    failed = {el.get("data-location") for el in groups(root, "order", "build", "failed")}
    assert failed - {None} == {"BER"}
