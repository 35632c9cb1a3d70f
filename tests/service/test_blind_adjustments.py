"""A BLIND game's adjustment phase, as the power ordering sees it (issue 26): seed 003 hides
whether another power's order was void, but a power knows its own adjustment status. So
the reply to build orders says what is due, and the power's own results show its own void
build as void (the picture never draws it: tests/render/test_render.py)."""

from __future__ import annotations

from .judge import TestJudge
from .test_game import POWERS, addr, signon, snapshot, start_game


def _play(judge: TestJudge, moves: dict[str, str]) -> None:
    """Every unit holds but `moves` (unit -> order); then the deadline passes."""
    pos, *_ = snapshot(judge)
    for p in POWERS:
        lines = [f"1 : {moves.get(str(u), f'{u} H')}" for u in pos.units[p]]
        judge.send(addr(p), f"{signon(p)}\n" + "\n".join(lines) + "\n")
    judge.tick(days=3)


def test_own_build_status_is_told_and_a_void_build_is_shown_void(database):
    judge = TestJudge(database)
    start_game(judge, rules="BLIND")
    _play(judge, {"A BUD": "A BUD - GAL"})
    _play(judge, {"F SEV": "F SEV - RUM"})
    pos, *_ = snapshot(judge)
    assert str(pos.phase) == "W1901A"
    judge.send(addr("AUSTRIA"), f"{signon('AUSTRIA')}\nBUILD A BUD\n")
    reply = judge.last_reply(addr("AUSTRIA"))
    assert "BUILD A BUD" in reply
    assert "AUSTRIA has no build or removal due this phase" in reply
    judge.send(addr("RUSSIA"), f"{signon('RUSSIA')}\nBUILD A SEV\nBUILD F SEV\n")
    assert "RUSSIA may build 1 unit this phase" in judge.last_reply(addr("RUSSIA"))
    sent = len(judge.sent)
    judge.tick(days=3)
    results = {m.to: m.body.replace("\r\n", "\n") for m in judge.sent[sent:] if m.kind == "results"}
    austria = results[(addr("AUSTRIA"),)]
    line = next(x for x in austria.splitlines() if "BUILD A BUD" in x)
    assert "void" in line, austria
    russia = results[(addr("RUSSIA"),)]
    assert "void" in next(x for x in russia.splitlines() if "BUILD F SEV" in x)
    assert "BUILD A BUD" not in russia
