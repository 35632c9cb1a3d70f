"""VASSAL_DUMMIES, TORN_ALLEGIANCE and TEAM_VICTORY (seed 003 §1.8, §1.10) on the pure
core: a fall is played with every unit holding, and the centres, the control and the
destroyed units after it are checked. Italy and Turkey are the dummies throughout."""

from __future__ import annotations

from payjudge.payola.income import income, vassal_income, year_end
from payjudge.payola.rules import PayolaRules
from payjudge.rules.flag_registry import closure
from payjudge.rules.flags import Flag
from payjudge.rules.mapfile import load_variant
from payjudge.rules.orders import Unit
from payjudge.rules.phase import Phase
from payjudge.rules.position import Position
from payjudge.rules.turn import play, winners

M = load_variant("standard")
VASSALS = closure([Flag.VASSAL_DUMMIES])
TORN = closure([Flag.TORN_ALLEGIANCE])
DUMMIES = frozenset({"ITALY", "TURKEY"})
START = Position.initial(M).centers


def fall(units: dict[str, list[str]], centers=None, control=None, flags=VASSALS, dummies=DUMMIES):
    centers = {p: frozenset(cs) for p, cs in (centers or START).items()}
    placed = {p: tuple(Unit.parse(u) for u in us) for p, us in units.items()}
    pos = Position(M, Phase.parse("F1902M"), placed, centers, {})
    uncontrolled = dummies - set(control or {})
    report, nxt = play(pos, {}, flags=flags, dummies=uncontrolled, control=control or {})
    return report, nxt


def owner(nxt: Position, center: str) -> str | None:
    return next((p for p, cs in nxt.centers.items() if center in cs), None)


def test_occupying_every_home_centre_makes_a_vassal_and_the_dummy_keeps_its_centres():
    report, nxt = fall({"AUSTRIA": ["A VEN", "A ROM", "F NAP"]})
    assert report.control == {"ITALY": "AUSTRIA"}
    assert {owner(nxt, c) for c in ("VEN", "ROM", "NAP")} == {"ITALY"}
    assert not report.center_changes


def test_a_home_centre_left_free_makes_no_vassal():
    report, nxt = fall({"AUSTRIA": ["A VEN", "A ROM"]})
    assert report.control == {}
    assert owner(nxt, "VEN") == "ITALY"


def test_without_the_flag_the_dummy_loses_its_centres():
    report, nxt = fall({"AUSTRIA": ["A VEN", "A ROM", "F NAP"]}, flags=frozenset())
    assert report.control is None and owner(nxt, "VEN") == "AUSTRIA"


def test_control_changes_hands_when_another_power_holds_every_home_centre():
    report, _ = fall({"FRANCE": ["A VEN", "A ROM", "F NAP"]}, control={"ITALY": "AUSTRIA"})
    assert report.control == {"ITALY": "FRANCE"}


def test_control_goes_on_while_the_homes_are_not_all_held_by_another():
    report, _ = fall({"FRANCE": ["A VEN", "A ROM"], "ITALY": ["F NAP"]}, control={"ITALY": "AUSTRIA"})
    assert report.control == {"ITALY": "AUSTRIA"}


def test_a_vassal_holding_its_homes_stays_with_its_controller():
    report, _ = fall({"ITALY": ["A VEN", "A ROM", "F NAP"]}, control={"ITALY": "AUSTRIA"})
    assert report.control == {"ITALY": "AUSTRIA"}


def test_the_vassals_forces_count_for_the_controller():
    # Italy is Austria's vassal; Austria and Italy together hold every Turkish home centre
    report, _ = fall(
        {"AUSTRIA": ["A CON", "F SMY"], "ITALY": ["A ANK"]},
        control={"ITALY": "AUSTRIA"},
    )
    assert report.control == {"ITALY": "AUSTRIA", "TURKEY": "AUSTRIA"}


def test_a_dummy_never_becomes_a_vassal_of_a_dummy_nor_takes_a_dummys_home():
    report, nxt = fall({"ITALY": ["A CON", "F SMY", "A ANK"]})
    assert report.control == {}
    assert owner(nxt, "CON") == "TURKEY"


