"""A map's own calendar (rules/calendar.py): hundred's five-year turns with adjustments every
ten years, classical's B.C. years counting down, translated seasons, and the standard map
named exactly as before (issue 28 item 3)."""

from __future__ import annotations

import pytest

from payjudge.rules.calendar import Calendar, PhaseTitle, calendar_of
from payjudge.rules.mapfile import load_variant
from payjudge.rules.phase import STANDARD_FLOW, Phase, game_start_phase
from payjudge.templating import phase_name
from payjudge.text.phase_range import phase_range, within

HUNDRED = ("NEWYEAR:5", "A.D.:MOVEMENT,RETREATS", "IFYEARDIV:10", "A.D.:ADJUSTMENTS")
CLASSICAL = ("NEWYEAR:-1", "B.C.:MOVEMENT,RETREATS", "IFYEARDIV:2", "B.C.:ADJUSTMENTS")
DUTCH = ("LENTE:MOVEMENT,RETREATS", "HERFST:MOVEMENT,RETREATS", "WINTER:ADJUSTMENTS")
AMBITION = ("SPRING:INCOME,MOVEMENT,RETREATS", "FALL:INCOME,MOVEMENT,RETREATS", "WINTER:ADJUSTMENTS")


def calendar(first: str, flow: tuple[str, ...]) -> Calendar:
    return Calendar(game_start_phase("", first, flow), first, flow)


def titles(cal: Calendar, count: int) -> list[str]:
    phase, out = cal.start, []
    for _ in range(count):
        out.append(cal.title(phase))
        phase = phase.next()
    return out


def test_hundred_moves_five_years_a_turn_and_adjusts_every_ten():
    cal = calendar("A.D. 1425 MOVEMENT", HUNDRED)
    assert titles(cal, 7) == [
        "A.D. 1425 Movement",
        "A.D. 1425 Retreats",
        "A.D. 1430 Movement",
        "A.D. 1430 Retreats",
        "A.D. 1430 Adjustments",
        "A.D. 1435 Movement",
        "A.D. 1435 Retreats",
    ]
    assert cal.short(Phase.parse("W1425A")) == "A1430A"
    assert cal.short(Phase.parse("W1426A")) == "A1440A"
    assert cal.title(Phase.parse("W1425X")) == "A.D. 1430 Exchange"
    # Exchange Payola's float, before the first phase, is named by the first phase
    assert cal.title(Phase.parse("W1424X")) == "A.D. 1425 Exchange"
    assert cal.parse("A1425X") == Phase.parse("W1424X")
    # END <year> in the map's years: the game year whose year-end falls then, or next
    assert [cal.game_year(y) for y in (1425, 1427, 1430, 1435, 1440)] == [1424, 1425, 1425, 1426, 1426]


def test_classical_counts_bc_years_down():
    cal = calendar("B.C. 273 MOVEMENT", CLASSICAL)
    assert titles(cal, 11) == [
        "B.C. 273 Movement",
        "B.C. 273 Retreats",
        "B.C. 272 Movement",
        "B.C. 272 Retreats",
        "B.C. 272 Adjustments",
        "B.C. 271 Movement",
        "B.C. 271 Retreats",
        "B.C. 270 Movement",
        "B.C. 270 Retreats",
        "B.C. 270 Adjustments",
        "B.C. 269 Movement",
    ]
    assert cal.short(Phase.parse("S274M")) == "B271M"
    # END 270: the game year whose adjustments are B.C. 270's; END 271 (no adjustments
    # that year) is the next adjustments in the map's time, B.C. 270 again
    assert cal.game_year(270) == cal.game_year(271) == 274
    assert cal.game_year(272) == 273
    assert cal.game_year(273) == 272  # the float, B.C. 273 Exchange, before B.C. 273 Movement


@pytest.mark.parametrize(
    "text, phase",
    [
        ("A1430A", "W1425A"),
        ("a1430a", "W1425A"),
        ("A.D. 1430 ADJUSTMENTS", "W1425A"),
        ("a.d. 1430 adjustments", "W1425A"),
        ("AD 1435 MOVEMENT", "S1426M"),
        ("A.D. 1440 Retreats", "F1426R"),
        ("A1430X", "W1425X"),
    ],
)
def test_hundred_reads_its_own_names_and_dpjudges_abbreviations(text, phase):
    assert calendar("A.D. 1425 MOVEMENT", HUNDRED).parse(text) == Phase.parse(phase)


