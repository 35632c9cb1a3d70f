"""Tin Cup (rulebook 6.3: Payola played BLIND) by mail, over several phases.

Every movement phase ENGLAND's sheet carries one offer to a unit that is not on the board.
Checked every phase: the reply to a sheet does not depend on whether an offered-to unit
exists (the same sheet with a real foreign unit in its place gets the same reply, word for
word); the offer to the missing unit appears in no mail but the sender's echo of its own
sheet, and nothing anywhere says it was ignored; the ledger moves exactly as the statements
say (the ignored offer costs nothing); statements name no order of a foreign unit. At the
end the ignored offers are published.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from types import MappingProxyType

import pytest

import payjudge.game.gamerules as gamerules
import payjudge.payola.rules as payola_rules
import payjudge.rules.flag_registry as flag_registry
from payjudge.rules.flags import Flag, Status
from payjudge.rules.geography import Terrain

from .judge import TestJudge
from .test_game import GM, POWERS, addr, check_privacy, play_phase, signon, snapshot

MODIFIERS = (Flag.UNITS_SEE_SAME, Flag.SEE_ALL_SCS, Flag.OWN_SCS_SEE)
PROBE = "ENGLAND"


@pytest.fixture
def blind_modifiers(monkeypatch):
    """The three BLIND modifiers accepted by CREATE. What they change (the tailored
    results) is the visibility engine's, built elsewhere; here they must only be taken,
    and must change nothing in Tin Cup's offers, auction and statements."""
    reg = dict(flag_registry.REGISTRY)
    for flag in MODIFIERS:
        if reg[flag].status is not Status.SUPPORTED:
            reg[flag] = replace(reg[flag], status=Status.SUPPORTED)
    patched = MappingProxyType(reg)
    for module in (flag_registry, payola_rules, gamerules):
        monkeypatch.setattr(module, "REGISTRY", patched)


def _absent_army(pos, rng: random.Random) -> str:
    empty = sorted(
        p.name
        for p in pos.map.provinces.values()
        if p.terrain in (Terrain.LAND, Terrain.COAST) and pos.unit_at(p.name) is None
    )
    return f"A {rng.choice(empty)}"


def _foreign_army(pos, power: str, rng: random.Random) -> str:
    armies = sorted(str(u) for owner, u in pos.all_units() if owner != power and str(u).startswith("A "))
    return rng.choice(armies)


def _probe(judge: TestJudge, pos, rng: random.Random, tag: str) -> str:
    """ENGLAND sends its sheet twice, with the last offer to a real foreign army, then to
    an army that is not there; the replies must be the same words. Returns the ignored line."""
    base = "\n".join(
        f"{rng.randint(1, 9)} : {u} H" if owner != PROBE else f"0 : {u} H"
        for owner, u in pos.all_units()
        if owner == PROBE
    )
    real, fake = _foreign_army(pos, PROBE, rng), _absent_army(pos, rng)
    replies = []
    for unit in (real, fake):
        judge.send(addr(PROBE), f"{signon(PROBE)}\n% secret-of-{PROBE}-{tag}\n{base}\n40 : {unit} H\n")
        replies.append(judge.last_reply(addr(PROBE)))
    assert "was processed" in replies[1], replies[1]
    assert replies[0].replace(real, fake) == replies[1], (real, fake)
    return f"40 : {fake} H"


def _fake_only_echoed(judge: TestJudge, sent_from: int, line: str) -> None:
    """The ignored offer shows only in ENGLAND's own echo of its sheet (and the Master's
    copy of the sheets), nowhere else, and no mail says anything was ignored."""
    unit = line.split(":", 1)[1].strip()[:-2]  # "A PIC"
    for mail in judge.sent[sent_from:]:
        assert "ignored" not in mail.body.lower(), (mail.kind, mail.subject)
        for text in mail.body.splitlines():
            if re.search(rf"\b{unit}\b", text):
                assert mail.to in ((addr(PROBE),), (GM,)), (mail.to, text)  # the Master sees all
                assert text.strip().endswith(line), (mail.kind, text)


def test_tin_cup_game_by_mail_hides_ignored_offers_until_the_end(database, blind_modifiers):
    judge = TestJudge(database)
    rules = "BLIND " + " ".join(f.value for f in MODIFIERS)
    judge.send(GM, f"CREATE pay7 masterpw\nRULE POWER_CHOICE {rules}\nTIMING MOVE 2D\nSIGNOFF\n")
    assert "has been created" in judge.last_reply(GM), judge.last_reply(GM)
    for p in POWERS:
        judge.send(addr(p), f"JOIN {p.lower()}@pay7 pw-{p.lower()}\n")
    rng = random.Random(63)
    ignored: list[str] = []
    movements = 0
    for _ in range(12):
        pos, before, state, phase = snapshot(judge)
        if state != "active" or pos.phase.year > 1902:
            break
        sent_from = len(judge.sent)
        play_phase(judge, rng, phase)
        if pos.phase.is_movement:
            ignored.append(_probe(judge, pos, rng, phase))
            movements += 1
        judge.tick(days=3)
        _after, after, state, new_phase = snapshot(judge)
        assert new_phase != phase, f"{phase} was not processed"
        mails = judge.sent[sent_from:]
        statements = {m.to[0]: m.body for m in mails if m.kind == "statement"}
        paid = {
            to: int(re.search(r"Total cost of your accepted offers: +(\d+) AgP", body).group(1))
            for to, body in statements.items()
        }
        income = {
            m.to[0]: int(re.search(r"Current balance: +(\d+) AgP", m.body).group(1))
            for m in mails
            if m.kind == "income"
        }
        for p in POWERS:  # the ledger moves exactly as the statements say
            if income:
                assert after[p] == income[addr(p)], (phase, p)
            else:
                assert after[p] == before[p] - paid.get(addr(p), 0), (phase, p)
            assert after[p] >= 0
        if pos.phase.is_movement:
            # the 40 AgP offer to the missing army is not even counted against the treasury
            assert "cut by 1 AgP" not in statements.get(addr(PROBE), "") or before[PROBE] < 40
            for body in statements.values():  # accepted offers: amount, type, nationality only
                lines = body.splitlines()
                if "Your accepted offers:" not in lines:
                    continue
                for row in lines[lines.index("Your accepted offers:") + 1 :]:
                    if not row.strip():
                        break
                    assert re.fullmatch(r" +\d+  an? (army|fleet) of [A-Z]+", row), (row, body)
            _fake_only_echoed(judge, sent_from, ignored[-1])
        check_privacy(judge)
    assert movements >= 3
    pos, *_ = snapshot(judge)
    for p in [p for p in POWERS if pos.centers.get(p)]:
        judge.send(addr(p), f"{signon(p)}\nVOTE DRAW\n")
    assert snapshot(judge)[2] == "completed"
    end = next(m.body for m in judge.sent if m.kind == "game_end")
    assert end.count(f"Offers of {PROBE} ignored") == movements
    for line in ignored:
        assert line in end
