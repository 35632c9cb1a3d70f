"""DPjudge's drawings (issue 13 item 3): a map installed with its `.ps` is pictured on it
(Ghostscript renders the base map, units and orders go on top at the INFO points); a map
without one, or with one that does not fit, gets a schematic picture.

The drawings are read from ../shared/dpjudge-maps, never copied here."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from payjudge.cli import main
from payjudge.render.board import board_svg
from payjudge.render.drawing import Drawing, load_drawing
from payjudge.render.files import geometry_for
from payjudge.render.raster import png
from payjudge.rules.geography import Location
from payjudge.rules.mapfile import load_map_file, load_variant
from payjudge.rules.position import Position
from tests.pngread import colour_counts, near, pixel, read_png

DPJUDGE = Path("/work/shared/dpjudge-maps")
MAPS = DPJUDGE / "maps"
pytestmark = pytest.mark.skipif(
    not MAPS.is_dir(), reason="DPjudge's maps (../shared/dpjudge-maps) are not here"
)
needs_gs = pytest.mark.skipif(
    shutil.which("gs") is None, reason="Ghostscript is not installed: apt-get install ghostscript"
)
DP_SEA = "#196699"  # the sea of DPjudge's drawings (25, 102, 153)


def test_the_info_block_and_the_centre_marks_are_read():
    d = Drawing.read((MAPS / "fiveman.ps").read_text(encoding="latin-1"))
    assert d.info["ADR"] == (311.0, 155.0) and d.info["BUL/EC"] == (448.0, 151.0)
    assert d.supplies["POL"] == (368.0, 286.0) and len(d.supplies) == 27
    fiveman = load_map_file(MAPS / "fiveman.map", [MAPS])
    assert d.problems(fiveman) == []
    # a translated drawing lists its INFO lines in another language after them: ignored
    dutch = Drawing.read((DPJUDGE / "trials" / "standard_dutch.ps").read_text(encoding="latin-1"))
    assert "GAME" not in dutch.info and dutch.info["ADR"] == (311.0, 155.0)
    # imperial's drawing names some provinces otherwise than its map: not a drawing of it
    imperial = load_map_file(MAPS / "imperial.map", [MAPS])
    assert Drawing.read((MAPS / "imperial.ps").read_text(encoding="latin-1")).problems(imperial)


@needs_gs
def test_a_map_installed_with_its_drawing_is_pictured_on_it(tmp_path, monkeypatch):
    maps = tmp_path / "maps"
    monkeypatch.setenv("PAYJUDGE_MAPS_DIR", str(maps))
    monkeypatch.setenv("PAYJUDGE_DATA_DIR", str(tmp_path))
    result = CliRunner().invoke(main, ["map", "install", str(MAPS / "fiveman.map")])
    assert result.exit_code == 0, result.output
    assert "installed its drawing fiveman.ps" in result.output
    assert (maps / "fiveman.ps").read_bytes() == (MAPS / "fiveman.ps").read_bytes()

    m = load_variant("fiveman", maps)
    cache = tmp_path / "pictures" / "maps"
    g = geometry_for(m, maps, cache)
    assert g.background and g.background.startswith("data:image/png;base64,")
    assert g.width == 1000.0 and 800 < g.height < 950
    assert len(list(cache.glob("fiveman-*.png"))) == 1  # Ghostscript ran once, kept
    # fiveman's provinces stand apart: no inset, so no larger rendering to cut one from
    assert g.detail is None and not list(cache.glob("*.detail"))
    pos = Position.initial(m)
    svg = board_svg(g, pos)
    root = ET.fromstring(svg)
    assert [el.get("class") for el in root.iter() if el.tag.endswith("image")] == ["drawing"]
    # no province outlines of our own: the drawing is the map
    assert not [el for el in root.iter() if (el.get("class") or "").startswith("province")]
    data = png(svg)
    _width, _height, rows = read_png(data)
    colours = colour_counts(data)
    sea = sum(n for c, n in colours.items() if near(c, DP_SEA))
    assert sea > 0.15 * sum(colours.values())  # DPjudge's sea, not ours
    # a unit stands where the INFO block puts its province: Paris's army, in France's colour
    x, y = g.unit_point(Location("PAR"))
    assert near(pixel(rows, round(x), round(y) - 4), "#3aa0e6", 30)
    # an INFO point lands on the drawing's own label of the province: ADR is in the sea
    ax, ay = g.provinces["ADR"].unit
    assert any(near(pixel(rows, round(ax) + dx, round(ay) + 12), DP_SEA) for dx in (-6, 0, 6))

    # the same file again reads the cached base map (no Ghostscript)
    monkeypatch.setattr("payjudge.render.drawing.ghostscript", lambda: None)
    again = load_drawing(maps / "fiveman.ps", m, cache)
    assert again.background == g.background


def test_without_a_drawing_the_picture_is_schematic(tmp_path):
    maps = tmp_path / "maps"
    maps.mkdir()
    shutil.copyfile(MAPS / "fiveman.map", maps / "fiveman.map")
    m = load_variant("fiveman", maps)
    g = geometry_for(m, maps)
    assert g.schematic and g.background is None
    data = png(board_svg(g, Position.initial(m)))
    assert not any(near(c, DP_SEA) for c in colour_counts(data, step=4))


def test_a_drawing_that_does_not_fit_is_refused_or_passed_over(tmp_path, monkeypatch):
    maps = tmp_path / "maps"
    monkeypatch.setenv("PAYJUDGE_MAPS_DIR", str(maps))
    run = CliRunner().invoke
    wrong = run(main, ["map", "install", str(MAPS / "fiveman.map"), "--drawing", str(MAPS / "hundred.ps")])
    assert wrong.exit_code != 0 and "hundred.ps is not a drawing of fiveman" in wrong.output
    # a drawing put there by hand that does not fit: the picture is schematic, never missing
    assert run(main, ["map", "install", str(MAPS / "fiveman.map")]).exit_code == 0
    (maps / "fiveman.ps").write_bytes((MAPS / "hundred.ps").read_bytes())
    m = load_variant("fiveman", maps)
    assert geometry_for(m, maps).schematic
