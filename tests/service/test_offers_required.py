"""Rule 3.3: "Each uneliminated player must submit an offer sheet containing at least one
offer before the GameMaster will determine and process orders." A sheet of savings or
comments only is kept, but the power stays late, and its reply says so; a power with
centres and no units is waited for too (it may bribe other powers' units)."""

from __future__ import annotations

from payjudge.game.state import GameState, find_game
from payjudge.game.turns import late_powers
from payjudge.rules.serial import position_to_json

from .judge import TestJudge

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
GM = "gm@pj.test"


def addr(power: str) -> str:
    return f"{power.lower()}@pj.test"


def signon(power: str) -> str:
    return f"SIGNON {power[0]}req1 pw-{power.lower()}"


def _start(judge: TestJudge) -> None:
    judge.send(GM, "CREATE req1 masterpw\nRULE POWER_CHOICE\nTIMING MOVE 2D\nSIGNOFF\n")
    for p in POWERS:
        judge.send(addr(p), f"JOIN {p.lower()}@req1 pw-{p.lower()}\n")


def _late(judge: TestJudge) -> tuple[str, list[str]]:
    with judge.db.transaction() as s:
        st = GameState(s, find_game(s, "req1"))
        return str(st.game.phase), late_powers(st)


def _others_send_sheets(judge: TestJudge, but: str) -> None:
    for p in POWERS:
        if p != but:
            judge.send(addr(p), f"{signon(p)}\n1 : {_a_unit(judge, p)} H\n")


def _a_unit(judge: TestJudge, power: str) -> str:
    with judge.db.transaction() as s:
        st = GameState(s, find_game(s, "req1"))
        assert st.position is not None
        return str(st.position.units[power][0])


def test_a_sheet_without_an_offer_does_not_count(database):
    judge = TestJudge(database)
    _start(judge)
    _others_send_sheets(judge, but="FRANCE")
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\n10 $\n")
    reply = judge.last_reply(addr("FRANCE"))
    assert "10 $" in reply
    assert "does not count as your offer sheet yet" in reply and "rule 3.3" in reply
    judge.tick(seconds=10)
    assert _late(judge) == ("S1901M", ["FRANCE"])
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\n% only thinking aloud\n")
    assert "does not count as your offer sheet yet" in judge.last_reply(addr("FRANCE"))
    judge.tick(seconds=10)
    assert _late(judge) == ("S1901M", ["FRANCE"])
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\n10 $\nA PAR H\n")
    assert "does not count" not in judge.last_reply(addr("FRANCE"))
    judge.tick(seconds=10)
    assert _late(judge)[0] == "F1901M"


def test_a_power_with_centres_and_no_units_is_waited_for(database):
    judge = TestJudge(database)
    _start(judge)
    with judge.db.transaction() as s:
        st = GameState(s, find_game(s, "req1"))
        pos = st.position
        assert pos is not None and st.turn is not None
        # France has lost its armies and its fleet, but keeps its centres
        st.turn.position = position_to_json(
            pos.replace(units={p: us for p, us in pos.units.items() if p != "FRANCE"})
        )
    _others_send_sheets(judge, but="FRANCE")
    judge.tick(seconds=10)
    assert _late(judge) == ("S1901M", ["FRANCE"])
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\n3 : A MUN H\n")
    assert "was processed" in judge.last_reply(addr("FRANCE"))
    judge.tick(seconds=10)
    assert _late(judge)[0] == "F1901M"
