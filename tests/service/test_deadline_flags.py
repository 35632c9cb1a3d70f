"""Deadline flags (seed 003, 1.7 and 1.9) through mail and the deadline tick."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from payjudge.game.state import find_game

from .judge import TestJudge
from .test_game import GM, POWERS, addr, signon, snapshot, start_game


def _unit(judge: TestJudge, power: str) -> str:
    return str(snapshot(judge)[0].units[power][0])


def _deadline(judge: TestJudge):
    with judge.db.transaction() as s:
        return find_game(s, "pay7").deadline


def _late_change(judge: TestJudge, rules: str) -> str:
    start_game(judge, rules=rules)
    unit = _unit(judge, "FRANCE")
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\n0 : {unit} H\n")
    judge.clock.current = _deadline(judge) + timedelta(minutes=5)
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\n3 : {unit} H\n")
    return judge.last_reply(addr("FRANCE"))


def test_no_late_changes_refuses_a_change_after_the_deadline(database):
    reply = _late_change(TestJudge(database), "NO_LATE_CHANGES")
    assert "NO_LATE_CHANGES: orders already sent can no longer be changed" in reply


def test_no_late_changes_refuses_clear_but_not_first_orders_nor_the_master(database):
    judge = TestJudge(database)
    _late_change(judge, "NO_LATE_CHANGES")
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\nCLEAR\n")
    assert "can no longer be changed" in judge.last_reply(addr("FRANCE"))
    judge.send(addr("ENGLAND"), f"{signon('ENGLAND')}\n0 : {_unit(judge, 'ENGLAND')} H\n")
    assert "can no longer be changed" not in judge.last_reply(addr("ENGLAND"))
    judge.send(GM, f"SIGNON Mpay7 masterpw\nFOR FRANCE\n2 : {_unit(judge, 'FRANCE')} H\n")
    assert "can no longer be changed" not in judge.last_reply(GM)


def test_civil_disorder_brings_no_late_changes(database):
    reply = _late_change(TestJudge(database), "CIVIL_DISORDER")
    assert "can no longer be changed" in reply


def test_late_changes_countermands_civil_disorder(database):
    reply = _late_change(TestJudge(database), "CIVIL_DISORDER LATE_CHANGES")
    assert "can no longer be changed" not in reply


def test_by_default_orders_may_change_after_the_deadline(database):
    reply = _late_change(TestJudge(database), "")
    assert "can no longer be changed" not in reply


def _all_order(judge: TestJudge) -> None:
    for p in POWERS:
        judge.send(addr(p), f"{signon(p)}\n0 : {_unit(judge, p)} H\n")


def test_real_time_processes_at_once_without_the_settle_delay(database):
    for rules, phase in (("", "S1901M"), ("REAL_TIME", "F1901M")):
        judge = TestJudge(database)
        judge.config = replace(judge.config, settle_seconds=600)
        start_game(judge, rules=rules)
        _all_order(judge)
        judge.tick(seconds=1)
        assert snapshot(judge)[3] == phase, rules
        with database.transaction() as s:  # a fresh game for the next round
            find_game(s, "pay7").name = f"old{len(rules)}"


def test_real_time_and_no_wait_refuse_set_wait(database):
    for rules in ("REAL_TIME", "NO_WAIT"):
        judge = TestJudge(database)
        start_game(judge, rules=rules)
        judge.send(addr("ENGLAND"), f"{signon('ENGLAND')}\nSET WAIT\n")
        assert f"uses {rules}: nobody may ask to wait" in judge.last_reply(addr("ENGLAND"))
        _all_order(judge)
        judge.tick(seconds=1)
        assert snapshot(judge)[3] == "F1901M"
        with database.transaction() as s:
            find_game(s, "pay7").name = f"old{len(rules)}"


def _to_retreats(judge: TestJudge, **wait) -> None:
    """Play spring so that Germany's army in Munich is dislodged (a retreat phase follows);
    `wait`: how long to let the clock run after each phase's orders."""
    sheets = {
        "FRANCE": "5 : A PAR - BUR\n",
        "AUSTRIA": "5 : A VIE - TYR\n",
        "ITALY": "5 : A VEN H\n",
        "GERMANY": "0 : A MUN H\n",
    }
    for p in POWERS:
        judge.send(addr(p), f"{signon(p)}\n{sheets.get(p, f'0 : {_unit(judge, p)} H')}\n")
    judge.tick(**(wait or {"seconds": 1}))
    sheets = {"FRANCE": "9 : A BUR - MUN\n", "AUSTRIA": "9 : A TYR S A BUR - MUN\n"}
    for p in POWERS:
        judge.send(addr(p), f"{signon(p)}\n{sheets.get(p, f'0 : {_unit(judge, p)} H')}\n")
    judge.tick(**(wait or {"seconds": 1}))


