"""What vassals and controlled powers tell whom (issue 26): press addressed to a power
nobody plays, the controller's notices of CONTROL and UNCONTROL and of vassal changes,
HIDE_DUMMIES over every public text, the operator's view, and the Rules: line.
"""

from __future__ import annotations

import re

from click.testing import CliRunner

from payjudge.cli import main
from payjudge.game.public import game_page

from .judge import TestJudge
from .test_game import GM, OBSERVER, addr, signon, start_game
from .test_vassals import PLAN, master, next_phase, send, state


def press_mails(judge: TestJudge, address: str) -> list[str]:
    return [m.body for m in judge.inbox(address) if m.kind == "press"]


def test_press_to_a_controlled_or_unplayed_power_reaches_someone(database):
    judge = TestJudge(database)
    start_game(judge)
    master(judge, "DUMMY AUSTRIA\nCONTROL AUSTRIA BY ITALY\nDUMMY TURKEY")
    judge.sent.clear()
    # to one: Austria's controller reads it, under a heading that says whom it was for
    reply = send(judge, "FRANCE", "PRESS TO A\nnote-to-austria\nENDPRESS")
    assert "Press sent to AUSTRIA" in reply
    (got,) = press_mails(judge, addr("ITALY"))
    assert "note-to-austria" in got and "addressed to Austria, which you control" in got
    assert press_mails(judge, GM) == []  # a controlled power needs no Master's copy
    # to several: Germany as itself, Italy for Austria, the Master for Turkey (nobody's)
    send(judge, "FRANCE", "PRESS TO AGT\nnote-to-three\nENDPRESS")
    (germany,) = press_mails(judge, addr("GERMANY"))
    assert "note-to-three" in germany and "which you control" not in germany
    (italy,) = press_mails(judge, addr("ITALY"))
    assert "addressed to Austria, which you control" in italy
    (gm,) = press_mails(judge, GM)
    assert "note-to-three" in gm and "Nobody plays or controls Turkey" in gm
    assert press_mails(judge, addr("ENGLAND")) == []
    # the controller is an addressee itself: one mail, saying it came for Austria too
    send(judge, "FRANCE", "PRESS TO AI\nnote-to-pair\nENDPRESS")
    (italy,) = press_mails(judge, addr("ITALY"))
    assert "note-to-pair" in italy and "addressed to Austria, which you control" in italy
    # a broadcast: every player once, the controller too
    send(judge, "FRANCE", "BROADCAST\nnote-to-all\nENDPRESS")
    for p in ("ENGLAND", "GERMANY", "ITALY", "RUSSIA"):
        assert [b for b in press_mails(judge, addr(p)) if "note-to-all" in b], p
    # the Master's press to a power nobody reads is refused, not reported as sent
    reply = master(judge, "PRESS TO T\nlost-note\nENDPRESS")
    assert "NOT processed" in reply and "nobody plays or controls TURKEY" in reply
    assert not [m for m in judge.sent if "lost-note" in m.body]


def test_press_only_to_the_powers_one_controls_is_refused_not_reported_sent(database):
    """Found by the simulator (seed 2758): Italy's press to Austria, which Italy controls,
    was reported sent, and reached only Italy."""
    judge = TestJudge(database)
    start_game(judge)
    master(judge, "DUMMY AUSTRIA\nCONTROL AUSTRIA BY ITALY")
    judge.sent.clear()
    reply = send(judge, "ITALY", "PRESS TO A\nto-myself\nENDPRESS")
    assert "NOT processed" in reply and "would reach only you" in reply
    assert not [m for m in judge.sent if m.kind == "press"]
    # with another addressee, it is sent (to that one)
    reply = send(judge, "ITALY", "PRESS TO AG\nto-germany-too\nENDPRESS")
    assert "Press sent" in reply
    assert [b for b in press_mails(judge, addr("GERMANY")) if "to-germany-too" in b]


