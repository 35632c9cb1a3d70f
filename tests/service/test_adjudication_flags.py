"""Adjudication flags named at CREATE are in force in the game's phases (issue 10 item 5):
Austria buys Italy's A ROM to support F TRI - VEN against Italy's own A VEN. The support
counts only under FRIENDLY_FIRE; the dislodged army retreats, unless NO_RETREAT."""

from __future__ import annotations

from .judge import TestJudge
from .test_game import POWERS, addr, signon, snapshot, start_game


def _spring_with_a_dislodgement(rules: str, database) -> tuple:
    judge = TestJudge(database)
    start_game(judge, rules)
    # Austria moves F TRI - VEN and buys Italy's A ROM to support it; Italy bids less
    judge.send(addr("AUSTRIA"), f"{signon('AUSTRIA')}\n5 : F TRI - VEN\n10 : A ROM S F TRI - VEN\n")
    assert "was processed" in judge.last_reply(addr("AUSTRIA"))
    judge.send(addr("ITALY"), f"{signon('ITALY')}\n1 : A VEN H\n1 : A ROM H\n1 : F NAP H\n")
    assert "was processed" in judge.last_reply(addr("ITALY"))
    pos, *_ = snapshot(judge)
    for power in POWERS:
        if power not in ("AUSTRIA", "ITALY"):
            holds = "\n".join(f"1 : {u} H" for u in pos.units[power])
            judge.send(addr(power), f"{signon(power)}\n{holds}\n")
            assert "was processed" in judge.last_reply(addr(power))
    judge.tick(days=3)
    return snapshot(judge)


def test_friendly_fire_and_no_retreat_destroy_the_unit(database):
    pos, _, _state, phase = _spring_with_a_dislodgement("FRIENDLY_FIRE NO_RETREAT", database)
    assert phase == "F1901M"  # no retreat phase
    assert "F VEN" in {str(u) for u in pos.units["AUSTRIA"]}
    assert {str(u) for u in pos.units["ITALY"]} == {"A ROM", "F NAP"}
    assert not pos.dislodged


def test_friendly_fire_alone_lets_the_unit_retreat(database):
    pos, _, _state, phase = _spring_with_a_dislodgement("FRIENDLY_FIRE", database)
    assert phase == "S1901R"
    assert {str(d.unit) for d in pos.dislodged["ITALY"]} == {"A VEN"}


def test_without_flags_the_support_against_its_own_power_does_not_count(database):
    pos, _, _state, phase = _spring_with_a_dislodgement("", database)
    assert phase == "F1901M"
    assert {str(u) for u in pos.units["ITALY"]} == {"A ROM", "A VEN", "F NAP"}


def test_no_quarter_brings_no_retreat_in_play(database):
    """NO_QUARTER (seed 003 §1.9) brings NO_RETREAT: the dislodged army is destroyed."""
    pos, _, _state, phase = _spring_with_a_dislodgement("FRIENDLY_FIRE NO_QUARTER", database)
    assert phase == "F1901M"  # no retreat phase
    assert {str(u) for u in pos.units["ITALY"]} == {"A ROM", "F NAP"}
    assert not pos.dislodged
