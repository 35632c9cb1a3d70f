"""Every auction case as data: DPjudge's answers (rulebook-corrected) and the seeds' examples.

A case is one `payjudge auction` input with the expected outcome (format:
cases/dpjudge/README.md). Only the keys a case lists are compared; `orders_also` lists
other spellings that are just as right for a unit.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import payjudge.jsonapi.auction as api

HERE = Path(__file__).parent / "cases"
CASES = sorted(HERE.glob("*/*.json"))


def _check(out: dict, expected: dict) -> list[str]:
    problems = []
    also = expected.get("orders_also", {})
    for unit, order in expected.get("orders", {}).items():
        got = out["orders"].get(unit)
        if got != order and got not in also.get(unit, ()):
            problems.append(f"order of {unit}: expected {order}, got {got}")
    for key in ("totals", "spent", "balances", "reductions"):
        for name, value in expected.get(key, {}).items():
            if out[key].get(name) != value:
                problems.append(f"{key} of {name}: expected {value}, got {out[key].get(name)}")
    for key in ("ignored", "normalized"):  # BLIND (Tin Cup): the offers silently ignored
        for name, value in expected.get(key, {}).items():
            if out[key].get(name, []) != value:
                problems.append(f"{key} of {name}: expected {value}, got {out[key].get(name)}")
    for power, rejected in expected.get("sheet_rejected", {}).items():
        if bool(out["errors"].get(power)) != rejected:
            problems.append(
                f"{power}'s sheet rejected: expected {rejected}, errors {out['errors'].get(power)}"
            )
    return problems


def test_all_cases_are_there():
    assert len(list((HERE / "dpjudge").glob("*.json"))) == 126
    assert len(list((HERE / "seeds").glob("*.json"))) >= 10


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_case(path):
    case = json.loads(path.read_text())
    out = api.run(case["input"])
    assert _check(out, case["expected"]) == [], case["about"]
    assert len(out["orders"]) == sum(len(us) for us in case["input"]["units"].values())


@pytest.mark.parametrize("method", ["literal", "lines"])
@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_case_reductions_agree(path, method):
    """The round-by-round procedure of rule 5.5, and the line-and-pattern one without its
    literal shortcut, give the very same output as the default."""
    case = json.loads(path.read_text())
    fast = api.run(case["input"])
    assert api.run(case["input"], method=method) == fast
