"""The clock and the lifecycle: reminders, late notices, civil disorder, early processing,
pauses, victory, forfeiture, quarantine of a message that crashes processing."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from sqlalchemy import select

from payjudge.game.state import GameState, find_game
from payjudge.rules.geography import Location, UnitType
from payjudge.rules.orders import Unit
from payjudge.rules.serial import position_from_json, position_to_json
from payjudge.store.models import InboundMessage

from .judge import TestJudge
from .test_game import GM, POWERS, addr, signon, snapshot, start_game


def _set_position(judge: TestJudge, **changes) -> None:
    with judge.db.transaction() as s:
        st = GameState(s, find_game(s, "pay7"))
        pos = st.position.replace(**changes)
        st.turn.position = position_to_json(pos)


def test_reminder_then_late_notice_then_civil_disorder(database):
    judge = TestJudge(database)
    start_game(judge, rules="CIVIL_DISORDER")
    with database.transaction() as s:
        g = find_game(s, "pay7")
        g.timing = {**g.timing, "warn": ["1D"], "grace": "1D"}
        deadline = g.deadline
    for p in POWERS[:-1]:
        judge.send(addr(p), f"{signon(p)}\n0 : {_unit(judge, p)} H\n")
    judge.sent.clear()
    judge.clock.current = deadline - timedelta(hours=23)
    actions = judge.tick()
    assert any("reminder" in a for a in actions)
    reminders = [m for m in judge.sent if m.kind == "reminder"]
    assert [m.to for m in reminders] == [(addr("TURKEY"),)]  # only the late power
    judge.clock.current = deadline + timedelta(minutes=5)
    assert any("late notice" in a for a in judge.tick())
    late = [m for m in judge.sent if m.kind == "late"]
    assert {m.to for m in late} == {(addr("TURKEY"),), (GM,)}
    assert snapshot(judge)[3] == "S1901M"  # still within the grace
    judge.clock.current = deadline + timedelta(days=1, minutes=1)
    assert any("civil disorder" in a for a in judge.tick())
    assert snapshot(judge)[3] == "F1901M"


def test_early_processing_waits_for_the_settle_delay_and_for_wait_flags(database):
    judge = TestJudge(database)
    judge.config = replace(judge.config, settle_seconds=600)
    start_game(judge)
    judge.send(addr("ENGLAND"), f"{signon('ENGLAND')}\nSET WAIT\n")
    for p in POWERS:
        judge.send(addr(p), f"{signon(p)}\n0 : {_unit(judge, p)} H\n")
    judge.tick(minutes=30)
    assert snapshot(judge)[3] == "S1901M"  # England waits for the deadline
    judge.send(addr("ENGLAND"), f"{signon('ENGLAND')}\nSET NOWAIT\n")
    judge.tick(seconds=1)
    assert snapshot(judge)[3] == "S1901M"  # ready, but let second thoughts come in
    judge.tick(minutes=11)
    assert snapshot(judge)[3] == "F1901M"


def test_a_paused_game_ignores_its_deadline(database):
    judge = TestJudge(database)
    start_game(judge)
    judge.send(GM, "SIGNON Mpay7 masterpw\nPAUSE\n")
    judge.tick(days=30)
    assert snapshot(judge)[2:] == ("paused", "S1901M")
    judge.send(GM, "SIGNON Mpay7 masterpw\nACTIVATE\n")
    assert snapshot(judge)[2] == "active"


def test_victory_ends_the_game_and_publishes_everything(database):
    judge = TestJudge(database)
    start_game(judge)
    pos = snapshot(judge)[0]
    # France holds 17 centres and attacks the 18th in the fall
    centers = {
        "FRANCE": frozenset(
            [
                "BRE",
                "MAR",
                "PAR",
                "SPA",
                "POR",
                "BEL",
                "HOL",
                "RUM",
                "KIE",
                "BER",
                "DEN",
                "LON",
                "LVP",
                "EDI",
                "NWY",
                "SWE",
                "TUN",
            ]
        )
    }
    units = {"FRANCE": (Unit(UnitType.ARMY, Location("RUH")),), "ITALY": pos.units["ITALY"]}
    from payjudge.rules.phase import Phase

    _set_position(judge, phase=Phase.parse("F1901M"), centers=centers, units=units)
    with database.transaction() as s:
        g = find_game(s, "pay7")
        g.phase = Phase.parse("F1901M")
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\n1 : A RUH - MUN\n% the winning move\n")
    judge.send(GM, "SIGNON Mpay7 masterpw\nPROCESS!\n")
    _, _, state, _ = snapshot(judge)
    assert state == "completed"
    end = [m for m in judge.sent if m.kind == "game_end"]
    assert end and "FRANCE has won" in end[0].body and "the winning move" in end[0].body
    results = [m for m in judge.sent if m.kind == "results"]
    assert "FRANCE has won the game" in results[-1].body


def test_an_eliminated_power_that_resigns_forfeits_its_treasury(database):
    judge = TestJudge(database)
    start_game(judge)
    pos = snapshot(judge)[0]
    centers = {p: cs for p, cs in pos.centers.items() if p != "TURKEY"}
    units = {p: us for p, us in pos.units.items() if p != "TURKEY"}
    _set_position(judge, centers=centers, units=units)
    judge.send(addr("TURKEY"), "RESIGN Tpay7 pw-turkey\n")
    assert "forfeits its treasury of 48 AgP" in judge.last_reply(addr("TURKEY"))
    assert snapshot(judge)[1]["TURKEY"] == 0


def test_a_message_that_crashes_is_quarantined_and_the_rest_go_on(database, monkeypatch):
    judge = TestJudge(database)
    start_game(judge)
    from payjudge.commands import REGISTRY

    def boom(ctx, cmd):
        raise RuntimeError("a bug in a handler")

    monkeypatch.setattr(REGISTRY["BALANCE"], "run", boom)
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\nTRANSFER 5 TO ITALY\nBALANCE\n", process=False)
    judge.send(addr("ITALY"), f"{signon('ITALY')}\nTRANSFER 5 TO FRANCE\n", process=False)
    judge.process()
    with database.transaction() as s:
        rows = s.scalars(select(InboundMessage).order_by(InboundMessage.id.desc()).limit(2)).all()
        states = sorted(r.state for r in rows)
        crashed = next(r for r in rows if r.state == "quarantined")
        assert "a bug in a handler" in crashed.error and "Traceback" in crashed.error
    assert states == ["done", "quarantined"]
    balances = snapshot(judge)[1]
    assert balances["FRANCE"] == 53 and balances["ITALY"] == 43  # France's transfer undone
    told = [m for m in judge.inbox(addr("FRANCE")) if "set aside" in m.body]
    assert told


def _unit(judge: TestJudge, power: str) -> str:
    return str(snapshot(judge)[0].units[power][0])


def test_position_json_round_trips(database):
    judge = TestJudge(database)
    start_game(judge)
    pos = snapshot(judge)[0]
    assert position_from_json(pos.map, position_to_json(pos)) == pos


def test_no_reminder_when_the_phase_is_shorter_than_the_warning(database):
    judge = TestJudge(database)
    judge.send(GM, "CREATE pay7 masterpw\nRULE POWER_CHOICE\nTIMING MOVE 1H WARN 4H\nSIGNOFF\n")
    for p in POWERS:
        judge.send(addr(p), f"JOIN {p.lower()}@pay7 pw-{p.lower()}\n")
    judge.sent.clear()
    judge.tick(minutes=1)
    assert not [m for m in judge.sent if m.kind == "reminder"]
    with database.transaction() as s:
        game = find_game(s, "pay7")
        assert game.reminded == ["4H"]  # used up: the scheduler will not wake for it
        from payjudge.service.deadlines import next_wakeup

        assert next_wakeup(game, timedelta(0)) == game.deadline


def test_a_ready_game_uses_up_its_reminder_times(database):
    judge = TestJudge(database)
    judge.config = replace(judge.config, settle_seconds=3600)
    start_game(judge)
    for p in POWERS:
        judge.send(addr(p), f"{signon(p)}\n0 : {_unit(judge, p)} H\n")
    with database.transaction() as s:
        deadline = find_game(s, "pay7").deadline
    judge.clock.current = deadline - timedelta(hours=3)
    judge.tick()
    with database.transaction() as s:
        assert find_game(s, "pay7").reminded == ["4H"]
    assert not [m for m in judge.sent if m.kind == "reminder"]