def test_no_minor_wait_refuses_set_wait_outside_movement(database):
    judge = TestJudge(database)
    start_game(judge, rules="NO_MINOR_WAIT")
    judge.send(addr("ENGLAND"), f"{signon('ENGLAND')}\nSET WAIT\n")
    assert "nobody may ask" not in judge.last_reply(addr("ENGLAND"))
    judge.send(addr("ENGLAND"), f"{signon('ENGLAND')}\nSET NOWAIT\n")
    _to_retreats(judge)
    assert snapshot(judge)[3] == "F1901R", snapshot(judge)[3]
    judge.send(addr("GERMANY"), f"{signon('GERMANY')}\nSET WAIT\n")
    assert "only in movement phases" in judge.last_reply(addr("GERMANY"))


def test_no_minor_wait_limits_always_wait_to_movement(database):
    for rules, waits in (("ALWAYS_WAIT", True), ("ALWAYS_WAIT NO_MINOR_WAIT", False)):
        judge = TestJudge(database)
        start_game(judge, rules=rules)
        _to_retreats(judge, days=5)
        assert snapshot(judge)[3] == "F1901R"
        judge.send(addr("GERMANY"), f"{signon('GERMANY')}\nA MUN - SIL\n")
        judge.tick(seconds=1)
        assert (snapshot(judge)[3] == "F1901R") is waits, rules
        with database.transaction() as s:
            find_game(s, "pay7").name = f"old{len(rules)}"


def test_no_deadline_sets_none_and_processes_when_ready(database):
    judge = TestJudge(database)
    start_game(judge, rules="NO_DEADLINE")
    assert _deadline(judge) is None
    judge.tick(days=30)
    assert snapshot(judge)[3] == "S1901M"  # nothing happens by the clock
    _all_order(judge)
    judge.tick(seconds=1)
    assert snapshot(judge)[3] == "F1901M" and _deadline(judge) is None


def _absence(judge: TestJudge, rules: str) -> dict[str, str]:
    """France asks for an absence over the deadline; who was told what."""
    start_game(judge, rules=rules)
    deadline = _deadline(judge)
    judge.sent.clear()
    start, end = deadline - timedelta(hours=1), deadline + timedelta(days=2)
    judge.send(
        addr("FRANCE"), f"{signon('FRANCE')}\nSET ABSENCE {start:%Y-%m-%d %H:%M} TO {end:%Y-%m-%d %H:%M}\n"
    )
    return {to: m.body for m in judge.sent if m.kind == "notice" for to in m.to}


def test_absences_are_broadcast_with_the_absentee_by_default(database):
    told = _absence(TestJudge(database), "")
    assert "FRANCE in game pay7 will be away" in told[addr("ENGLAND")]
    assert "FRANCE in game pay7 will be away" in told[GM]


def test_hide_absentees_broadcasts_the_absence_without_who(database):
    told = _absence(TestJudge(database), "HIDE_ABSENTEES")
    assert "A player in game pay7 will be away" in told[addr("ENGLAND")]
    assert "FRANCE" not in told[addr("ENGLAND")]
    assert "FRANCE in game pay7 will be away" in told[GM]


def test_silent_absences_tell_only_the_master(database):
    told = _absence(TestJudge(database), "SILENT_ABSENCES")
    assert "away" not in told[addr("ENGLAND")] and "FRANCE" not in told[addr("ENGLAND")]
    assert "has moved: it is now" in told[addr("ENGLAND")]  # the new deadline, no reason
    assert "FRANCE in game pay7 will be away" in told[GM]


