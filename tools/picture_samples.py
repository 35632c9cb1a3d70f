"""Draw the sample pictures of docs/pictures.md: the standard map's Fall 1901,
youngstown's Spring 1901 on DPjudge's drawing (read in place from ../shared/dpjudge-maps),
and a part of imperial's Spring 1861 at the size it is mailed.

    python tools/picture_samples.py docs/pictures after

Run from another tree (PYTHONPATH=/path/to/old/tree) with the word `before` to draw the
same phases with an older renderer, for the side-by-side comparison.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from pathlib import Path

from payjudge.jsonapi.common import position
from payjudge.render.board import report_svg
from payjudge.render.files import geometry_for
from payjudge.render.raster import png
from payjudge.rules.geography import Map, UnitType
from payjudge.rules.mapfile import load_map_file
from payjudge.rules.position import Position
from payjudge.rules.turn import advance

HERE = Path(__file__).resolve().parent.parent
MAPS = HERE.parent / "shared" / "dpjudge-maps" / "maps"
ZOOM = {"standard": 0.5, "youngstown": 0.6}  # small files for the docs
MAIL_LIMIT = 450_000  # as game/pictures.py has it
IMPERIAL_PART = (17.5, 355.3, 317.5, 691.4)  # the west half of the first inset, in board units
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


def main(out: Path, tag: str) -> None:
    out.mkdir(parents=True, exist_ok=True)
    doc = json.loads((HERE / "tests" / "render" / "fall1901.json").read_text())
    report, _ = advance(position(doc), doc["orders"][0])
    svg = report_svg(geometry_for(report.before.map), report)
    (out / f"standard-F1901M-{tag}.png").write_bytes(png(svg, zoom=ZOOM["standard"]))
    young = load_map_file(MAPS / "youngstown.map", [MAPS])
    report, _ = advance(Position.initial(young), YOUNGSTOWN_SPRING)
    with tempfile.TemporaryDirectory() as cache:
        svg = report_svg(geometry_for(young, MAPS, Path(cache)), report)
    (out / f"youngstown-S1901M-{tag}.png").write_bytes(png(svg, zoom=ZOOM["youngstown"]))
    (out / f"imperial-S1861M-{tag}.png").write_bytes(_imperial(tag))


def _opening(m: Map) -> dict[str, list[str]]:
    """Every unit moves to its first neighbour, alphabetically (as tests/render/test_readable.py)."""
    orders: dict[str, list[str]] = {}
    pos = Position.initial(m)
    for power, unit in pos.all_units():
        letter = "A" if unit.type is UnitType.ARMY else "F"
        if unit.type is UnitType.ARMY:
            dests = sorted(m.army_neighbours(unit.location.province))
        else:
            dests = sorted(str(loc) for loc in m.fleet_neighbours(unit.location))
        orders.setdefault(power, []).append(
            f"{letter} {unit.location} - {dests[0]}" if dests else f"{letter} {unit.location} H"
        )
    return orders


def _crop(svg: str, box: tuple[float, float, float, float], zoom: float) -> bytes:
    """The part `box` of the picture (in its own units) at `zoom`."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    head = f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="{x0} {y0} {w} {h}"'
    return png(
        re.sub(r'^<svg xmlns="http://www.w3.org/2000/svg" [^>]*?viewBox="[^"]*"', head, svg), zoom=zoom
    )


def _imperial(tag: str) -> bytes:
    """Before: the one tall picture, shrunk as the mail shrank it. After: the first inset's
    sheet, as mailed. Both cut to the same part of the board."""
    m = load_map_file(MAPS / "imperial.map", [MAPS])
    report, _ = advance(Position.initial(m), _opening(m))
    with tempfile.TemporaryDirectory() as cache:
        g = geometry_for(m, MAPS, Path(cache))
    if tag == "before":
        svg = report_svg(g, report)
        size = len(png(svg))
        return _crop(svg, IMPERIAL_PART, max(0.4, (MAIL_LIMIT / size) ** 0.5) if size > MAIL_LIMIT else 1.0)
    from payjudge.render.board import CAPTION, picture_sheets
    from payjudge.render.insets import plan_insets
    from payjudge.render.layers import Layers
    from payjudge.render.picture import Picture

    picture = Picture(report.before, report.outcomes, report.dislodged)
    main = Layers(g, picture)
    main.draw_board()
    inset = plan_insets(g, main.action, main.crowded())[0]
    (x0, y0), (x1, y1) = inset.point(IMPERIAL_PART[:2]), inset.point(IMPERIAL_PART[2:])
    return _crop(picture_sheets(g, picture)[1], (x0, y0 + CAPTION, x1, y1 + CAPTION), 1.0)


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2])