def test_press_flags_hold_for_press_to_a_controlled_power(database):
    judge = TestJudge(database)
    start_game(judge, rules="GREY_PRESS EAVESDROP")
    master(judge, "DUMMY AUSTRIA\nCONTROL AUSTRIA BY ITALY\nDUMMY TURKEY")
    judge.sent.clear()
    send(judge, "FRANCE", "PRESS TO AT\ngrey-note\nENDPRESS")
    (italy,) = press_mails(judge, addr("ITALY"))
    assert "from Anonymous" in italy and "France" not in italy
    # EAVESDROP and a power nobody plays: still one copy for the Master, with the truth
    (gm,) = press_mails(judge, GM)
    assert "France (shown as Anonymous)" in gm and "Nobody plays or controls Turkey" in gm
    other = TestJudge(database)
    with database.transaction() as s:
        from payjudge.game.state import find_game

        find_game(s, "pay7").name = "old7"
    start_game(other, rules="NO_PRESS")
    master(other, "DUMMY AUSTRIA\nCONTROL AUSTRIA BY ITALY")
    other.sent.clear()
    reply = send(other, "FRANCE", "PRESS TO A\nnote\nENDPRESS")
    assert "NOT processed" in reply and "NO_PRESS" in reply
    assert not [m for m in other.sent if m.kind == "press"]


def test_control_and_uncontrol_tell_the_player_who_gains_or_loses_the_power(database):
    judge = TestJudge(database)
    start_game(judge)
    master(judge, "DUMMY ITALY")
    judge.sent.clear()
    master(judge, "CONTROL ITALY BY AUSTRIA")
    (told,) = [m for m in judge.inbox(addr("AUSTRIA")) if m.kind == "notice"]
    assert "You now control ITALY in game pay7" in told.body and "FOR ITALY" in told.body
    assert not [m for m in judge.sent if m.kind == "notice" and GM not in m.to]
    master(judge, "UNCONTROL ITALY")
    (told,) = [m for m in judge.inbox(addr("AUSTRIA")) if m.kind == "notice"]
    assert "You no longer control ITALY in game pay7" in told.body


def _play_plan(judge: TestJudge, rules: str):
    """The vassal game of test_vassals, to Winter 1903: (every mail of it, the control)."""
    start_game(judge, rules=rules)
    master(judge, "DUMMY GERMANY")
    while True:
        pos, _, _ = state(judge)
        phase = str(pos.phase)
        if phase == "W1903A" or pos.phase.year > 1903:
            return
        for power, lines in PLAN.get(phase, []):
            reply = send(judge, power, "\n".join(lines))
            assert "was processed" in reply, reply
        next_phase(judge)


# what shows who controls whom, or that a power is a vassal (the Rules: line may name the
# flags: they are public)
_MARKERS = ("vassal of", "vassal state", "vassal's unit", "controlled by", "TORN_ALLEGIANCE)")


def _leaks(text: str) -> list[str]:
    return [m for m in _MARKERS if m.lower() in text.lower()]


def test_hide_dummies_keeps_control_out_of_every_public_text(database):
    judge = TestJudge(database)
    _play_plan(judge, "VASSAL_DUMMIES TORN_ALLEGIANCE HIDE_DUMMIES")
    assert state(judge)[2] == {"GERMANY": "FRANCE"}
    results = [m for m in judge.sent if m.kind == "results"]
    public = [m for m in results if GM not in m.to]
    assert public and all(not _leaks(m.body) for m in public), [_leaks(m.body) for m in public]
    # the German army TORN_ALLEGIANCE destroyed is still shown gone, without the reason
    fall = [m.body for m in public if m.body.startswith("Fall 1903 Movement") and OBSERVER in m.to]
    assert fall and re.search(r"Destroyed:\s+GERMANY: A WAR", fall[0]), fall
    # the Master's results keep everything
    mastered = "\n".join(m.body for m in results if GM in m.to)
    assert "GERMANY: no longer a vassal of RUSSIA; now a vassal of FRANCE" in mastered
    assert "TORN_ALLEGIANCE" in mastered
    # the players who gain or lose the vassal are told, privately
    notices = [m for m in judge.sent if m.kind == "notice" and "GERMANY" in m.body]
    assert {m.to for m in notices} >= {(addr("RUSSIA"),), (addr("FRANCE"),)}
    assert any("You no longer control GERMANY" in m.body for m in notices if m.to == (addr("RUSSIA"),))
    # SUMMARY and HISTORY, to an observer and to a player; the status page
    for who, body in (
        (OBSERVER, "SUMMARY pay7\nHISTORY pay7"),
        (addr("ITALY"), f"{signon('ITALY')}\nHISTORY pay7"),
    ):
        judge.send(who, body)
        text = "\n".join(m.body for m in judge.inbox(who) if m.kind == "reply")
        assert "Fall 1903" in text and not _leaks(text), _leaks(text)
    with database.transaction() as s:
        page = game_page(s, judge.config, "pay7")
        assert page is not None and page.history
        assert all(not _leaks(h.results) for h in page.history)
    judge.send(GM, "SIGNON Mpay7 masterpw\nHISTORY pay7")
    assert "now a vassal of FRANCE" in judge.last_reply(GM)


