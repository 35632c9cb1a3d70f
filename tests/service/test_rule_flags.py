"""CREATE reads the flag registry: by mail, each status gets its answer, incompatible flags
are refused naming both, and a game whose settings CREATE accepted always starts."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from payjudge.game.gamerules import check_rules
from payjudge.game.state import find_game
from payjudge.rules.flag_registry import NAMES, REGISTRY
from payjudge.rules.flags import Status

from .judge import TestJudge
from .test_game import GM, POWERS, addr, snapshot

START_MASTER = "START_MASTER"


def _create(judge: TestJudge, *lines: str) -> str:
    body = "\n".join(("CREATE pay7 masterpw", *lines, "TIMING MOVE 2D", "SIGNOFF"))
    judge.send(GM, body + "\n")
    return judge.last_reply(GM)


def _exists(judge: TestJudge) -> bool:
    with judge.db.transaction() as s:
        return find_game(s, "pay7") is not None


def _fill(judge: TestJudge, flags: list[str] = ()) -> None:
    for p in POWERS:
        # an Exchange game's seats are investors' (as many as the map's powers by default)
        seat = f"i{p.lower()}@pay7" if "EXCHANGE" in flags else "pay7"
        judge.send(addr(p), f"JOIN {seat} pw-{p.lower()}\n")


@pytest.mark.parametrize(
    "line, answer",
    [
        ("RULE NO_FACTORIES", "RULE NO_FACTORIES is not supported yet"),
        ("RULE SHOW_PHANTOM", "RULE SHOW_PHANTOM is not allowed: except with BLIND"),
        ("RULE PROXY_OK", "RULE PROXY_OK is not allowed: Payola has no proxy orders"),
        ("RULE BROADCAST_ORDERS", "RULE BROADCAST_ORDERS is not allowed: offer sheets are secret"),
        ("RULE NO_PRESS PUBLIC_PRESS", "NO_PRESS and PUBLIC_PRESS cannot be used together"),
        ("RULE CIVIL_PREVIEW CIVIL_DISORDER", "CIVIL_PREVIEW and CIVIL_DISORDER cannot be used together"),
        (
            "RULE PAYOLA_CLASSIC BLIND",
            "PAYOLA_CLASSIC (which brings ZERO_FOREIGN) and BLIND cannot be used together",
        ),
        ("RULE NO_SUCH_RULE", "unknown rule NO_SUCH_RULE"),
        ("TAX -1", "'-1' is not a whole number: TAX needs a whole number"),
        ("CAP 0", "CAP must be at least 1"),
    ],
)
def test_create_refuses_what_the_registry_refuses(database, line, answer):
    judge = TestJudge(database)
    reply = _create(judge, line)
    assert "NOT processed" in reply and answer in " ".join(reply.split())
    assert not _exists(judge)


def test_a_flag_always_in_force_is_accepted_and_said_so(database):
    judge = TestJudge(database)
    reply = _create(judge, "RULE ORDER_ANY NEED_MOVE_MARKS EBAYOLA")
    assert "has been created" in reply
    assert "RULE ORDER_ANY: always in force in a Payola game" in reply
    assert "RULE NEED_MOVE_MARKS: always in force in a Payola game" in reply
    assert "RULE EBAYOLA:" not in reply


def test_touch_and_remote_bribe_are_refused_at_create_not_at_the_last_join(database):
    """Both were accepted, and the last JOIN crashed building the game's rules: the game
    could never start."""
    judge = TestJudge(database)
    reply = _create(judge, "RULE TOUCH_BRIBE", "RULE REMOTE_OFFER")
    assert "TOUCH_BRIBE and REMOTE_OFFER cannot be used together" in reply
    assert not _exists(judge)
    assert "has been created" in _create(judge, "RULE TOUCH_BRIBE")
    _fill(judge)
    assert snapshot(judge)[2] == "active"


def _accepted_set(rng: random.Random) -> list[str]:
    """A random set of supported flags (and aliases) that CREATE accepts."""
    names = [n for n, f in NAMES.items() if REGISTRY[f].status is Status.SUPPORTED and n != START_MASTER]
    rng.shuffle(names)
    chosen: list[str] = []
    for name in names:
        if rng.random() < 0.5 and check_rules([*chosen, name]).ok:
            chosen.append(name)
    return chosen


@pytest.mark.parametrize("seed", range(4))
def test_a_game_create_accepted_always_starts(database, seed):
    judge = TestJudge(database)
    flags = _accepted_set(random.Random(seed))
    reply = _create(judge, f"RULE {' '.join(flags)}", "TAX 3", "CAP 30")
    assert "has been created" in reply, reply
    _fill(judge, flags)
    assert snapshot(judge)[2] == "active", flags


def test_help_rules_mails_the_whole_table(database):
    judge = TestJudge(database)
    judge.send("new@pj.test", "HELP RULES\n")
    reply = judge.last_reply("new@pj.test")
    for info in REGISTRY.values():
        assert f"    {info.name}" in reply and info.summary.split()[0] in reply
    counts = Counter(info.status for info in REGISTRY.values())
    assert (
        f"supported: {counts[Status.SUPPORTED]}, always in force: {counts[Status.ALWAYS]}, "
        f"not allowed: {counts[Status.NOT_ALLOWED]}, not yet: {counts[Status.NOT_YET]}"
    ) in reply
    assert sum(counts.values()) == 134
    judge.send("new@pj.test", "HELP FOO\n")
    assert "write HELP, or HELP RULES" in judge.last_reply("new@pj.test")
