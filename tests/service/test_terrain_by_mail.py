"""A game by mail on DPjudge's loeb9, whose Arctic Ocean is water in spring only (`IN
SPRING: WATER ARC`) and whose RULE line is HIBERNATE (seed 003 §1.3): a fleet in the Arctic
when the fall comes stays there and may only hold; in spring it sails."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from payjudge.cli import main
from payjudge.game.state import GameState, find_game
from payjudge.rules.geography import Location, UnitType
from payjudge.rules.orders import Unit
from payjudge.rules.serial import position_to_json

from .judge import TestJudge

DPJUDGE = Path(__file__).resolve().parents[3] / "shared" / "dpjudge-maps"
if not DPJUDGE.is_dir():
    DPJUDGE = Path("/work/shared/dpjudge-maps")
pytestmark = pytest.mark.skipif(
    not DPJUDGE.is_dir(), reason="DPjudge's map files (../shared/dpjudge-maps) are not here"
)
GM = "gm@pj.test"
MASTER = "SIGNON Mloe1 masterpw"


def test_a_fleet_in_the_arctic_hibernates_in_the_fall(database, tmp_path, monkeypatch):
    maps_dir = tmp_path / "maps"
    monkeypatch.setenv("PAYJUDGE_MAPS_DIR", str(maps_dir))
    monkeypatch.setenv("PAYJUDGE_DATA_DIR", str(tmp_path / "data"))
    result = CliRunner().invoke(main, ["map", "install", str(DPJUDGE / "maps" / "loeb9.map")])
    assert result.exit_code == 0, result.output
    judge = TestJudge(database)
    judge.config = replace(judge.config, maps_dir=str(maps_dir))
    judge.send(GM, "CREATE loe1 masterpw\nRULE POWER_CHOICE\nMAP loeb9\nSIGNOFF\n")
    assert "created on the loeb9 map" in judge.last_reply(GM)
    with judge.db.transaction() as s:
        st = GameState(s, find_game(s, "loe1"), maps_dir)
        powers = list(st.map.power_names)
    for p in powers:
        judge.send(f"{p.lower()}@pj.test", f"JOIN {p.lower()}@loe1 pw-{p.lower()}\n")
    with judge.db.transaction() as s:  # a Russian fleet sails the Arctic in the spring
        st = GameState(s, find_game(s, "loe1"), maps_dir)
        pos = st.position
        assert str(pos.phase) == "S1901M"
        russian = (*pos.units["RUSSIA"], Unit(UnitType.FLEET, Location("ARC")))
        st.turn.position = position_to_json(pos.replace(units={**pos.units, "RUSSIA": russian}))
    russia = "russia@pj.test"
    judge.send(russia, "SIGNON Rloe1 pw-russia\n0 : F ARC - BAR\n")  # open water in spring
    assert "NOT processed" not in judge.last_reply(russia)
    judge.send(russia, "SIGNON Rloe1 pw-russia\n0 : F ARC H\n")  # this sheet replaces it
    assert "NOT processed" not in judge.last_reply(russia)
    judge.send(GM, f"{MASTER}\nPROCESS!\n")
    with judge.db.transaction() as s:
        st = GameState(s, find_game(s, "loe1"), maps_dir)
        assert str(st.game.phase) == "F1901M"
        assert "F ARC" in {str(u) for u in st.position.units["RUSSIA"]}
    judge.send(russia, "SIGNON Rloe1 pw-russia\n0 : F ARC - BAR\n")
    reply = " ".join(judge.last_reply(russia).split())
    assert "NOT processed" in reply and "hibernating" in reply
    judge.send(russia, "SIGNON Rloe1 pw-russia\n0 : F ARC H\n")
    assert "NOT processed" not in judge.last_reply(russia)
