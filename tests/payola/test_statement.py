"""The private account statement (rule 5.7) rendered from `templates/statement.txt.j2`:
each `statements/<name>.json` is an auction input, `<name>.<POWER>.txt` the statement."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from payjudge.jsonapi.auction import run

HERE = Path(__file__).parent / "statements"
GOLDEN = sorted(HERE.glob("*.txt"))


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_statement(path):
    name, power = path.stem.split(".")
    out = run(json.loads((HERE / f"{name}.json").read_text()))
    assert out["ledgers"][power] == path.read_text()


def test_no_ledgers_but_money_moves():
    doc = json.loads((HERE / "plain.json").read_text())
    doc["rules"] = ["NO_LEDGERS"]
    out = run(doc)
    assert out["ledgers"] == {}
    assert out["spent"]["FRANCE"] == 10 and out["balances"]["FRANCE"] == 10


def test_pay_dummies_statement_has_no_unit_rows():
    doc = {
        "phase": "S1901M",
        "balances": {"FRANCE": 20},
        "rules": ["PAY_DUMMIES"],
        "dummies": ["GERMANY"],
        "sheets": {"FRANCE": "A PAR - BUR\nA MAR H\nF BRE H\n3 : A MUN - RUH"},
    }
    out = run(doc)
    assert out["errors"]["FRANCE"] == []
    assert out["orders"]["A PAR"] == "A PAR - BUR" and out["orders"]["A MUN"] == "A MUN - RUH"
    assert "Your units" not in out["ledgers"]["FRANCE"]
    assert "3  A MUN - RUH" in out["ledgers"]["FRANCE"]
    assert "GERMANY" not in out["ledgers"]
