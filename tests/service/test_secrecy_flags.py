"""Secrecy flags (seed 003, 1.6): what SUMMARY and the late notices tell, by mail."""

from __future__ import annotations

from datetime import timedelta

from payjudge.game.state import find_game

from .judge import TestJudge
from .test_game import GM, OBSERVER, POWERS, addr, signon, snapshot, start_game


def _unit(judge: TestJudge, power: str) -> str:
    return str(snapshot(judge)[0].units[power][0])


def _summary(judge: TestJudge) -> str:
    judge.send(OBSERVER, "SUMMARY pay7\n")
    return judge.last_reply(OBSERVER)


def _some_ordered(judge: TestJudge, rules: str) -> None:
    start_game(judge, rules=rules)
    for p in POWERS[:5]:  # Russia and Turkey have not ordered
        judge.send(addr(p), f"{signon(p)}\n0 : {_unit(judge, p)} H\n")
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\nSET WAIT\n")


def test_summary_by_default_tells_nobody_who_has_ordered_or_waits(database):
    judge = TestJudge(database)
    _some_ordered(judge, "")
    reply = _summary(judge)
    assert "RUSSIA" in reply  # the powers table is there
    assert "Not yet ordered" not in reply and "Waiting for" not in reply


def test_list_unordered_shows_who_has_not_ordered(database):
    judge = TestJudge(database)
    _some_ordered(judge, "LIST_UNORDERED")
    reply = _summary(judge)
    assert "Not yet ordered: RUSSIA, TURKEY" in reply
    assert "Waiting for the deadline" not in reply


def test_list_waiters_shows_who_asked_to_wait(database):
    judge = TestJudge(database)
    _some_ordered(judge, "LIST_WAITERS")
    reply = _summary(judge)
    assert "Waiting for the deadline: FRANCE" in reply
    assert "Not yet ordered" not in reply


def test_hide_dummies_shows_a_dummy_as_played(database):
    for rules, shown in (("", "dummy"), ("HIDE_DUMMIES", "playing")):
        judge = TestJudge(database)
        start_game(judge, rules=rules)
        judge.send(GM, "SIGNON Mpay7 masterpw\nDUMMY ITALY\n")
        line = next(x for x in _summary(judge).splitlines() if x.strip().startswith("ITALY"))
        assert line.split()[1] == shown, (rules, line)
        with database.transaction() as s:  # a fresh game for the next round
            g = find_game(s, "pay7")
            g.name = f"old{len(rules)}"


def _late_notices(judge: TestJudge, rules: str) -> dict[tuple[str, ...], str]:
    _some_ordered(judge, rules)
    with judge.db.transaction() as s:
        deadline = find_game(s, "pay7").deadline
    judge.sent.clear()
    judge.clock.current = deadline + timedelta(minutes=5)
    judge.tick()
    return {m.to: m.body for m in judge.sent if m.kind == "late"}


def test_late_notices_name_every_late_power_by_default(database):
    notices = _late_notices(TestJudge(database), "")
    assert "RUSSIA, TURKEY" in notices[(addr("RUSSIA"),)]


def test_hide_late_powers_tells_each_late_power_only_of_itself(database):
    notices = _late_notices(TestJudge(database), "HIDE_LATE_POWERS")
    assert "TURKEY" not in notices[(addr("RUSSIA"),)] and "RUSSIA" in notices[(addr("RUSSIA"),)]
    assert "RUSSIA" not in notices[(addr("TURKEY"),)]
    assert "RUSSIA, TURKEY" in notices[(GM,)]


def test_hide_dummies_brings_hide_late_powers(database):
    notices = _late_notices(TestJudge(database), "HIDE_DUMMIES")
    assert "TURKEY" not in notices[(addr("RUSSIA"),)]


def test_no_reveal_brings_hide_absentees(database):
    judge = TestJudge(database)
    start_game(judge, rules="NO_REVEAL")
    with judge.db.transaction() as s:
        deadline = find_game(s, "pay7").deadline
    judge.sent.clear()
    start, end = deadline + timedelta(days=1), deadline + timedelta(days=2)
    judge.send(
        addr("FRANCE"), f"{signon('FRANCE')}\nSET ABSENCE {start:%Y-%m-%d %H:%M} TO {end:%Y-%m-%d %H:%M}\n"
    )
    told = {to: m.body for m in judge.sent if m.kind == "notice" for to in m.to}
    assert "A player in game pay7 will be away" in told[addr("ENGLAND")]
    assert "FRANCE in game pay7 will be away" in told[GM]


