"""Every DATC v3.1 case of chapter 6, from the project's own case files."""

from __future__ import annotations

import pytest

from payjudge.rules.errors import OrderError
from payjudge.rules.mapfile import load_variant
from payjudge.rules.orders import Unit
from payjudge.rules.parse import parse_order, parse_unit
from payjudge.rules.phase import Phase
from payjudge.rules.position import Position
from payjudge.rules.turn import advance
from payjudge.rules.validate import validate

from .datc_format import read_cases

CASES = read_cases()
STANDARD = load_variant("standard")


def _unit(text: str) -> Unit:
    spec = parse_unit(text, STANDARD)
    assert spec.type is not None, text
    return Unit(spec.type, spec.location)


def _units(d: dict[str, list[str]]) -> dict[str, set[str]]:
    return {p: {str(_unit(u)) for u in us} for p, us in d.items() if us}


def test_every_case_is_there():
    ids = [c.id for c in CASES]
    counts = {s: sum(1 for i in ids if i.startswith(f"6.{s}.")) for s in "ABCDEFGHIJ"}
    assert counts == {
        "A": 12,
        "B": 15,
        "C": 9,
        "D": 34,
        "E": 15,
        "F": 25,
        "G": 20,
        "H": 16,
        "I": 7,
        "J": 12,
    }  # 6.J.9 has two situations
    assert len(set(ids)) == len(ids)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_datc(case):
    centers = (
        case.centers
        if case.centers is not None
        else {p: sorted(cs) for p, cs in STANDARD.start_centers.items()}
    )
    position = Position(
        STANDARD,
        Phase.parse(case.phase),
        {p: tuple(_unit(u) for u in us) for p, us in case.units.items()},
        {p: frozenset(cs) for p, cs in centers.items()},
    )
    report = None
    for block in case.blocks:
        before = position
        report, position = advance(position, block.orders)
        rejected = {(e.power, e.text) for e in report.errors}
        for power, text, expected in block.results:
            if (power, text) in rejected:
                got = "fails"
            else:
                try:
                    order = validate(parse_order(text, STANDARD), before, power)
                except OrderError as exc:  # pragma: no cover - would have been rejected
                    pytest.fail(f"{text}: {exc}")
                hits = [o for o in report.outcomes if o.power == power and o.order == order]
                assert hits, f"{text} not among the outcomes {[str(o) for o in report.outcomes]}"
                got = "succeeds" if hits[0].result.succeeded else "fails"
            assert got == expected, (
                f"{power}: {text}: expected {expected}, got {got} "
                f"({[str(o) for o in report.outcomes]}; errors {report.errors})"
            )
    if case.position is not None:
        got = {p: {str(u) for u in us} for p, us in position.units.items() if us}
        assert got == _units(case.position)
    if case.dislodged is not None:
        if report is not None and report.phase.is_movement:
            got = {p: {str(d.unit) for d in ds} for p, ds in report.dislodged.items() if ds}
        else:
            got = {p: {str(d.unit) for d in ds} for p, ds in position.dislodged.items() if ds}
        assert got == _units(case.dislodged)
