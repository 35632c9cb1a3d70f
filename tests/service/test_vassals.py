"""Power control by mail (seed 003 §1.8, §3.2): the Master's CONTROL and UNCONTROL, a
controller's FOR, and a VASSAL_DUMMIES game in which dummy Germany becomes Russia's vassal
and then France's, with money conserved and privacy checked every phase.

What a controller sees of its vassal (docs/vassals.md): the vassal's statements of the
phases it controlled it, its late notices, and the vassal's income inside its own income
report; nobody else sees any of it, the Master excepted.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

from payjudge.game import money
from payjudge.game.state import GameState, find_game
from payjudge.service.replay import replay
from payjudge.store.db import Database
from tests.dbfix import migrated_sqlite

from .judge import TestJudge
from .test_game import GM, OBSERVER, POWERS, addr, signon, start_game


def state(judge: TestJudge):
    with judge.db.transaction() as s:
        st = GameState(s, find_game(s, "pay7"))
        return st.position, dict(money.balances(s, st.game)), st.control()


def master(judge: TestJudge, body: str) -> str:
    judge.send(GM, f"SIGNON Mpay7 masterpw\n{body}\n")
    return judge.last_reply(GM)


def send(judge: TestJudge, power: str, body: str) -> str:
    judge.send(addr(power), f"{signon(power)}\n{body}\n")
    return judge.last_reply(addr(power))


def next_phase(judge: TestJudge) -> None:
    """The Master processes the phase, whoever has not ordered (PROCESS!)."""
    pos, *_ = state(judge)
    master(judge, "PROCESS!")
    now, *_ = state(judge)
    assert now.phase != pos.phase, f"{pos.phase} was not processed"


def check_privacy(judge: TestJudge, mails, control: dict[str, str]) -> None:
    """A power's secrets reach its player, the Master and, for a controlled power, its
    controller's player; nobody else. `control` is the control of the phase."""
    for mail in mails:
        for p in POWERS:
            allowed = {addr(p), GM} | ({addr(control[p])} if p in control else set())
            private = (
                f"secret-of-{p}" in mail.body
                or f"Account statement of {p}" in mail.body
                or f"INCOME FOR {p}" in mail.body
                or f"acceptance list of {p} is" in mail.body
                or f"Income of vassal {p}" in mail.body
            )
            if private:
                assert set(mail.to) <= allowed, (p, mail.subject, mail.to)
        if OBSERVER in mail.to:
            assert "AgP" not in mail.body or mail.kind == "game_end", mail.subject
        if mail.kind == "results":
            assert "AgP" not in mail.body and "secret-of" not in mail.body
        assert "pw-" not in mail.body and "masterpw" not in mail.body, mail.subject


# each movement phase: (power, lines) of the one message each power sends (a message's
# sheet replaces the last); Germany's sheet comes from its controller, after FOR GERMANY
PLAN = {
    "S1901M": [
        # Russia marches on Germany and buys the German units out of their homes
        (
            "RUSSIA",
            ["0 : A WAR - SIL", "0 : A MOS - WAR", "0 : F STP/SC - BOT"]
            + ["4 : F KIE - HEL", "4 : A BER - PRU", "4 : A MUN - TYR"],
        ),
        ("FRANCE", ["0 : A PAR - BUR", "0 : A MAR - GAS", "0 : F BRE - ENG"]),
    ],
    "F1901M": [
        ("RUSSIA", ["0 : A SIL - BER", "0 : A WAR - SIL", "0 : F BOT - BAL"]),
        ("FRANCE", ["0 : A BUR - RUH", "0 : A GAS - BUR", "0 : F ENG - NTH"]),
    ],
    "S1902M": [
        ("RUSSIA", ["0 : A BER - KIE", "0 : A SIL - MUN", "0 : F BAL - BER"]),
        ("FRANCE", ["0 : F NTH - HOL"]),
    ],
    "S1903M": [
        # Russia orders for its vassal and ranks England before France: its list decides
        # the tie of England's and France's offers to the German fleet
        ("RUSSIA", ["ACCEPT REF?", "FOR GERMANY", "0 : F HEL H", "0 : A PRU - WAR"]),
        ("ENGLAND", ["3 : F HEL - NTH"]),
        # France buys the Russian units out of the German home centres
        (
            "FRANCE",
            ["3 : F HEL H", "5 : A KIE - DEN", "5 : A MUN - SIL", "5 : F BER - PRU"]
            + ["0 : A RUH - KIE", "0 : A BUR - MUN"],
        ),
    ],
    "F1903M": [
        ("FRANCE", ["0 : A KIE - BER", "0 : F HOL - KIE"]),
    ],
}


