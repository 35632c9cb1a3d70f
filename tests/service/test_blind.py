"""BLIND (seed 003 §1.6) played by mail: a whole game with three modifiers in which, every
phase, no results mail, HISTORY, SUMMARY or LIST reply names a unit a power could not see,
nor the owner of a centre it could not see; observers learn only that the game moved on,
unless the Master makes one OMNISCIENT.

A unit counts as named when a line of results begins with it (the ordered unit) or an
ARRIVES / DEPARTS / FOUND / LOST line names it: the order of a unit the power sees is shown
whole, as the seed says, supported or convoyed units included.
"""

from __future__ import annotations

import random
import re

from payjudge.game.public import game_page
from payjudge.game.state import find_game
from payjudge.rules.flags import Flag
from payjudge.rules.position import Position
from payjudge.rules.visibility import Rules
from payjudge.rules.visibility import snapshot as sight

from .judge import TestJudge
from .test_game import GM, OBSERVER, POWERS, addr, play_phase, signon, snapshot, start_game

ORACLE = "oracle@pj.test"
RULES = "BLIND OWN_SCS_SEE UNITS_SEE_SAME SEE_NO_SCS"
ORDERED = re.compile(r"^  (?:BUILD |REMOVE )?([AF]) ([A-Z]{3})(?:/[NSEW]C)?\b", re.M)
GLIMPSE = re.compile(r"^  (?:Army|Fleet) ([A-Z]{3})(?:/[NSEW]C)? (ARRIVES|DEPARTS|FOUND|LOST)\.$", re.M)
ANY_UNIT = re.compile(r"\b(?:[AF]|Army|Fleet) [A-Z]{3}\b")


def _allowed(before: Position, after: Position, power: str) -> set[str]:
    rules = Rules.of([Flag(f) for f in RULES.split()])
    return set(sight(before, power, rules).provinces | sight(after, power, rules).provinces)


def _named_units(body: str) -> set[str]:
    body = body.replace("\r\n", "\n")
    return {m.group(2) for m in ORDERED.finditer(body)} | {m.group(1) for m in GLIMPSE.finditer(body)}


def _owned_lines(body: str) -> list[str]:
    body = body.replace("\r\n", "\n")
    if "Supply centres you see owned" not in body:
        return []
    section = body.split("Supply centres you see owned (BLIND):\n", 1)[1].split("\n\n", 1)[0]
    return [line.split()[0] for line in section.splitlines() if line.strip()]


def test_blind_game_by_mail_shows_each_power_only_what_it_sees(database):
    judge = TestJudge(database)
    rng = random.Random(1066)
    start_game(judge, rules=RULES)
    judge.observe(ORACLE, "oracle@pay7", "oraclepw")
    judge.send(GM, "SIGNON Mpay7 masterpw\nOMNISCIENT oracle\n")
    assert "is now OMNISCIENT" in judge.last_reply(GM)
    allowed_ever: dict[str, set[str]] = {p: set() for p in POWERS}
    hidden_somewhere = glimpsed = 0
    for _ in range(12):
        before, _balances, state, phase = snapshot(judge)
        if state != "active" or before.phase.year > 1902:
            break
        play_phase(judge, rng, phase)
        sent = len(judge.sent)
        judge.tick(days=3)
        after, _balances, _state, new_phase = snapshot(judge)
        assert new_phase != phase
        mails = [m for m in judge.sent[sent:] if m.kind == "results"]
        full = next(m.body for m in mails if GM in m.to)
        assert any(m.body == full for m in mails if ORACLE in m.to)  # the omniscient see all
        everything = _named_units(full)
        for p in POWERS:
            allowed = _allowed(before, after, p)
            allowed_ever[p] |= allowed
            for m in (m for m in mails if addr(p) in m.to):
                assert m.to == (addr(p),), m.to  # a power's results go to it alone
                named = _named_units(m.body)
                assert named <= allowed, (phase, p, named - allowed)
                hidden_somewhere += bool(everything - named)
                glimpsed += bool(GLIMPSE.search(m.body.replace("\r\n", "\n")))
                assert "(void)" not in m.body and ", void" not in m.body
                # `no convoy` only ever follows a move (it stands for a convoyed move's void)
                for line in m.body.splitlines():
                    assert "no convoy" not in line or line.split()[2] == "-", line
                # SEE_NO_SCS: the only owner a power is told of is itself
                assert set(_owned_lines(m.body)) <= {p}, (phase, p, m.body)
                for change in re.findall(r"^  [A-Z]{3}: (\S+) -> (\S+)\r?$", m.body, re.M):
                    assert set(change) <= {p, "?", "neutral"}, (phase, p, change)
        for m in judge.sent[sent:]:
            if OBSERVER in m.to:
                assert not ANY_UNIT.search(m.body), (m.subject, m.body)
    assert hidden_somewhere and glimpsed  # the filter did hide units, and showed passages

    # HISTORY, SUMMARY and LIST: a power its own share, an observer nothing, the Master all
    for p in POWERS[:3]:
        judge.send(addr(p), f"{signon(p)}\nHISTORY pay7\nSUMMARY pay7\n")
        reply = judge.last_reply(addr(p))
        assert _named_units(reply) <= allowed_ever[p], (p, _named_units(reply) - allowed_ever[p])
        counts = [line.split() for line in reply.splitlines() if line.strip().split(" ")[0] in POWERS]
        assert counts and all((row[2] == "?") == (row[0] != p) for row in counts if len(row) == 4), counts
    for who in (OBSERVER, "stranger@pj.test"):
        judge.send(who, "HISTORY pay7\nSUMMARY pay7\nLIST pay7\n")
        reply = judge.last_reply(who)
        assert not ANY_UNIT.search(reply.split("HISTORY pay7", 1)[-1]), reply
        assert "has been processed" in reply
    judge.send(GM, "SIGNON Mpay7 masterpw\nHISTORY pay7\n")
    master_history = judge.last_reply(GM)
    assert len(_named_units(master_history)) > len(_named_units(reply))
    judge.send(ORACLE, "SIGNON oracle@pay7 oraclepw\nHISTORY pay7\n")  # the omniscient: all
    assert _named_units(judge.last_reply(ORACLE)) == _named_units(master_history)
    judge.send(GM, "SIGNON Mpay7 masterpw\nOMNISCIENT oracle OFF\n")
    judge.send(ORACLE, "SIGNON oracle@pay7 oraclepw\nHISTORY pay7\n")
    assert not ANY_UNIT.search(judge.last_reply(ORACLE).split("HISTORY pay7", 1)[-1])
    # the status page: no results, no picture, no counts
    with judge.db.transaction() as s:
        page = game_page(s, judge.config, "pay7")
    assert page is not None and page.history == () and not page.pictures and page.current_seq is None
    assert page.summary.counts == ()


