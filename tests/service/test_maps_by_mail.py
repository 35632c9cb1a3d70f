"""Installed maps by mail: `payjudge map install` puts a DPjudge map in the maps directory,
`LIST MAPS` lists it, and `CREATE … MAP <name>` makes a game on it that starts and plays."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from payjudge.cli import main
from payjudge.game.state import GameState, find_game
from payjudge.rules.flags import Flag
from payjudge.rules.phase import Phase
from payjudge.vocabulary import GameStatus

from .judge import TestJudge

DPJUDGE = Path(__file__).resolve().parents[3] / "shared" / "dpjudge-maps"
if not DPJUDGE.is_dir():
    DPJUDGE = Path("/work/shared/dpjudge-maps")
pytestmark = pytest.mark.skipif(
    not DPJUDGE.is_dir(), reason="DPjudge's map files (../shared/dpjudge-maps) are not here"
)
GM = "gm@pj.test"
POWERS = ("CARTHAGE", "EGYPT", "GREECE", "PERSIA", "ROME")


def test_installed_map_is_listed_created_and_played(database, tmp_path, monkeypatch):
    maps_dir = tmp_path / "maps"
    monkeypatch.setenv("PAYJUDGE_MAPS_DIR", str(maps_dir))
    monkeypatch.setenv("PAYJUDGE_DATA_DIR", str(tmp_path / "data"))
    result = CliRunner().invoke(main, ["map", "install", str(DPJUDGE / "maps" / "ancmed.map")])
    assert result.exit_code == 0, result.output
    assert (maps_dir / "ancmed.map").is_file()

    judge = TestJudge(database)
    judge.config = replace(judge.config, maps_dir=str(maps_dir))
    judge.send(GM, "LIST MAPS\n")
    listing = judge.last_reply(GM)
    assert "ancmed" in listing and "5 powers, 34 centres, 18 to win" in listing
    assert "standard" in listing and "CARTHAGE" in listing

    judge.send(GM, "CREATE anc1 masterpw\nRULE POWER_CHOICE\nMAP ancmed\nSIGNOFF\n")
    assert "created on the ancmed map, with 5 seats" in judge.last_reply(GM)
    for p in POWERS:
        judge.send(f"{p.lower()}@pj.test", f"JOIN {p.lower()}@anc1 pw-{p.lower()}\n")
    with judge.db.transaction() as s:
        st = GameState(s, find_game(s, "anc1"), maps_dir)
        assert st.game.state is GameStatus.ACTIVE and st.game.phase == Phase.parse("S1M")
        assert sorted(str(u) for u in st.position.units["CARTHAGE"]) == ["A CAR", "A CIR", "F THA"]

    judge.send("carthage@pj.test", "SIGNON Canc1 pw-carthage\nA CAR H\n")
    assert "A CAR H" in judge.last_reply("carthage@pj.test").replace("HOLD", "H")


def test_an_unknown_map_is_refused_by_create(database, tmp_path):
    judge = TestJudge(database)
    judge.config = replace(judge.config, maps_dir=str(tmp_path / "none"))
    judge.send(GM, "CREATE anc2 masterpw\nMAP ancmed\nSIGNOFF\n")
    assert "unknown variant: ancmed" in judge.last_reply(GM)


def test_a_maps_rule_lines_are_in_force_in_its_games(database, tmp_path, monkeypatch):
    """minorpower.map says `RULE BUILD_ANY`: a game on it has BUILD_ANY in force, as if the
    Master had named it (issue 10 item 5)."""
    maps_dir = tmp_path / "maps"
    monkeypatch.setenv("PAYJUDGE_MAPS_DIR", str(maps_dir))
    monkeypatch.setenv("PAYJUDGE_DATA_DIR", str(tmp_path / "data"))
    result = CliRunner().invoke(main, ["map", "install", str(DPJUDGE / "maps" / "minorpower.map")])
    assert result.exit_code == 0, result.output
    judge = TestJudge(database)
    judge.config = replace(judge.config, maps_dir=str(maps_dir))
    judge.send(GM, "CREATE minor1 masterpw\nMAP minorpower\nSIGNOFF\n")
    assert "created on the minorpower map" in judge.last_reply(GM)
    judge.send(GM, "CREATE std1 masterpw\nSIGNOFF\n")
    with judge.db.transaction() as s:
        assert Flag.BUILD_ANY in GameState(s, find_game(s, "minor1"), maps_dir).rules
        assert Flag.BUILD_ANY not in GameState(s, find_game(s, "std1"), maps_dir).rules


def test_1898_starts_mobilized_by_its_rule_line(database, tmp_path, monkeypatch):
    """1898.map says `RULE MOBILIZE` and begins in Winter 1898: the game starts there with no
    unit on the board, and each power may build one unit (issue 10 item 5)."""
    maps_dir = tmp_path / "maps"
    monkeypatch.setenv("PAYJUDGE_MAPS_DIR", str(maps_dir))
    monkeypatch.setenv("PAYJUDGE_DATA_DIR", str(tmp_path / "data"))
    result = CliRunner().invoke(main, ["map", "install", str(DPJUDGE / "maps" / "1898.map")])
    assert result.exit_code == 0, result.output
    judge = TestJudge(database)
    judge.config = replace(judge.config, maps_dir=str(maps_dir))
    judge.send(GM, "CREATE mob1 masterpw\nRULE POWER_CHOICE\nMAP 1898\nSIGNOFF\n")
    assert "created on the 1898 map" in judge.last_reply(GM)
    powers = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
    for p in powers:
        judge.send(f"{p.lower()}@pj.test", f"JOIN {p.lower()}@mob1 pw-{p.lower()}\n")
    with judge.db.transaction() as s:
        st = GameState(s, find_game(s, "mob1"), maps_dir)
        assert st.game.state is GameStatus.ACTIVE and st.game.phase == Phase.parse("W1898A")
        assert not st.position.units
        assert Flag.MOBILIZE in st.rules
    judge.send("russia@pj.test", "SIGNON Rmob1 pw-russia\nBUILD F STP/SC\nBUILD A MOS\n")
    reply = judge.last_reply("russia@pj.test")
    assert "STP" in reply


def test_1898_opens_with_one_centre_each_the_one_built_on(database, tmp_path, monkeypatch):
    """MOBILIZE (seed 003): the powers begin with no units, no centres and one build. As in
    DPjudge a power owns the one centre it builds on, so the opening balance is one centre's
    income (17 AgP on 1898, not 48 or Russia's 62), and its other home centres are
    captured like any other (issue 26)."""
    from payjudge.game import money

    maps_dir = tmp_path / "maps"
    monkeypatch.setenv("PAYJUDGE_MAPS_DIR", str(maps_dir))
    monkeypatch.setenv("PAYJUDGE_DATA_DIR", str(tmp_path / "data"))
    result = CliRunner().invoke(main, ["map", "install", str(DPJUDGE / "maps" / "1898.map")])
    assert result.exit_code == 0, result.output
    judge = TestJudge(database)
    judge.config = replace(judge.config, maps_dir=str(maps_dir))
    judge.send(GM, "CREATE mob2 masterpw\nRULE POWER_CHOICE\nMAP 1898\nSIGNOFF\n")
    powers = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
    for p in powers:
        judge.send(f"{p.lower()}@pj.test", f"JOIN {p.lower()}@mob2 pw-{p.lower()}\n")
    with judge.db.transaction() as s:
        st = GameState(s, find_game(s, "mob2"), maps_dir)
        assert not any(st.position.centers.values())
        assert {p: money.balance(s, st.game, p) for p in powers} == dict.fromkeys(powers, 17)
    judge.send("russia@pj.test", "SIGNON Rmob2 pw-russia\nBUILD F STP/SC\n")
    assert "BUILD F STP/SC" in judge.last_reply("russia@pj.test")
    judge.send("france@pj.test", "SIGNON Fmob2 pw-france\nBUILD A MAR\n")
    judge.send(GM, "SIGNON Mmob2 masterpw\nPROCESS!\n")
    with judge.db.transaction() as s:
        st = GameState(s, find_game(s, "mob2"), maps_dir)
        assert st.game.phase == Phase.parse("S1899M")
        assert {p: sorted(cs) for p, cs in st.position.centers.items() if cs} == {
            "RUSSIA": ["STP"],
            "FRANCE": ["MAR"],
        }