def test_a_dummy_becomes_a_vassal_and_changes_hands_by_mail(database):
    judge = TestJudge(database)
    start_game(judge, rules="VASSAL_DUMMIES TORN_ALLEGIANCE")
    assert "GERMANY is now a dummy" in master(judge, "DUMMY GERMANY")
    seen_vassal_income = False
    while True:
        pos, before, control = state(judge)
        phase = str(pos.phase)
        if phase == "W1903A" or pos.phase.year > 1903:
            break
        for power, lines in PLAN.get(phase, []):
            body = "\n".join(lines) + f"\n% secret-of-{power}-{phase}"
            if "FOR GERMANY" in lines:
                body += f"\n% secret-of-GERMANY-{phase}"
            reply = send(judge, power, body)
            assert "was processed" in reply, reply
        sent_before = len(judge.sent)
        next_phase(judge)
        nxt, after, new_control = state(judge)
        mails = judge.sent[sent_before:]
        check_privacy(judge, mails, control)
        # money: each statement's cost leaves its power's treasury; at the year's end each
        # income report's balance is the new balance; a dummy earns nothing of its own
        paid = {}
        for m in mails:
            if m.kind == "statement":
                who = re.search(r"Account statement of (\w+)", m.body).group(1)
                paid[who] = int(re.search(r"Total cost of your accepted offers: +(\d+) AgP", m.body).group(1))
        income = {}
        for m in mails:
            if m.kind == "income":
                who = re.search(r"INCOME FOR (\w+)", m.body).group(1)
                income[who] = int(re.search(r"Current balance: +(\d+) AgP", m.body).group(1))
                if "Income of vassal GERMANY" in m.body:
                    seen_vassal_income = True
                    assert who == new_control["GERMANY"] and m.to == (addr(who),)
        assert "GERMANY" not in income
        for p in POWERS:
            if p in income:
                assert after[p] == income[p], (phase, p)
            else:
                assert after[p] == before[p] - paid.get(p, 0), (phase, p, before[p], after[p])
        assert sum(after.values()) == sum(before.values()) - sum(paid.values()) + sum(
            income[p] - (before[p] - paid.get(p, 0)) for p in income
        )
        if phase == "F1902M":
            assert new_control == {"GERMANY": "RUSSIA"}
            results = next(m for m in mails if m.kind == "results" and addr("ITALY") in m.to)
            assert "GERMANY: now a vassal of RUSSIA" in results.body
            # the German home centres stay German though Russia stands on them
            assert {"KIE", "BER", "MUN"} <= nxt.centers["GERMANY"]
        if phase == "S1903M":
            results = next(m for m in mails if m.kind == "results")
            assert "F HEL - NTH" in results.body  # England's offer won the tie by Russia's list
            statement = next(m for m in mails if "Account statement of GERMANY" in m.body)
            assert statement.to == (addr("RUSSIA"),)
        if phase == "F1903M":
            assert new_control == {"GERMANY": "FRANCE"}
            results = next(m for m in mails if m.kind == "results" and addr("ITALY") in m.to)
            assert "GERMANY: no longer a vassal of RUSSIA; now a vassal of FRANCE" in results.body
            # the German army Russia sent to Warsaw stood on its old master's home centre
            # (which stayed Russian): TORN_ALLEGIANCE destroys it as Germany changes hands
            assert re.search(r"TORN_ALLEGIANCE\):\s+GERMANY: A WAR", results.body), results.body
            assert "WAR" in nxt.centers["RUSSIA"]
            assert [str(u) for u in nxt.units["GERMANY"]] == ["F NTH", "A TYR"]
    assert seen_vassal_income
    # France now orders for Germany; Russia no longer may
    reply = send(judge, "RUSSIA", "FOR GERMANY\n0 : F NTH H")
    assert "RUSSIA does not control GERMANY" in reply
    reply = send(judge, "FRANCE", "FOR GERMANY\nBALANCE")
    assert "was processed" in reply
    # the mail is the whole truth: replaying it rebuilds every phase, control and money
    folder = Path(tempfile.mkdtemp())
    try:
        url = migrated_sqlite(folder / "replay.sqlite")
        target = Database(url)
        report = replay(database, target, "pay7", judge.config)
        assert report.ok, report.differences
        assert report.identical == report.phases >= 9
        target.dispose()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_the_master_gives_and_takes_control_and_the_controller_orders_for_the_dummy(database):
    judge = TestJudge(database)
    start_game(judge)
    master(judge, "DUMMY ITALY")
    assert "ITALY is now controlled by AUSTRIA" in master(judge, "CONTROL ITALY BY AUSTRIA")
    assert "only a power nobody plays" in master(judge, "CONTROL FRANCE BY AUSTRIA")
    judge.send(OBSERVER, "SUMMARY pay7")
    line = next(x for x in judge.last_reply(OBSERVER).splitlines() if x.strip().startswith("ITALY"))
    assert line.split()[1] == "dummy" and line.endswith("controlled by AUSTRIA"), line
    # the controller signs on as itself and acts for Italy with FOR
    reply = send(judge, "AUSTRIA", "FOR ITALY\n0 : A VEN - PIE\n% secret-of-ITALY")
    assert "The commands below act for ITALY" in reply and "was processed" in reply
    reply = send(judge, "FRANCE", "FOR ITALY\n0 : A VEN - TYR")
    assert "FRANCE does not control ITALY" in reply and "NOT processed" in reply
    reply = send(judge, "AUSTRIA", "FOR RUSSIA\nBALANCE")
    assert "AUSTRIA does not control RUSSIA" in reply
    # what the Master does for Italy is copied to Italy's controller
    judge.inbox(addr("AUSTRIA"))
    master(judge, "FOR ITALY\nBALANCE")
    assert any("act for ITALY" in m.body for m in judge.inbox(addr("AUSTRIA")))
    judge.sent.clear()
    next_phase(judge)
    pos, *_ = state(judge)
    assert any(str(u) == "A PIE" for u in pos.units["ITALY"])
    statement = next(m for m in judge.sent if "Account statement of ITALY" in m.body)
    assert statement.to == (addr("AUSTRIA"),)
    assert "Nobody controls ITALY any more" in master(judge, "UNCONTROL ITALY")
    reply = send(judge, "AUSTRIA", "FOR ITALY\n0 : A PIE - MAR")
    assert "AUSTRIA does not control ITALY" in reply