def test_omniscient_needs_a_blind_game_and_an_observer(database):
    judge = TestJudge(database)
    start_game(judge, rules="")
    judge.send(GM, "SIGNON Mpay7 masterpw\nOMNISCIENT kibitz\n")
    assert "not a BLIND game" in judge.last_reply(GM)


def test_blind_refuses_the_combinations_naming_both_flags(database):
    judge = TestJudge(database)
    for other, brought in (
        ("NO_DIAS", ""),
        ("ZERO_FOREIGN", ""),
        ("PUBLIC_TOTALS", ""),
        ("PAYOLA_CLASSIC", " (which brings ZERO_FOREIGN)"),
    ):
        judge.send(GM, f"CREATE pay7 masterpw\nRULE BLIND {other}\nSIGNOFF\n")
        reply = judge.last_reply(GM)
        assert f"BLIND and {other}{brought} cannot be used together" in reply, reply
        assert "has been created" not in reply


def _order(power: str, order: str, result: str) -> dict:
    return {"power": power, "order": order, "result": result, "dislodged": False, "default": False}


def test_tailor_keeps_the_viewer_share_and_hides_void():
    from payjudge.game.blind import tailor

    report = {
        "orders": [
            {
                "power": "FRANCE",
                "order": "A PAR - BUR",
                "result": "void",
                "dislodged": False,
                "default": False,
            },
            {
                "power": "FRANCE",
                "order": "F BRE S A PIC",
                "result": "void",
                "dislodged": False,
                "default": False,
            },
            {
                "power": "GERMANY",
                "order": "A MUN - BUR",
                "result": "bounced",
                "dislodged": False,
                "default": False,
            },
            {
                "power": "GERMANY",
                "order": "A KIE - HOL",
                "result": "succeeds",
                "dislodged": False,
                "default": False,
            },
        ],
        "sight": {
            "FRANCE": {
                "orders": ["full", "full", "full", "Army HOL ARRIVES."],
                "before": ["FRANCE PAR", "FRANCE BRE", "GERMANY MUN"],
                "after": ["FRANCE PAR", "FRANCE BRE", "GERMANY MUN", "GERMANY HOL"],
                "owners": ["PAR", "BRE", "MAR", "HOL"],
            }
        },
    }
    view = {
        "powers": [{"name": "FRANCE", "adjective": "French"}, {"name": "GERMANY", "adjective": "German"}],
        "dislodged": [],
        "destroyed": [{"power": "ITALY", "unit": "A ROM"}],
        "center_changes": [
            {"center": "HOL", "from": None, "to": "GERMANY"},
            {"center": "BEL", "from": "FRANCE", "to": "ENGLAND"},
            {"center": "SER", "from": None, "to": "AUSTRIA"},
        ],
        "centers": [
            {"power": "FRANCE", "count": 3, "centers": ["BRE", "MAR", "PAR"]},
            {"power": "GERMANY", "count": 4, "centers": ["BER", "HOL", "KIE", "MUN"]},
        ],
    }
    out = tailor(view, report, "FRANCE")
    french, german = out["powers"]
    assert french["orders"] == [
        {"order": "A PAR - BUR", "notes": ["no convoy"], "default": False},
        {"order": "F BRE S A PIC", "notes": [], "default": False},
    ]
    assert german["orders"] == [{"order": "A MUN - BUR", "notes": ["bounce"], "default": False}]
    assert out["glimpses"] == ["Army HOL ARRIVES."]
    assert out["destroyed"] == []
    assert out["center_changes"] == [
        {"center": "HOL", "from": None, "to": "GERMANY"},
        {"center": "BEL", "from": "FRANCE", "to": "?"},
    ]
    assert out["centers"] == [
        {"power": "FRANCE", "count": 3, "centers": ["BRE", "MAR", "PAR"]},
        {"power": "GERMANY", "count": None, "centers": ["HOL"]},
    ]


