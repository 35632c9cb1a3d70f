"""The map picture with the results (issue 13): every results mail carries the phase's
picture as a PNG attachment, `SET MAP OFF` stops it for one player, in a BLIND game each
power's picture shows only what it saw, and the picture is drawn once and kept under the data directory."""

from __future__ import annotations

from dataclasses import replace
from email import message_from_bytes, policy

from payjudge.game.blind import sight_board
from payjudge.game.pictures import MAIL_LIMIT, Pictures
from payjudge.game.state import GameState, find_game, turns
from payjudge.rules.serial import position_from_json

from .judge import TestJudge
from .test_game import GM, OBSERVER, POWERS, addr, signon, snapshot, start_game

PNG = b"\x89PNG\r\n\x1a\n"


def _pictures(raw: bytes) -> list[tuple[str, bytes]]:
    msg = message_from_bytes(raw, policy=policy.default)
    return [
        (part.get_filename(), part.get_content())
        for part in msg.iter_attachments()
        if part.get_content_type() == "image/png"
    ]


def _process(judge: TestJudge) -> None:
    judge.send(GM, "SIGNON Mpay7 masterpw\nPROCESS!\n")


def test_every_results_mail_carries_the_picture_of_the_phase(database):
    judge = TestJudge(database)
    start_game(judge)
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\n3 : A PAR - BUR\n2 : A MAR - SPA\n")
    judge.sent.clear()
    _process(judge)
    results = [m for m in judge.sent if m.kind == "results"]
    assert {m.to[0] for m in results} == {addr(p) for p in POWERS} | {GM, OBSERVER}
    for mail in results:
        ((name, data),) = _pictures(mail.raw)
        assert name == "pay7-S1901M.png"
        assert data.startswith(PNG) and 20_000 < len(data) <= MAIL_LIMIT
        assert "The map of the phase is attached as a picture; SET MAP OFF stops it." in mail.body
        assert len(mail.raw) < 1_000_000
    # only results carry it: statements, replies and notices stay plain text
    assert all(not _pictures(m.raw) for m in judge.sent if m.kind != "results")


def test_set_map_off_and_on(database):
    judge = TestJudge(database)
    start_game(judge)
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\nSET MAP OFF\n")
    assert "without the map picture" in judge.last_reply(addr("FRANCE"))
    judge.send(addr("ENGLAND"), f"{signon('ENGLAND')}\nSET MAP maybe\n")
    assert "SET MAP ON or SET MAP OFF" in judge.last_reply(addr("ENGLAND"))
    judge.sent.clear()
    _process(judge)
    results = {m.to[0]: m for m in judge.sent if m.kind == "results"}
    assert _pictures(results[addr("ENGLAND")].raw) and _pictures(results[GM].raw)
    france = results[addr("FRANCE")]
    assert _pictures(france.raw) == [] and "attached" not in france.body
    note = "\n\nThe map of the phase is attached as a picture; SET MAP OFF stops it."
    assert results[addr("ENGLAND")].body.replace("\r\n", "\n").replace(note, "") == france.body.replace(
        "\r\n", "\n"
    )

    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\nset map on\n")
    assert "will carry the map picture" in judge.last_reply(addr("FRANCE"))
    judge.sent.clear()
    _process(judge)
    assert all(_pictures(m.raw) for m in judge.sent if m.kind == "results")


def test_a_blind_game_draws_each_power_what_it_saw(database):
    judge = TestJudge(database)
    start_game(judge, rules="BLIND")
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\n3 : A PAR - BUR\n2 : A MAR - SPA\n")
    judge.send(addr("GERMANY"), f"{signon('GERMANY')}\n3 : A MUN - RUH\n")
    judge.sent.clear()
    _process(judge)
    results = {m.to[0]: m for m in judge.sent if m.kind == "results"}
    with judge.db.transaction() as s:
        st = GameState(s, find_game(s, "pay7"))
        played = turns(s, st.game)[0]
        before = position_from_json(st.map, played.position)
        pictures = Pictures.of(judge.config)
        whole = pictures.png(st.map, before, played.report)
        drawn = {}
        for p in POWERS:
            board, seen = sight_board(before, played.report, p)
            # the picture's board holds only the units the power saw before the phase
            saw = {f"{q} {u.province}" for q, us in board.units.items() for u in us}
            assert saw <= set(played.report["sight"][p]["before"]) | {
                f"{p} {u.province}" for u in before.units[p]
            }
            assert {o["power"] for o in seen["orders"]} <= {p} | set(board.units)
            drawn[p] = pictures.png(st.map, board, seen, viewer=p)
    for p in POWERS:
        ((name, data),) = _pictures(results[addr(p)].raw)
        assert name == "pay7-S1901M.png" and data == drawn[p] and data != whole
    assert len(set(drawn.values())) == len(POWERS)  # each its own
    ((_name, data),) = _pictures(results[GM].raw)
    assert data == whole  # the Master sees the whole board
    assert _pictures(results[OBSERVER].raw) == []  # an observer only hears the game moved on


def test_the_picture_is_drawn_once_and_kept_under_the_data_dir(database, tmp_path):
    judge = TestJudge(database)
    judge.config = replace(judge.config, data_dir=tmp_path)
    start_game(judge)
    judge.sent.clear()
    _process(judge)
    ((_name, data),) = _pictures(next(m for m in judge.sent if m.kind == "results").raw)
    kept = list((tmp_path / "pictures").glob("*.png"))
    assert [p.read_bytes() for p in kept] == [data]
    # the status page and `payjudge render` draw it from the stored turn: the same file
    with judge.db.transaction() as s:
        st = GameState(s, find_game(s, "pay7"))
        played = turns(s, st.game)[0]
        pos = position_from_json(st.map, played.position)
        assert Pictures.of(judge.config).png(st.map, pos, played.report) == data
    assert snapshot(judge)[3] == "F1901M"
