"""What makes a picture legible (issue 28 item 1): names that nothing covers, arrows that
go round impassable land, convoyed moves through their fleets, a legend of every mark
drawn, BLIND counts the viewer cannot know shown as `?`, and an enlarged inset of the
action on a crowded map."""

from __future__ import annotations

import itertools
import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from payjudge.jsonapi.common import position
from payjudge.render.board import board_svg, report_svg
from payjudge.render.files import geometry_for
from payjudge.render.insets import LEGIBLE, Inset, plan_insets
from payjudge.render.labels import _clip, text_box
from payjudge.render.layers import UNIT
from payjudge.render.routes import blocked, route
from payjudge.rules.geography import Location
from payjudge.rules.mapfile import load_map_file, load_variant
from payjudge.rules.position import Position
from payjudge.rules.turn import advance

CASE = Path(__file__).parent / "fall1901.json"
MAPS = Path("/work/shared/dpjudge-maps/maps")
NS = "{http://www.w3.org/2000/svg}"


def _classes(el) -> set[str]:
    return set(el.get("class", "").split())


def _fall1901():
    doc = json.loads(CASE.read_text())
    report, _ = advance(position(doc), doc["orders"][0])
    return report


def _overlap(a, b) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def _points(text: str) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in (p.split(",") for p in text.split())]


def _labels_are_uncovered(root, g, pos) -> None:
    labels = {
        el.text: text_box((float(el.get("x")), float(el.get("y"))), el.text, 10.0)
        for el in root.iter()
        if "label" in _classes(el)
    }
    units = [g.unit_point(u.location) for _, u in pos.all_units()]
    unit_boxes = [(x - UNIT, y - UNIT * 0.7, x + UNIT, y + UNIT * 0.7) for x, y in units]
    lines = [
        seg
        for el in root.iter(f"{NS}polyline")
        for seg in zip(_points(el.get("points")), _points(el.get("points"))[1:])
    ]
    names = sorted(labels)
    for i, name in enumerate(names):
        box = labels[name]
        assert not any(_overlap(box, u) for u in unit_boxes), f"a unit covers {name}"
        assert not any(_clip(a, b, box) for a, b in lines), f"an order's line crosses {name}"
        assert not any(_overlap(box, labels[other]) for other in names[i + 1 :]), f"{name} covers a name"


def test_no_unit_line_or_name_covers_a_name():
    """The opening covered LVP, EDI and LON with their own fleets and armies."""
    m = load_variant()
    g = geometry_for(m)
    opening = Position.initial(m)
    _labels_are_uncovered(ET.fromstring(board_svg(g, opening)), g, opening)
    report = _fall1901()
    _labels_are_uncovered(ET.fromstring(report_svg(g, report)), g, report.before)


def test_an_arrow_goes_round_switzerland():
    m = load_variant()
    g = geometry_for(m)
    swi = g.provinces["SWI"].outline[0]
    mun, bur = g.unit_point(Location("MUN")), g.unit_point(Location("BUR"))
    assert blocked(mun, bur, swi)  # the straight line crossed it (issue 28)
    path = route(mun, bur, [swi])
    assert len(path) > 2 and path[0] == mun and path[-1] == bur
    assert not any(blocked(a, b, swi) for a, b in itertools.pairwise(path))
    root = ET.fromstring(report_svg(g, _fall1901()))
    for el in root.iter():
        if {"order", "move"} <= _classes(el):
            pts = _points(next(el.iter(f"{NS}polyline")).get("points"))
            assert not any(blocked(a, b, swi) for a, b in itertools.pairwise(pts)), el.attrib


def test_a_convoyed_move_is_drawn_through_its_fleet():
    g = geometry_for(load_variant())
    root = ET.fromstring(report_svg(g, _fall1901()))  # A YOR - BEL, convoyed by F NTH
    (convoyed,) = [el for el in root.iter() if {"move", "convoyed"} <= _classes(el)]
    pts = _points(next(convoyed.iter(f"{NS}polyline")).get("points"))
    assert g.unit_point(Location("NTH")) in pts and len(pts) == 3


def _marks(root) -> set[str]:
    return {el.get("data-mark") for el in root.iter() if "key" in _classes(el)}


def test_the_legend_explains_every_mark_drawn():
    g = geometry_for(load_variant())
    root = ET.fromstring(report_svg(g, _fall1901()))
    assert _marks(root) == {
        "army",
        "fleet",
        "centre",
        "coast",
        "move",
        "convoyed",
        "bounced",
        "failed",
        "support",
        "convoy",
        "hold",
        "dislodged",
        "retreat_option",
    }
    key = {el.text for el in root.iter(f"{NS}text")}
    assert {"move by convoy", "dislodged", "may retreat to", "bounced"} <= key
    # an opening with no orders explains only what it shows
    assert _marks(ET.fromstring(board_svg(g, Position.initial(load_variant())))) == {
        "army",
        "fleet",
        "centre",
        "coast",
    }


