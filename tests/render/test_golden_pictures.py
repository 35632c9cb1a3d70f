"""Golden pictures (issue 28): a few phases of the standard map and of youngstown (on
DPjudge's drawing, read in place from ../shared/dpjudge-maps), compared with the pictures
kept in tests/render/golden/ by the share of pixels that differ, under a threshold — not
by bytes, so a new resvg or font hinting does not fail them, but a moved name, arrow or
unit does.

`PAYJUDGE_UPDATE_GOLDEN=1` draws them again (then look at them: only intended changes).
They are compared at `ZOOM`, which keeps the pure-Python PNG reading quick.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from payjudge.jsonapi.common import position
from payjudge.render.board import board_svg, report_svg
from payjudge.render.files import geometry_for
from payjudge.render.raster import png
from payjudge.rules.mapfile import load_map_file, load_variant
from payjudge.rules.orders import Unit
from payjudge.rules.phase import Phase
from payjudge.rules.position import Position
from payjudge.rules.turn import advance
from tests.pngread import difference

GOLDEN = Path(__file__).parent / "golden"
CASE = Path(__file__).parent / "fall1901.json"
MAPS = Path("/work/shared/dpjudge-maps/maps")
ZOOM = 0.4
THRESHOLD = 0.004  # at most 0.4 % of the pixels may differ
UPDATE = os.environ.get("PAYJUDGE_UPDATE_GOLDEN") == "1"

YOUNGSTOWN_SPRING = {
    "ENGLAND": ["F LON - ENG", "F EDI - NTH", "F LVP - IRI"],
    "FRANCE": ["A PAR - BUR", "A MAR - PIE", "F BRE - MAO"],
    "GERMANY": ["A MUN - BUR", "A BER - KIE", "F KIE - DEN"],
    "ITALY": ["A VEN - TYR", "A ROM - APU", "F NAP - ION"],
    "AUSTRIA": ["A VIE - GAL", "A BUD - SER", "F TRI - ADR"],
    "RUSSIA": ["A WAR - GAL", "A MOS - UKR", "F SEV - BLA"],
    "TURKEY": ["A CON - BUL", "F ANK - BLA", "A SMY - ARM"],
    "JAPAN": ["F TOK - SEA"],
    "CHINA": ["A PEK - MAN"],
}
YOUNGSTOWN_FALL = {
    "ENGLAND": ["F NTH - NWY", "F ENG - BEL", "F IRI - MAO"],
    "FRANCE": ["A PAR - BUR", "A PIE - TYR", "F MAO - SPA/NC"],
    "GERMANY": ["A MUN S A PAR - BUR", "A KIE - HOL", "F DEN - SWE"],
    "ITALY": ["A TYR - VEN", "A APU - ROM", "F ION - GRE"],
    "AUSTRIA": ["A SER - BUL", "F ADR - ALB", "A VIE - GAL", "A KLU S A VIE - GAL"],
    "RUSSIA": ["A UKR - RUM", "A WAR - GAL", "F SEV - BLA"],
    "TURKEY": ["A BUL - SER", "F ANK - CON", "A ARM - SEV"],
}


def _fall1901() -> str:
    doc = json.loads(CASE.read_text())
    report, _ = advance(position(doc), doc["orders"][0])
    return report_svg(geometry_for(report.before.map), report)


def _fall1901_retreats() -> str:
    doc = json.loads(CASE.read_text())
    _, after = advance(position(doc), doc["orders"][0])
    return board_svg(geometry_for(after.map), after)


def _spring1901() -> str:
    m = load_variant()
    orders = {
        "ENGLAND": ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"],
        "FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"],
        "GERMANY": ["A MUN - BUR", "A BER - KIE", "F KIE - DEN"],
        "ITALY": ["A VEN - TYR", "A ROM - APU", "F NAP - ION"],
        "AUSTRIA": ["A VIE - GAL", "A BUD - SER", "F TRI - ALB"],
        "RUSSIA": ["A WAR - GAL", "A MOS - UKR", "F SEV - BLA", "F STP/SC - BOT"],
        "TURKEY": ["A CON - BUL", "F ANK - BLA", "A SMY - ARM"],
    }
    report, _ = advance(Position.initial(m), orders)
    return report_svg(geometry_for(m), report)


def _winter1901() -> str:
    m = load_variant()
    units = {
        "FRANCE": ["A MAR", "F BRE"],
        "GERMANY": ["A KIE", "A MUN", "A HOL"],
        "ITALY": ["A VEN", "F ION"],
    }
    centres = {
        "FRANCE": frozenset({"PAR", "BRE", "MAR"}),
        "GERMANY": frozenset({"BER", "KIE", "MUN"}),
        "ITALY": frozenset({"ROM", "NAP"}),
    }
    pos = Position(
        m, Phase.parse("W1901A"), {p: tuple(Unit.parse(u) for u in us) for p, us in units.items()}, centres
    )
    orders = {"FRANCE": ["BUILD A PAR"], "GERMANY": ["BUILD A BER"], "ITALY": ["REMOVE A VEN"]}
    report, _ = advance(pos, orders)
    return report_svg(geometry_for(m), report)


def _youngstown(cache: Path) -> str:
    m = load_map_file(MAPS / "youngstown.map", [MAPS])
    report, _ = advance(Position.initial(m), YOUNGSTOWN_SPRING)
    return report_svg(geometry_for(m, MAPS, cache), report)


def _youngstown_fall(cache: Path) -> str:
    m = load_map_file(MAPS / "youngstown.map", [MAPS])
    _, after = advance(Position.initial(m), YOUNGSTOWN_SPRING)
    report, _ = advance(after, YOUNGSTOWN_FALL)
    return report_svg(geometry_for(m, MAPS, cache), report)


needs_drawings = pytest.mark.skipif(
    not MAPS.is_dir() or shutil.which("gs") is None, reason="needs DPjudge's maps and Ghostscript"
)

CASES: dict[str, Callable[[Path], str]] = {
    "standard-S1901M": lambda _: _spring1901(),
    "standard-F1901M": lambda _: _fall1901(),
    "standard-F1901R": lambda _: _fall1901_retreats(),
    "standard-W1901A": lambda _: _winter1901(),
    "youngstown-S1901M": _youngstown,
    "youngstown-F1901M": _youngstown_fall,
}


@pytest.mark.parametrize(
    "name",
    [pytest.param(n, marks=needs_drawings) if n.startswith("youngstown") else n for n in CASES],
)
def test_golden_picture(name, tmp_path_factory):
    cache = tmp_path_factory.getbasetemp() / "drawings"
    drawn = png(CASES[name](cache), zoom=ZOOM)
    path = GOLDEN / f"{name}.png"
    if UPDATE or not path.is_file():
        path.write_bytes(drawn)
        if not UPDATE:
            pytest.fail(f"{path.name} was missing: drawn now, look at it and commit it")
    share = difference(path.read_bytes(), drawn)
    if share > THRESHOLD:
        (tmp_path_factory.getbasetemp() / path.name).write_bytes(drawn)
    assert share <= THRESHOLD, f"{share:.2%} of {name}'s pixels differ (see {tmp_path_factory.getbasetemp()})"
