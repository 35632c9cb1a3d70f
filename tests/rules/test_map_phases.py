"""A map's own FLOW on payjudge's standard cycle (rules/phase.py: `map_start_phase`):
translated seasons, years in steps or counted backwards, Winter and Fall starts."""

from __future__ import annotations

from pathlib import Path

import pytest

from payjudge.rules.mapfile import load_map_file
from payjudge.rules.phase import STANDARD_FLOW, FlowError, Phase, flow_walk, game_start_phase, map_start_phase
from payjudge.rules.position import Position

HUNDRED = ("NEWYEAR:5", "A.D.:MOVEMENT,RETREATS", "IFYEARDIV:10", "A.D.:ADJUSTMENTS")
CLASSICAL = ("NEWYEAR:-1", "B.C.:MOVEMENT,RETREATS", "IFYEARDIV:2", "B.C.:ADJUSTMENTS")
DUTCH = ("LENTE:MOVEMENT,RETREATS", "HERFST:MOVEMENT,RETREATS", "WINTER:ADJUSTMENTS")
GERMAN = ("FRUEHJAHR:MOVEMENT,RETREATS", "HERBST:MOVEMENT,RETREATS", "WINTER:ADJUSTMENTS")
AMBITION = ("SPRING:INCOME,MOVEMENT,RETREATS", "FALL:INCOME,MOVEMENT,RETREATS", "WINTER:ADJUSTMENTS")


def test_hundred_walks_five_years_a_turn_with_adjustments_every_ten():
    walk = flow_walk("A.D. 1425 MOVEMENT", HUNDRED, 7)
    assert [(y, p[0]) for _, y, p in walk] == [
        (1425, "M"),
        (1425, "R"),
        (1430, "M"),
        (1430, "R"),
        (1430, "A"),
        (1435, "M"),
        (1435, "R"),
    ]


def test_classical_counts_years_backwards():
    walk = flow_walk("B.C. 273 MOVEMENT", CLASSICAL, 6)
    assert [(y, p[0]) for _, y, p in walk] == [
        (273, "M"),
        (273, "R"),
        (272, "M"),
        (272, "R"),
        (272, "A"),
        (271, "M"),
    ]


@pytest.mark.parametrize(
    "first, flow, expected",
    [
        ("A.D. 1425 MOVEMENT", HUNDRED, "S1425M"),
        ("B.C. 273 MOVEMENT", CLASSICAL, "S273M"),
        ("LENTE 1901 MOVEMENT", DUTCH, "S1901M"),
        # FRUEHJAHR abbreviates to F1901M, which would read as a Fall start
        ("FRUEHJAHR 1901 MOVEMENT", GERMAN, "S1901M"),
        ("HERBST 1901 MOVEMENT", GERMAN, "F1901M"),
        ("WINTER 1898 ADJUSTMENTS", STANDARD_FLOW, "W1898A"),
        ("SPRING 1763 MOVEMENT", AMBITION, "S1763M"),
    ],
)
def test_map_start_phase(first, flow, expected):
    assert map_start_phase(first, flow) == Phase.parse(expected)


def test_the_standard_flow_takes_the_abbreviation():
    assert game_start_phase("F1900M", "FALL 1900 MOVEMENT", STANDARD_FLOW) == Phase.parse("F1900M")
    assert game_start_phase("F1901M", "FRUEHJAHR 1901 MOVEMENT", GERMAN) == Phase.parse("S1901M")


def test_a_flow_off_the_cycle_is_refused_with_reasons():
    with pytest.raises(FlowError, match="do not follow the cycle"):
        map_start_phase("SPRING 1901 MOVEMENT", ("SPRING:MOVEMENT", "WINTER:ADJUSTMENTS"))
    with pytest.raises(FlowError, match="not in the map's FLOW"):
        map_start_phase("SUMMER 1901 MOVEMENT", STANDARD_FLOW)


DPJUDGE = Path("/work/shared/dpjudge-maps")


@pytest.mark.skipif(not DPJUDGE.is_dir(), reason="DPjudge's map files are not here")
@pytest.mark.parametrize(
    "name, expected",
    [
        ("standard_german", "S1901M"),
        ("hundred", "S1425M"),
        ("classical", "S273M"),
        ("1898", "W1898A"),
        ("void", "F1900M"),
    ],
)
def test_a_game_on_the_map_starts_there(name, expected):
    path = next(
        p for p in (DPJUDGE / "trials" / f"{name}.map", DPJUDGE / "maps" / f"{name}.map") if p.is_file()
    )
    m = load_map_file(path, [DPJUDGE / "trials", DPJUDGE / "maps"])
    assert Position.initial(m).phase == Phase.parse(expected)


def test_exchange_phases_come_after_the_winter_adjustments():
    """Exchange Payola (docs/exchange.md): W1901A -> W1901X -> S1902M; the float is W1900X."""
    from payjudge.rules.phase import Phase, PhaseType

    winter = Phase.parse("W1901A")
    assert winter.next(exchange=True) == Phase.parse("W1901X")
    assert Phase.parse("W1901X").next(exchange=True) == Phase.parse("S1902M")
    assert winter.next() == Phase.parse("S1902M")  # other games never see one
    assert Phase.parse("WINTER 1900 EXCHANGE").type is PhaseType.EXCHANGE
    assert Phase.parse("W1900X").is_exchange and Phase.parse("W1900X").title == "Winter 1900 Exchange"
    assert Phase.parse("W1901A") < Phase.parse("W1901X") < Phase.parse("S1902M")
    for wrong in ("S1901X", "F1901X"):
        with pytest.raises(ValueError):
            Phase.parse(wrong)
