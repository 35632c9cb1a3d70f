"""`payjudge render`: a keeper draws a stored game's phase, or a judge-json case."""

from __future__ import annotations

import struct
import xml.etree.ElementTree as ET
from pathlib import Path

from click.testing import CliRunner

from payjudge.cli import main
from payjudge.store.db import Database
from tests.dbfix import migrated_sqlite
from tests.service.judge import TestJudge

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
GM = "gm@pj.test"
CASE = Path(__file__).parent / "fall1901.json"


def _addr(power: str) -> str:
    return f"{power.lower()}@pj.test"


def _play_spring(judge: TestJudge) -> None:
    judge.send(GM, "CREATE pic7 masterpw\nRULE POWER_CHOICE\nTIMING MOVE 2D\nSIGNOFF\n")
    for p in POWERS:
        judge.send(_addr(p), f"JOIN {p.lower()}@pic7 pw-{p.lower()}\n")
    judge.send(_addr("FRANCE"), "SIGNON Fpic7 pw-france\n3 : A PAR - BUR\n2 : A MAR S A PAR - BUR\n")
    judge.send(_addr("GERMANY"), "SIGNON Gpic7 pw-germany\n3 : A MUN - BUR\n")
    holds = {"AUSTRIA": "A VIE", "ENGLAND": "F LON", "ITALY": "A ROM", "RUSSIA": "A MOS", "TURKEY": "A CON"}
    for p, unit in holds.items():  # everyone has a sheet, so the phase is processed
        judge.send(_addr(p), f"SIGNON {p[0]}pic7 pw-{p.lower()}\n1 : {unit} H\n")
    judge.tick(days=3)


def test_render_a_stored_game(tmp_path, monkeypatch):
    url = migrated_sqlite(tmp_path / "judge.sqlite")
    db = Database(url)
    judge = TestJudge(db)
    _play_spring(judge)
    monkeypatch.setenv("PAYJUDGE_DB_URL", url)
    monkeypatch.setenv("PAYJUDGE_DATA_DIR", str(tmp_path))
    run = CliRunner().invoke
    out = tmp_path / "spring.svg"
    result = run(main, ["render", "pic7", "S1901M", "-o", str(out)])
    assert result.exit_code == 0, result.output
    root = ET.fromstring(out.read_text())
    moves = {el.get("class") for el in root.iter() if el.get("class", "").startswith("order move")}
    assert moves == {"order move", "order move failed bounced"}  # PAR - BUR beats MUN - BUR
    supports = [el for el in root.iter() if el.get("class", "").startswith("order supportmove")]
    assert len(supports) == 1 and "failed" not in supports[0].get("class")
    assert [el.text for el in root.iter() if el.get("class") == "phase"] == ["Spring 1901 Movement"]
    # by default the last phase played, as PNG
    png_out = tmp_path / "last.png"
    result = run(main, ["render", "pic7", "-o", str(png_out)])
    assert result.exit_code == 0 and "S1901M" in result.output, result.output
    data = png_out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", data[16:24])[0] == 1000
    # the phase now open has no orders yet: its board alone
    result = run(main, ["render", "pic7", "F1901M", "-o", str(tmp_path / "now.svg")])
    assert result.exit_code == 0, result.output
    now = ET.fromstring((tmp_path / "now.svg").read_text())
    assert not [el for el in now.iter() if "order" in el.get("class", "").split()]
    assert any(
        el.get("data-location") == "BUR" and el.get("data-power") == "FRANCE"
        for el in now.iter()
        if "unit" in el.get("class", "").split()
    )
    assert run(main, ["render", "pic7", "W1999A", "-o", str(tmp_path / "x.svg")]).exit_code != 0
    assert run(main, ["render", "nope", "-o", str(tmp_path / "x.svg")]).exit_code != 0
    assert run(main, ["render", "pic7", "-o", str(tmp_path / "x.gif")]).exit_code != 0
    db.dispose()


def test_render_a_json_case(tmp_path):
    out = tmp_path / "case.png"
    result = CliRunner().invoke(main, ["render", "--json", str(CASE), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "F1901M" in result.output and out.read_bytes()[:4] == b"\x89PNG"
    bad = tmp_path / "bad.json"
    bad.write_text('{"units": {"NOBODY": ["A PAR"]}}')
    result = CliRunner().invoke(main, ["render", "--json", str(bad), "-o", str(out)])
    assert result.exit_code != 0 and "unknown power" in result.output