def test_an_autonomous_dummy_takes_a_great_powers_centre():
    _, nxt = fall({"ITALY": ["A TRI"]})
    assert owner(nxt, "TRI") == "ITALY"


def test_a_vassal_cannot_own_its_controllers_home_centres():
    report, nxt = fall({"ITALY": ["A TRI", "A MUN"]}, control={"ITALY": "AUSTRIA"})
    assert owner(nxt, "TRI") == "AUSTRIA"
    assert owner(nxt, "MUN") == "ITALY"  # a centre of another power: the vassal takes it
    assert report.center_changes == (("MUN", "GERMANY", "ITALY"),)


def test_a_new_vassal_gives_back_its_new_controllers_home_centres():
    centers = {**START, "ITALY": START["ITALY"] | {"TRI"}, "AUSTRIA": START["AUSTRIA"] - {"TRI"}}
    report, nxt = fall({"AUSTRIA": ["A VEN", "A ROM", "F NAP"]}, centers=centers)
    assert report.control == {"ITALY": "AUSTRIA"}
    assert owner(nxt, "TRI") == "AUSTRIA"


def test_torn_allegiance_destroys_a_vassal_unit_on_a_centre_not_its_new_controllers():
    units = {"FRANCE": ["A VEN", "A ROM", "F NAP"], "ITALY": ["A TRI", "A TYR"]}
    report, nxt = fall(units, control={"ITALY": "AUSTRIA"}, flags=TORN)
    assert report.control == {"ITALY": "FRANCE"}
    assert [(p, str(u)) for p, u in report.torn] == [("ITALY", "A TRI")]
    assert [str(u) for u in nxt.units["ITALY"]] == ["A TYR"]  # not on a centre: it stays
    report, nxt = fall(units, control={"ITALY": "AUSTRIA"})
    assert report.torn == () and len(nxt.units["ITALY"]) == 2


def test_torn_allegiance_spares_a_unit_on_its_own_or_its_controllers_centres():
    units = {"ITALY": ["A TRI", "A VEN"]}
    report, _ = fall(units, control={"ITALY": "AUSTRIA"}, flags=TORN)
    assert report.torn == ()


def _centers(counts: dict[str, list[str]]) -> Position:
    return Position(M, Phase.parse("W1905A"), {}, {p: frozenset(cs) for p, cs in counts.items()}, {})


SCS = sorted(c for c, p in M.provinces.items() if p.supply_center)


def test_team_victory_counts_the_controlled_powers_centres():
    pos = _centers({"AUSTRIA": SCS[:10], "ITALY": SCS[10:18], "FRANCE": SCS[18:]})
    assert winners(pos) == ()
    assert winners(pos, control={"ITALY": "AUSTRIA"}) == ("AUSTRIA",)


def test_a_controlled_power_does_not_win_on_its_own_and_an_eliminated_controller_can():
    pos = _centers({"ITALY": SCS[:18], "FRANCE": SCS[18:]})
    assert winners(pos) == ("ITALY",)
    assert winners(pos, control={"ITALY": "AUSTRIA"}) == ("AUSTRIA",)


def test_an_eliminated_controller_keeps_its_vassal_and_its_income():
    # Austria has lost every centre and unit; its vassal Italy holds its own homes
    centers = {**START, "RUSSIA": START["RUSSIA"] | START["AUSTRIA"], "AUSTRIA": frozenset()}
    report, nxt = fall({"ITALY": ["A VEN", "A ROM", "F NAP"]}, centers=centers, control={"ITALY": "AUSTRIA"})
    assert report.control == {"ITALY": "AUSTRIA"}
    rules = PayolaRules.from_flags(["VASSAL_DUMMIES"])
    lines = vassal_income(year_end(nxt, {"AUSTRIA": 0, "ITALY": 5}, rules), DUMMIES, report.control)
    assert "ITALY" not in lines and "TURKEY" not in lines  # a dummy earns nothing of its own
    assert lines["AUSTRIA"].vassals == (("ITALY", income(["NAP", "ROM", "VEN"], nxt, rules)),)
    assert lines["AUSTRIA"].balance == lines["AUSTRIA"].vassals[0][1] > 0