def test_hide_dummies_keeps_the_start_announcement_from_naming_dummies(database):
    for rules, named in (("", True), ("HIDE_DUMMIES", False)):
        judge = TestJudge(database)
        judge.send(GM, f"CREATE pay7 masterpw\nRULE POWER_CHOICE {rules}\nTIMING MOVE 2D\nSIGNOFF\n")
        for p in POWERS[:5]:
            judge.send(addr(p), f"JOIN {p.lower()}@pay7 pw-{p.lower()}\n")
        judge.send(GM, "SIGNON Mpay7 masterpw\nACTIVATE\n")
        started = [m for m in judge.inbox(addr("FRANCE")) if "has started" in m.subject]
        assert started and ("dummy" in started[-1].body) is named, rules
        with database.transaction() as s:
            find_game(s, "pay7").name = f"old{len(rules)}"


def _results(judge: TestJudge, phase: str) -> str:
    [mail] = [m for m in judge.inbox(OBSERVER) if m.kind == "results" and phase in m.subject]
    return mail.body


def _winter_with_a_french_build(database, rules: str) -> TestJudge:
    from .test_press_flags import _game, _play_to_winter

    judge = _game(database, rules)
    _play_to_winter(judge)
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\nBUILD A MAR\n")
    judge.send(GM, "SIGNON Mpay7 masterpw\nPROCESS!\n")
    assert snapshot(judge)[3] == "S1902M"
    return judge


def test_hide_builds_gives_the_number_of_builds_and_reveals_them_after_the_spring(database):
    """HIDE_BUILDS (seed 003 §1.6): the winter results say BUILD HIDDEN once per build, not
    where nor what, and have no picture; the spring results name the new unit (FOUND)."""
    judge = _winter_with_a_french_build(database, "HIDE_BUILDS")
    winter = judge.inbox(OBSERVER, clear=False)
    body = _results(judge, "W1901A")
    lines = [" ".join(x.split()) for x in body.splitlines()]
    assert lines.count("BUILD HIDDEN") == 1
    assert "A MAR" not in body
    assert not any(b"image/png" in m.raw for m in winter if m.kind == "results")
    judge.send(GM, "SIGNON Mpay7 masterpw\nPROCESS!\n")
    assert snapshot(judge)[3] == "F1902M"
    spring = [" ".join(x.split()) for x in _results(judge, "S1902M").splitlines()]
    assert "FRANCE: FOUND A MAR" in spring


def test_without_hide_builds_the_winter_results_show_the_builds(database):
    judge = _winter_with_a_french_build(database, "")
    body = _results(judge, "W1901A")
    assert "BUILD A MAR" in body and "BUILD HIDDEN" not in body
    judge.send(GM, "SIGNON Mpay7 masterpw\nPROCESS!\n")
    assert "FOUND" not in _results(judge, "S1902M")


def test_hide_builds_keeps_the_new_unit_off_the_web_picture_until_the_spring_is_played(database):
    from payjudge.game.pictures import Pictures
    from payjudge.game.public import picture
    from payjudge.game.state import GameState, turns
    from payjudge.rules.serial import position_from_json

    judge = _winter_with_a_french_build(database, "HIDE_BUILDS")
    with judge.db.transaction() as s:
        st = GameState(s, find_game(s, "pay7"))
        winter, spring = turns(s, st.game)[-2:]
        pos = position_from_json(st.map, spring.position)
        assert "A MAR" in {str(u) for u in pos.units["FRANCE"]}
        french = tuple(u for u in pos.units["FRANCE"] if str(u) != "A MAR")
        without = pos.replace(units={**pos.units, "FRANCE": french})
        draw = Pictures.of(judge.config).png
        assert picture(s, judge.config, "pay7", spring.seq) == draw(st.map, without, None)
        # the winter's picture is its board before the builds, without its orders
        before = position_from_json(st.map, winter.position)
        assert picture(s, judge.config, "pay7", winter.seq) == draw(st.map, before, None)