def test_a_name_the_map_never_has_is_refused():
    cal = calendar("A.D. 1425 MOVEMENT", HUNDRED)
    with pytest.raises(ValueError):
        cal.parse("A.D. 1427 MOVEMENT")  # hundred has no 1427
    with pytest.raises(ValueError):
        cal.parse("A1430Q")
    with pytest.raises(ValueError, match=r"named like A\.D\. 1425 Movement or A1425M"):
        cal.parse("A1430Z")
    assert cal.parse("S1426M") == Phase.parse("S1426M")  # as stored: old mail replays the same


def test_every_name_reads_back_to_its_phase_on_both_maps():
    for cal in (calendar("A.D. 1425 MOVEMENT", HUNDRED), calendar("B.C. 273 MOVEMENT", CLASSICAL)):
        phase = cal.start
        for _ in range(60):
            assert cal.parse(cal.short(phase)) == phase
            assert cal.parse(cal.title(phase)) == phase
            phase = phase.next()


def test_translated_seasons_and_income_phases():
    dutch = calendar("LENTE 1901 MOVEMENT", DUTCH)
    assert titles(dutch, 5)[::2] == ["Lente 1901 Movement", "Herfst 1901 Movement", "Winter 1901 Adjustments"]
    assert dutch.parse("H1901M") == Phase.parse("F1901M")
    ambition = calendar("SPRING 1763 MOVEMENT", AMBITION)  # its INCOME phases are not played
    assert titles(ambition, 6) == [
        "Spring 1763 Movement",
        "Spring 1763 Retreats",
        "Fall 1763 Movement",
        "Fall 1763 Retreats",
        "Winter 1763 Adjustments",
        "Spring 1764 Movement",
    ]


def test_the_standard_calendar_is_payjudges_own():
    cal = calendar_of(load_variant("standard"))
    assert cal.standard and cal.start == Phase.parse("S1901M")
    phase = cal.start
    for _ in range(20):
        assert cal.title(phase) == phase.title and cal.short(phase) == str(phase)
        assert cal.parse(str(phase)) == cal.parse(phase.title) == phase
        phase = phase.next(exchange=True)
    assert cal.game_year(1907) == 1907
    assert Calendar(Phase.parse("S1901M"), "SPRING 1901 MOVEMENT", STANDARD_FLOW).standard


def test_history_ranges_in_the_maps_names():
    hundred = calendar("A.D. 1425 MOVEMENT", HUNDRED)
    standard = calendar_of(load_variant("standard"))
    assert phase_range([], hundred) == (None, None)
    assert phase_range(["FROM", "A.D.", "1430", "MOVEMENT", "TO", "A1440A"], hundred) == (
        Phase.parse("F1425M"),
        Phase.parse("W1426A"),
    )
    assert phase_range(["A1430A"], hundred) == (Phase.parse("W1425A"), None)  # a phase alone: from it
    assert phase_range(["TO", "f1902m"], standard) == (None, Phase.parse("F1902M"))
    for wrong, message in (
        ("FROM", "FROM needs a phase"),
        ("TO A1430M FROM A1435M", "A1430M comes before A1435M"),
        ("FROM A1430M FROM A1435M", "FROM twice"),
        ("FROM A1427M", "not a phase of this map"),
    ):
        with pytest.raises(ValueError, match=message):
            phase_range(wrong.split(), hundred)
    assert within(Phase.parse("W1425A"), Phase.parse("F1425M"), None)
    assert not within(Phase.parse("S1425M"), Phase.parse("F1425M"), Phase.parse("W1426A"))


def test_a_name_the_calendar_gave_is_printed_as_it_is():
    """A map of two-year turns names its second cycle phase `Spring 1903 Movement`, words
    that read as another phase of payjudge's cycle: mail prints the name, not the name of
    that other phase."""
    two_years = ("NEWYEAR:2", "SPRING:MOVEMENT,RETREATS", "FALL:MOVEMENT,RETREATS", "WINTER:ADJUSTMENTS")
    cal = calendar("SPRING 1901 MOVEMENT", two_years)
    name = cal.title(Phase.parse("S1902M"))
    assert name == "Spring 1903 Movement" and isinstance(name, PhaseTitle)
    assert phase_name(name, cal) == "Spring 1903 Movement"
    assert phase_name("S1902M", cal) == "Spring 1903 Movement"