def _extend(judge: TestJudge, rules: str, hours: int = 24) -> str:
    start_game(judge, rules=rules)
    when = _deadline(judge) + timedelta(hours=hours)
    judge.sent.clear()
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\nSET DEADLINE {when:%Y-%m-%d %H:%M}\n")
    return judge.last_reply(addr("FRANCE"))


def test_without_player_deadlines_only_the_master_sets_the_deadline(database):
    judge = TestJudge(database)
    reply = _extend(judge, "")
    assert "SET DEADLINE is for the Master only" in reply
    assert not [m for m in judge.sent if m.kind == "notice"]


def test_player_deadlines_lets_a_player_extend_and_says_who(database):
    judge = TestJudge(database)
    reply = _extend(judge, "PLAYER_DEADLINES")
    assert "The deadline is now" in reply
    told = {to: m.body for m in judge.sent if m.kind == "notice" for to in m.to}
    assert "FRANCE has extended the deadline" in told[addr("ENGLAND")]
    assert "FRANCE has extended the deadline" in told[GM]
    judge.send(
        addr("FRANCE"),
        f"{signon('FRANCE')}\nSET DEADLINE {_deadline(judge) - timedelta(hours=2):%Y-%m-%d %H:%M}\n",
    )
    assert "only the Master may shorten the deadline" in judge.last_reply(addr("FRANCE"))


def test_hide_extenders_tells_only_the_master_who_extended(database):
    judge = TestJudge(database)
    _extend(judge, "PLAYER_DEADLINES HIDE_EXTENDERS")
    told = {to: m.body for m in judge.sent if m.kind == "notice" for to in m.to}
    assert "A player has extended the deadline" in told[addr("ENGLAND")]
    assert "FRANCE" not in told[addr("ENGLAND")]
    assert "FRANCE has extended the deadline" in told[GM]


def test_dummies_are_waited_for_unless_cd_dummies(database):
    for rules, early in (("", False), ("CD_DUMMIES", True)):
        judge = TestJudge(database)
        start_game(judge, rules=rules)
        judge.send(GM, "SIGNON Mpay7 masterpw\nDUMMY ITALY\n")
        for p in POWERS:
            if p != "ITALY":
                judge.send(addr(p), f"{signon(p)}\n0 : {_unit(judge, p)} H\n")
        judge.tick(seconds=1)
        assert (snapshot(judge)[3] == "F1901M") is early, rules
        judge.tick(days=5)  # at the deadline the dummy is in CD
        assert snapshot(judge)[3] == "F1901M", rules
        with database.transaction() as s:
            find_game(s, "pay7").name = f"old{len(rules)}"


def test_the_master_ordering_for_a_dummy_ends_the_wait(database):
    judge = TestJudge(database)
    start_game(judge)
    judge.send(GM, f"SIGNON Mpay7 masterpw\nDUMMY ITALY\nFOR ITALY\n0 : {_unit(judge, 'ITALY')} H\n")
    for p in POWERS:
        if p != "ITALY":
            judge.send(addr(p), f"{signon(p)}\n0 : {_unit(judge, p)} H\n")
    judge.tick(seconds=1)
    assert snapshot(judge)[3] == "F1901M"


def test_progressive_writes_statement_headings_without_capitals(database):
    for rules, heading in (
        ("", "ACCOUNT ACTIVITY FOR ENGLAND"),
        ("PROGRESSIVE", "Account activity of ENGLAND"),
    ):
        judge = TestJudge(database)
        start_game(judge, rules=rules)
        judge.send(addr("FRANCE"), f"{signon('FRANCE')}\nTRANSFER 5 TO ENGLAND\n")
        mails = [m for m in judge.inbox(addr("ENGLAND")) if m.kind == "transfer"]
        assert mails and mails[-1].body.startswith(heading), rules
        with database.transaction() as s:
            find_game(s, "pay7").name = f"old{len(rules)}"
