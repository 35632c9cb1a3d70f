"""Draw the sample pictures of docs/pictures.md: the standard map's Fall 1901 and
youngstown's Spring 1901 on DPjudge's drawing (read in place from ../shared/dpjudge-maps).

    python tools/picture_samples.py docs/pictures after

Run from another tree (PYTHONPATH=/path/to/old/tree) with the word `before` to draw the
same phases with an older renderer, for the side-by-side comparison.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from payjudge.jsonapi.common import position
from payjudge.render.board import report_svg
from payjudge.render.files import geometry_for
from payjudge.render.raster import png
from payjudge.rules.mapfile import load_map_file
from payjudge.rules.position import Position
from payjudge.rules.turn import advance

HERE = Path(__file__).resolve().parent.parent
MAPS = HERE.parent / "shared" / "dpjudge-maps" / "maps"
ZOOM = {"standard": 0.5, "youngstown": 0.6}  # small files for the docs
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


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2])