def test_without_hide_dummies_the_results_still_name_the_controller(database):
    judge = TestJudge(database)
    _play_plan(judge, "VASSAL_DUMMIES TORN_ALLEGIANCE")
    public = "\n".join(m.body for m in judge.sent if m.kind == "results" and OBSERVER in m.to)
    assert "GERMANY: no longer a vassal of RUSSIA; now a vassal of FRANCE" in public
    assert re.search(r"TORN_ALLEGIANCE\):\s+GERMANY: A WAR", public)


def test_game_show_names_a_dummys_controller(database, monkeypatch):
    judge = TestJudge(database)
    start_game(judge)
    master(judge, "DUMMY ITALY\nCONTROL ITALY BY AUSTRIA")
    monkeypatch.setenv("PAYJUDGE_DB_URL", database.url)
    shown = CliRunner().invoke(main, ["game", "show", "pay7"])
    assert shown.exit_code == 0, shown.output
    line = next(x for x in shown.output.splitlines() if x.strip().startswith("ITALY"))
    assert "dummy" in line and "controlled by AUSTRIA" in line, line
    assert "controlled by" not in next(x for x in shown.output.splitlines() if x.strip().startswith("FRANCE"))


def test_the_rules_line_shows_the_flags_other_flags_bring(database, monkeypatch):
    judge = TestJudge(database)
    start_game(judge, rules="VASSAL_DUMMIES EAVESDROP")
    created = next(m.body for m in judge.sent if m.kind == "reply" and "has been created" in m.body)
    welcome = next(m.body for m in judge.sent if m.kind == "welcome" and addr("FRANCE") in m.to)
    judge.send(OBSERVER, "SUMMARY pay7")
    summary = judge.last_reply(OBSERVER)
    monkeypatch.setenv("PAYJUDGE_DB_URL", database.url)
    shown = CliRunner().invoke(main, ["game", "show", "pay7"]).output
    for text in (created, welcome, summary, shown):
        line = next(x for x in text.splitlines() if x.strip().lower().startswith("rules:"))
        assert "VASSAL_DUMMIES" in line and "TEAM_VICTORY (brought by VASSAL_DUMMIES)" in line, line
    # EAVESDROP stays the Master's secret; the Master and the operator see it
    assert "EAVESDROP" not in welcome and "EAVESDROP" not in summary
    assert "EAVESDROP" in created and "EAVESDROP" in shown


def test_a_rollback_that_gives_control_back_tells_the_controller(database):
    judge = TestJudge(database)
    start_game(judge)
    master(judge, "DUMMY ITALY\nCONTROL ITALY BY AUSTRIA")
    next_phase(judge)
    master(judge, "UNCONTROL ITALY")
    judge.sent.clear()
    master(judge, "ROLLBACK S1901M")
    (told,) = [m for m in judge.inbox(addr("AUSTRIA")) if "control" in m.subject]
    assert "You now control ITALY in game pay7" in told.body