def test_the_legend_explains_build_and_void_rings():
    from payjudge.rules.orders import Unit
    from payjudge.rules.phase import Phase

    m = load_variant()
    pos = Position(
        m,
        Phase.parse("W1901A"),
        {
            "FRANCE": (Unit.parse("A MAR"),),
            "GERMANY": tuple(Unit.parse(u) for u in ("A KIE", "A MUN", "A HOL")),
        },
        {"FRANCE": frozenset({"PAR", "BRE", "MAR"}), "GERMANY": frozenset({"BER", "KIE", "MUN"})},
    )
    report, _ = advance(pos, {"FRANCE": ["BUILD A PAR"], "GERMANY": ["BUILD A BER"]})
    root = ET.fromstring(report_svg(geometry_for(m), report))
    assert {"built", "void_build"} <= _marks(root)
    assert {"built", "build not made"} <= {el.text for el in root.iter(f"{NS}text")}


def test_a_blind_legend_counts_only_what_the_viewer_can():
    report = _fall1901()
    g = geometry_for(report.before.map)
    root = ET.fromstring(board_svg(g, report.before, report.outcomes, viewer="FRANCE"))
    rows = {el.get("data-power"): el for el in root.iter() if "power" in _classes(el)}
    assert rows["FRANCE"].get("data-centers") == "3"
    assert "France  3 centres, 4 units" in {t.text for t in rows["FRANCE"].iter(f"{NS}text")}
    for power in set(rows) - {"FRANCE"}:
        assert rows[power].get("data-centers") == "?"
        (text,) = [t.text for t in rows[power].iter(f"{NS}text")]
        assert text.endswith("? centres, ? units") and "0" not in text


def test_the_standard_map_needs_no_inset():
    report = _fall1901()
    root = ET.fromstring(report_svg(geometry_for(report.before.map), report))
    assert not [el for el in root.iter() if "inset" in _classes(el)]


@pytest.mark.skipif(not MAPS.is_dir() or shutil.which("gs") is None, reason="needs DPjudge's maps and gs")
def test_youngstown_gets_a_legible_inset_of_europe(tmp_path_factory):
    from tests.render.test_golden_pictures import YOUNGSTOWN_SPRING

    m = load_map_file(MAPS / "youngstown.map", [MAPS])
    report, _ = advance(Position.initial(m), YOUNGSTOWN_SPRING)
    cache = tmp_path_factory.getbasetemp() / "drawings"  # shared with the golden pictures
    g = geometry_for(m, MAPS, cache)
    assert g.detail  # the drawing, larger, to cut the inset from
    assert len(list(cache.glob("youngstown-*.detail"))) == 1  # kept with the drawing
    root = ET.fromstring(report_svg(g, report))
    (inset,) = [el for el in root.iter() if el.get("class") == "inset"]
    assert float(inset.get("width")) == 1000.0 and 300 < float(inset.get("height")) <= 560
    moved = [g.unit_point(o.order.unit.location) for o in report.outcomes if type(o.order).__name__ == "Move"]
    (plan,) = plan_insets(g, moved, LEGIBLE)
    assert plan.scale >= 2.0
    x0, y0, x1, y1 = plan.box
    europe = [g.unit_point(Location(p)) for p in ("PAR", "MUN", "VIE", "VEN", "BUD", "BER")]
    assert all(x0 <= x <= x1 and y0 <= y <= y1 for x, y in europe)
    # in the inset, European units stand apart: no token overlaps another
    shown = [plan.point(g.unit_point(u.location)) for _, u in report.before.all_units()]
    shown = [p for p in shown if 0 <= p[0] <= 1000 and 0 <= p[1] <= plan.height]
    assert len(shown) >= 20
    for i, (x, y) in enumerate(shown):
        for xx, yy in shown[i + 1 :]:
            assert abs(x - xx) >= UNIT * 2 or abs(y - yy) >= UNIT * 1.2, ((x, y), (xx, yy))


def test_an_inset_moves_and_enlarges_every_point():
    g = geometry_for(load_variant())
    inset = Inset((100.0, 200.0, 600.0, 450.0), 2.0)
    z = inset.geometry(g)
    assert z.width == g.width and z.height == inset.height == 500.0
    px, py = g.provinces["PAR"].unit
    assert z.provinces["PAR"].unit == (round((px - 100) * 2, 1), round((py - 200) * 2, 1))
