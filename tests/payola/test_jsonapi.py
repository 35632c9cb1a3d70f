"""`payjudge auction` (shared/spec/judge-json.md): the contract's keys, bad input, --jsonl."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from payjudge.jsonapi import BadInput
from payjudge.jsonapi.auction import run

SPEC_EXAMPLE = {
    "variant": "standard",
    "phase": "S1901M",
    "units": {"FRANCE": ["A PAR", "A MAR", "F BRE"], "GERMANY": ["A MUN", "A BER", "F KIE"]},
    "centers": {"FRANCE": ["BRE", "MAR", "PAR"], "GERMANY": ["BER", "KIE", "MUN"]},
    "balances": {"FRANCE": 48, "GERMANY": 48},
    "accept": {"FRANCE": "FG", "GERMANY": "G?"},
    "sheets": {
        "FRANCE": "12 : A PAR - BUR\n3*2#1 > A MAR - SPA | - PIE\n10 $ % keep some",
        "GERMANY": "5 ! A PAR - BUR",
    },
    "rules": ["EBAYOLA"],
    "dummies": [],
    "seed": 7,
}


def test_contract_keys():
    out = run(SPEC_EXAMPLE)
    for key in ("orders", "totals", "spent", "balances", "reductions", "paid", "errors", "ledgers"):
        assert key in out
    assert set(out["orders"]) == {"A PAR", "A MAR", "F BRE", "A MUN", "A BER", "F KIE"}
    assert out["errors"] == {"FRANCE": [], "GERMANY": []}
    for power, items in out["paid"].items():
        assert sum(x["amount"] for x in items) == out["spent"][power]
        assert all(set(x) == {"unit", "order", "amount"} for x in items)
    assert set(out["ledgers"]) == {"FRANCE", "GERMANY"}
    # EBAYOLA: A PAR's 12 for BUR against the 5 of Germany's negative offer for HOLD
    assert out["orders"]["A PAR"] == "A PAR - BUR" and out["totals"]["A PAR"] == 6


def test_errors_name_line_and_reason():
    doc = dict(SPEC_EXAMPLE, sheets={"FRANCE": "3 : A PAR - BUR\n5 ; A MUN H\n0 : A MUN H"})
    out = run(doc)
    assert len(out["errors"]["FRANCE"]) == 2
    assert out["errors"]["FRANCE"][0].startswith("line 2: ")
    assert out["errors"]["FRANCE"][1].startswith("line 3: ")
    assert out["spent"]["FRANCE"] == 0 and out["orders"]["A PAR"] == "A PAR H"


@pytest.mark.parametrize(
    "change",
    [
        {"variant": "narnia"},
        {"phase": "F1901R"},
        {"balances": {"FRANCE": -1}},
        {"balances": {"NARNIA": 1}},
        {"accept": {"FRANCE": "FX"}},
        {"sheets": {"FRANCE": 3}},
        {"rules": "EBAYOLA"},
        {"seed": "x"},
        {"units": {"FRANCE": ["A XYZ"]}},
        {"dummies": ["NARNIA"]},
        {"rules": ["TOUCH_BRIBE", "REMOTE_BRIBE"]},
    ],
)
def test_bad_input(change):
    with pytest.raises(BadInput):
        run({**SPEC_EXAMPLE, **change})


def test_cli_jsonl_and_exit_status(tmp_path):
    lines = [json.dumps(SPEC_EXAMPLE), json.dumps({**SPEC_EXAMPLE, "variant": "narnia"}), "{oops"]
    path = tmp_path / "cases.jsonl"
    path.write_text("\n".join(lines) + "\n")
    done = subprocess.run(
        [sys.executable, "-m", "payjudge.cli", "auction", "--jsonl", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    results = [json.loads(x) for x in done.stdout.splitlines()]
    assert results[0]["orders"]["A PAR"] == "A PAR - BUR"
    assert "error" in results[1] and "error" in results[2]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**SPEC_EXAMPLE, "phase": "W1901A"}))
    done = subprocess.run(
        [sys.executable, "-m", "payjudge.cli", "auction", str(bad)], capture_output=True, text=True
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1


def test_defaults():
    """Absent keys: start position, no money, own-first acceptance lists, seed 0."""
    out = run({"sheets": {"FRANCE": "A PAR - BUR"}})
    assert out["orders"]["A PAR"] == "A PAR - BUR" and out["spent"]["FRANCE"] == 0
    assert len(out["orders"]) == 22