def _spring_1901(judge: TestJudge, rules: str, moves: dict[str, str]) -> dict[str, str]:
    """Play Spring 1901 with every unit holding but `moves` (unit -> order); each power's
    results mail, by power."""
    start_game(judge, rules=rules)
    pos, *_ = snapshot(judge)
    for p in POWERS:
        lines = [f"1 : {moves.get(str(u), f'{u} H')}" for u in pos.units[p]]
        judge.send(addr(p), f"{signon(p)}\n" + "\n".join(lines) + "\n")
    sent = len(judge.sent)
    judge.tick(days=3)
    return {
        p: m.body.replace("\r\n", "\n")
        for m in judge.sent[sent:]
        if m.kind == "results"
        for p in POWERS
        if m.to == (addr(p),)
    }


def test_a_unit_moving_into_sight_arrives(database):
    mails = _spring_1901(TestJudge(database), "BLIND", {"A WAR": "A WAR - GAL"})
    # Warsaw is out of Austria's sight, Galicia next to Vienna and Budapest: it arrives
    assert "Units seen in passing:\n  Army GAL ARRIVES.\n" in mails["AUSTRIA"]
    assert "A WAR" not in mails["AUSTRIA"]
    assert "A WAR - GAL" in mails["RUSSIA"]
    assert "RUSSIA" not in mails["ENGLAND"] and "GAL" not in mails["ENGLAND"]


def test_see_no_units_shows_nobody_else(database):
    mails = _spring_1901(TestJudge(database), "SEE_NO_UNITS", {"A WAR": "A WAR - GAL"})
    assert "GAL" not in mails["AUSTRIA"] and "Russian" not in mails["AUSTRIA"]
    assert "A VIE H" in mails["AUSTRIA"]


def test_blind_hides_dummies_unless_the_master_disables_it(database):
    """BLIND brings HIDE_DUMMIES "unless explicitly disabled" (seed 003 §1.6): with
    `RULE BLIND !HIDE_DUMMIES` SUMMARY shows a dummy as one; only a flag that a named flag
    brings, and that the seed lets be disabled, may be."""
    for rules, shown in (("BLIND", "playing"), ("BLIND !HIDE_DUMMIES", "dummy")):
        judge = TestJudge(database)
        start_game(judge, rules=rules)
        judge.send(GM, "SIGNON Mpay7 masterpw\nDUMMY ITALY\n")
        judge.send(addr("FRANCE"), f"{signon('FRANCE')}\nSUMMARY pay7\n")
        reply = judge.last_reply(addr("FRANCE"))
        line = next(x for x in reply.splitlines() if x.strip().startswith("ITALY"))
        assert line.split()[1] == shown, (rules, line)
        with database.transaction() as s:  # a fresh game for the next round
            find_game(s, "pay7").name = f"old{len(rules)}"
    judge = TestJudge(database)
    for rules, refusal in (
        ("!HIDE_DUMMIES", "no rule named here brings HIDE_DUMMIES"),
        ("BLIND !HIDE_LATE_POWERS", "which BLIND and HIDE_DUMMIES bring, cannot be disabled"),
        ("BLIND HIDE_DUMMIES !HIDE_DUMMIES", "RULE !HIDE_DUMMIES contradicts RULE HIDE_DUMMIES"),
    ):
        judge.send(GM, f"CREATE pay7 masterpw\nRULE {rules}\nSIGNOFF\n")
        reply = judge.last_reply(GM)
        assert refusal in reply and "has been created" not in reply, reply