def test_control_comes_back_with_a_rollback(database):
    judge = TestJudge(database)
    start_game(judge)
    master(judge, "DUMMY ITALY")
    master(judge, "CONTROL ITALY BY AUSTRIA")
    next_phase(judge)
    master(judge, "UNCONTROL ITALY")
    assert state(judge)[2] == {}
    master(judge, "ROLLBACK S1901M")
    assert state(judge)[2] == {"ITALY": "AUSTRIA"}


def test_team_victory_without_vassals_counts_a_controlled_powers_centres(database):
    judge = TestJudge(database)
    start_game(judge, rules="TEAM_VICTORY")
    master(judge, "DUMMY ITALY")
    master(judge, "CONTROL ITALY BY AUSTRIA")
    with judge.db.transaction() as s:
        st = GameState(s, find_game(s, "pay7"))
        from payjudge.game.turns import victors

        pos = st.position
        scs = sorted(c for c, p in pos.map.provinces.items() if p.supply_center)
        board = pos.replace(centers={"AUSTRIA": frozenset(scs[:10]), "ITALY": frozenset(scs[10:18])})
        assert victors(st, pos, board, st.control()) == ("AUSTRIA",)
        assert victors(st, pos, board, {}) == ()


def test_hide_dummies_hides_the_controller(database):
    judge = TestJudge(database)
    start_game(judge, rules="HIDE_DUMMIES")
    master(judge, "DUMMY ITALY\nCONTROL ITALY BY AUSTRIA")
    judge.send(OBSERVER, "SUMMARY pay7")
    assert "controlled by" not in judge.last_reply(OBSERVER)


def test_no_looting_keeps_a_controller_from_emptying_its_dummy(database):
    for rules, refused in (("", False), ("NO_LOOTING", True)):
        judge = TestJudge(database)
        start_game(judge, rules=rules)
        master(judge, "DUMMY ITALY\nCONTROL ITALY BY AUSTRIA")
        reply = send(judge, "AUSTRIA", "FOR ITALY\nTRANSFER 10 TO AUSTRIA")
        assert ("NOT processed" in reply) is refused, reply
        with database.transaction() as s:  # a fresh game for the next round
            find_game(s, "pay7").name = f"old{len(rules)}"


def test_a_controlled_dummy_votes_through_its_controller(database):
    judge = TestJudge(database)
    start_game(judge)
    master(judge, "DUMMY ITALY\nCONTROL ITALY BY AUSTRIA")
    for p in POWERS:
        if p != "ITALY":
            send(judge, p, "VOTE DRAW")
    with judge.db.transaction() as s:
        game = find_game(s, "pay7")
        assert game.state == "completed"
        assert "ITALY" not in game.result["powers"] and "AUSTRIA" in game.result["powers"]
