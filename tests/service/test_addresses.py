"""Players' addresses stay private: every mail names one recipient only (issue 8 item 5).

A mail to the whole game with every address in To would tell each player which address
plays which power; so joins, the start, results, press to several powers, deadline
changes and the end of the game reach everyone in a mail of their own.
"""

from __future__ import annotations

from email import message_from_bytes, policy
from email.utils import getaddresses

from .judge import TestJudge
from .test_game import GM, OBSERVER, POWERS, addr, signon, snapshot, start_game


def _header_addresses(raw: bytes) -> dict[str, list[str]]:
    msg = message_from_bytes(raw, policy=policy.default)
    return {name: [a.lower() for _, a in getaddresses(msg.get_all(name, []))] for name in ("To", "Cc", "Bcc")}


def test_no_mail_tells_one_player_another_players_address(database):
    judge = TestJudge(database)
    start_game(judge)  # CREATE, OBSERVE, seven JOINs, the start
    judge.send(
        addr("FRANCE"),
        f"{signon('FRANCE')}\nPRESS TO EGI\nHello all three\nENDPRESS\nBROADCAST\nHello everyone\nENDPRESS\n",
    )
    judge.send(
        GM, "SIGNON Mpay7 masterpw\nSET DEADLINE 2026-12-24 18:00\nBROADCAST\nFrom the Master\nENDPRESS\n"
    )
    judge.send(GM, "SIGNON Mpay7 masterpw\nFOR FRANCE\nBALANCE\n")
    judge.send(GM, "SIGNON Mpay7 masterpw\nPROCESS!\n")
    assert snapshot(judge)[3] == "F1901M"
    for p in POWERS:
        judge.send(addr(p), f"{signon(p)}\nVOTE DRAW\n")
    assert snapshot(judge)[2] == "completed"

    kinds = set()
    everyone = {addr(p) for p in POWERS} | {GM, OBSERVER}
    reached: dict[str, set[str]] = {}
    for mail in judge.sent:
        headers = _header_addresses(mail.raw)
        assert headers["Cc"] == [] and headers["Bcc"] == [], (mail.subject, headers)
        assert len(headers["To"]) == 1 and list(mail.to) == headers["To"], (mail.subject, headers)
        kinds.add(mail.kind)
        reached.setdefault(mail.subject, set()).update(mail.to)
        for other in everyone - set(mail.to):
            assert other not in mail.raw.decode("utf-8", "replace"), (mail.subject, other)
    assert {"notice", "press", "results", "statement", "game_end", "reply"} <= kinds
    # and still everyone gets what is for everyone
    assert reached["Diplomacy game pay7 has ended"] == everyone
    assert reached["Diplomacy results pay7 S1901M"] == everyone
    assert reached["Diplomacy press from France in pay7"] >= {
        addr("ENGLAND"),
        addr("GERMANY"),
        addr("ITALY"),
        OBSERVER,
        GM,
    }


def test_set_address_takes_exactly_one_valid_address(database):
    judge = TestJudge(database)
    start_game(judge)
    many = ",".join(f"x{i}@pj.test" for i in range(20))
    for bad in (
        many,
        "a@pj.test b@pj.test",
        "a@pj.test;b@pj.test",
        "Paris <paris@pj.test>",
        "paris.pj.test",
        "paris@",
        "@pj.test",
        "paris@pj..test",
    ):
        judge.send(addr("FRANCE"), f"{signon('FRANCE')}\nSET ADDRESS {bad}\n")
        reply = judge.last_reply(addr("FRANCE"))
        assert "NOT processed" in reply, (bad, reply)
        assert "line 2: SET ADDRESS" in " ".join(reply.split()), (bad, reply)
    with judge.db.transaction() as s:
        from payjudge.game.state import GameState, find_game

        assert GameState(s, find_game(s, "pay7")).seat("FRANCE").address == addr("FRANCE")
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\nSET ADDRESS Paris@PJ.test\n")
    assert "now goes to paris@pj.test" in judge.last_reply(addr("FRANCE"))
