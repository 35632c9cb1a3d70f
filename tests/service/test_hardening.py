"""Attacks and stumbles of issue 8, sent as bytes through the real SMTP listener into the
real store and processor (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import smtplib
import sys
from email import message_from_bytes, policy

import pytest
from sqlalchemy import select

from payjudge.config import Config
from payjudge.mail.listener import start_listener
from payjudge.memory import FixedClock
from payjudge.service.processor import process_pending
from payjudge.store.mailbox import SqlInbound
from payjudge.store.models import InboundMessage, OutboxMail

pytestmark = [pytest.mark.timeout(120)]

JUDGE = "judge@pj.test"


def _smtp(port: int, sender: str, raw: bytes, *, utf8: bool = False) -> tuple[int, bytes]:
    with smtplib.SMTP("127.0.0.1", port, local_hostname="client.test", timeout=30) as smtp:
        smtp.ehlo()
        assert smtp.mail(sender, ["SMTPUTF8"] if utf8 else [])[0] == 250
        assert smtp.rcpt(JUDGE)[0] == 250
        return smtp.data(raw)


async def _deliver(database, clock, *messages: tuple[str, bytes, bool]) -> list[int]:
    server = await start_listener(
        SqlInbound(database, clock), "127.0.0.1", 0, local_addresses=[JUDGE], hostname="judge.test"
    )
    port = server.sockets[0].getsockname()[1]
    async with server:
        return [
            (await asyncio.to_thread(_smtp, port, sender, raw, utf8=utf8))[0]
            for sender, raw, utf8 in messages
        ]


def _outbox(database) -> list[tuple[tuple[str, ...], str, str]]:
    with database.reading() as s:
        rows = s.scalars(select(OutboxMail).order_by(OutboxMail.id)).all()
        out = []
        for r in rows:
            msg = message_from_bytes(r.raw, policy=policy.default)
            out.append((tuple(r.recipients), str(msg["To"]), msg.get_body(("plain",)).get_content()))
        return out


def _config(**kw) -> Config:
    return Config(judge_address=JUDGE, settle_seconds=0, **kw)


async def test_a_utf8_address_and_a_utf8_display_name_are_answered(database):
    clock = FixedClock()
    address = "jürgen@exämple.org"
    raw1 = (
        f"From: {address}\r\nTo: {JUDGE}\r\nSubject: grüße\r\nMessage-ID: <u1@x>\r\n"
        f"Content-Type: text/plain; charset=utf-8\r\n\r\nHELP\r\n"
    ).encode()
    raw2 = (
        f"From: Jürgen Müller <x@example.org>\r\nTo: {JUDGE}\r\nSubject: hi\r\n"
        f"Message-ID: <u2@x>\r\n\r\nLIST\r\n"
    ).encode()
    codes = await _deliver(database, clock, (address, raw1, True), ("x@example.org", raw2, False))
    assert codes == [250, 250]
    process_pending(database, _config(), clock)
    with database.reading() as s:
        rows = s.scalars(select(InboundMessage).order_by(InboundMessage.id)).all()
        assert [(r.sender, r.state, r.error) for r in rows] == [
            (address, "done", None),
            ("x@example.org", "done", None),
        ]
    (to1, header1, body1), (to2, _, body2) = _outbox(database)
    assert to1 == (address,) and header1 == address and "JOIN <game> <password>" in body1
    assert to2 == ("x@example.org",) and "LIST" in body2


async def test_a_message_without_message_id_delivered_twice_is_applied_once(database):
    from .judge import TestJudge
    from .test_game import addr, signon, snapshot, start_game

    judge = TestJudge(database)
    start_game(judge)
    raw = (
        f"From: {addr('FRANCE')}\r\nTo: {JUDGE}\r\nSubject: money\r\n"
        f"Date: Thu, 01 Jan 2026 00:10:00 +0000\r\n\r\n"
        f"{signon('FRANCE')}\r\nTRANSFER 5 TO ENGLAND\r\n"
    ).encode()
    # the second copy came round another relay, which added its own trace header
    again = b"Received: from relay2.example.org by judge.test; Thu, 1 Jan 2026 00:11:00 +0000\r\n" + raw
    codes = await _deliver(
        database, judge.clock, (addr("FRANCE"), raw, False), (addr("FRANCE"), again, False)
    )
    assert codes == [250, 250]
    judge.process()
    _, balances, _, _ = snapshot(judge)
    assert balances["FRANCE"] == 48 - 5 and balances["ENGLAND"] == 48 + 5
    with database.reading() as s:
        assert s.scalar(select(InboundMessage).where(InboundMessage.content_hash.is_not(None))) is not None


# -- the rate limit never loses a message (item 2) ------------------------------------------


def test_forged_mail_over_the_rate_limit_never_silences_the_real_player(database):
    from .judge import TestJudge
    from .test_game import addr, signon, start_game

    judge = TestJudge(database)
    start_game(judge)
    judge.config = _config(rate_limit_per_hour=5)
    france = addr("FRANCE")
    judge.inbox(france)
    for _ in range(8):  # forged: From is free
        judge.send(france, "LIST\n")
    # France's JOIN and four LISTs make five answers this hour: four LISTs wait
    assert len(judge.inbox(france)) == 4
    # the real player signs on: answered at once, whatever the forger sent
    judge.send(france, f"{signon('FRANCE')}\nBALANCE\n")
    [reply] = judge.inbox(france)
    assert "was processed" in reply.body and "48" in reply.body
    # an unsigned message waits its turn, and is answered when it comes
    judge.send(france, "SUMMARY pay7\n")
    assert judge.inbox(france) == []
    judge.clock.advance(hours=3)
    for _ in range(3):
        judge.process()
    with database.reading() as s:
        rows = s.scalars(select(InboundMessage).where(InboundMessage.sender == france)).all()
        assert all(r.state == "done" and not (r.error or "").startswith("ignored") for r in rows)
    got = judge.inbox(france)
    assert len(got) == 5 and "SUMMARY" in got[-1].body


# -- password guessing is throttled per seat (item 3) ----------------------------------------


def test_guesses_from_many_addresses_lock_the_seat_and_tell_the_owner(database):
    from .judge import TestJudge
    from .test_game import GM, addr, start_game

    judge = TestJudge(database)
    start_game(judge)
    limit = judge.config.signon_failure_limit
    for i in range(limit):
        judge.send(f"guesser{i}@evil.test", f"SIGNON Fpay7 guess{i:04d}\nBALANCE\n")
        assert "invalid power or password" in judge.last_reply(f"guesser{i}@evil.test")
    [warning] = [m for m in judge.inbox(addr("FRANCE")) if m.kind == "security"]
    assert f"{limit} sign-ons as FRANCE" in warning.body and "guess000" not in warning.body
    # now even the right password is refused from a stranger's address, unchecked …
    judge.send("guesser99@evil.test", "SIGNON Fpay7 pw-france\nBALANCE\n")
    assert "too many failed sign-ons as FRANCE" in judge.last_reply("guesser99@evil.test")
    # … while the owner, from the registered address, still signs on
    judge.send(addr("FRANCE"), "SIGNON Fpay7 pw-france\nBALANCE\n")
    assert "was processed" in judge.last_reply(addr("FRANCE"))
    # the Master's seat is throttled the same way
    for i in range(limit):
        judge.send(f"m{i}@evil.test", f"SIGNON Mpay7 guess{i:04d}\nPROCESS\n")
    assert any(m.kind == "security" and "MASTER" in m.body for m in judge.inbox(GM))
    judge.send("m99@evil.test", "SIGNON Mpay7 masterpw\nPROCESS\n")
    assert "too many failed sign-ons as MASTER" in judge.last_reply("m99@evil.test")
    # the lock passes with its window
    judge.clock.advance(minutes=judge.config.signon_window_minutes + 1)
    judge.send("guesser99@evil.test", "SIGNON Fpay7 pw-france\nBALANCE\n")
    assert "was processed" in judge.last_reply("guesser99@evil.test")


def test_a_sign_on_looks_for_its_seats_failures_only_when_the_game_had_some_lately(database):
    """The game's query for a sign-on counts its failed sign-ons in the window; with none,
    the seat's own are not looked for (one query less). A failure makes them looked for,
    until it leaves the window."""
    from sqlalchemy import event

    from .judge import TestJudge
    from .test_game import addr, start_game

    judge = TestJudge(database)
    start_game(judge)
    looks = [0]

    @event.listens_for(database.engine, "before_cursor_execute")
    def _statement(conn, cursor, statement, parameters, context, executemany):
        if " ".join(statement.split()).upper().startswith("SELECT SIGNON_FAILURE.AT"):
            looks[0] += 1

    def signs_on(sender: str, password: str) -> int:
        looks[0] = 0
        judge.send(sender, f"SIGNON Fpay7 {password}\nBALANCE\n")
        return looks[0]

    assert signs_on(addr("FRANCE"), "pw-france") == 0
    assert "was processed" in judge.last_reply(addr("FRANCE"))
    assert signs_on("guesser@evil.test", "guess0000") == 1  # none to check; recording it counts them
    assert "invalid power or password" in judge.last_reply("guesser@evil.test")
    assert signs_on(addr("FRANCE"), "pw-france") == 1
    judge.clock.advance(minutes=judge.config.signon_window_minutes + 1)
    assert signs_on(addr("FRANCE"), "pw-france") == 0
    assert "was processed" in judge.last_reply(addr("FRANCE"))


# -- passwords are never shown, nor kept (item 4) --------------------------------------------


def test_passwords_are_masked_in_every_reply_and_redacted_from_stored_mail(database):
    import shutil
    import tempfile
    from pathlib import Path

    from payjudge.service.replay import replay
    from payjudge.store.db import Database
    from tests.dbfix import migrated_sqlite

    from .judge import TestJudge
    from .test_game import GM, addr, start_game

    judge = TestJudge(database)
    start_game(judge)
    france = addr("FRANCE")
    judge.send(france, "SIGNON Fpay7 pw-france\nSIGNON Fpay1 guess0\n")
    judge.send(france, "SIGNON Fpay7 pw-france\nJOIN pay1 secretjoin\n")
    judge.send(france, "SIGNON Fpay7 wrong-one\nSET PASSWORD hidden-new\n")
    judge.send(france, "SIGNON Fpay7 my zebra-one zebra-two\n")
    judge.send(france, "SIGNON Fpay7 pw-france\nSET PASSWORD quagga-a quagga-b\n")
    judge.send(france, "SIGNON Fpay7 pw-france\nSET PASSWORD fresh-pass\nTRANSFER 2 TO ITALY\n")
    judge.send(france, "SIGNON Fpay7 fresh-pass\nTRANSFER 1 TO ITALY\n")
    judge.send(france, "SIGNON Fpay7 pw-france\nTRANSFER 1 TO ITALY\n")  # the old one: refused
    secrets = [
        "guess0",
        "secretjoin",
        "wrong-one",
        "hidden-new",
        "zebra-one",
        "zebra-two",
        "quagga-a",
        "quagga-b",
        "fresh-pass",
        "pw-france",
        "masterpw",
        "watchpw",
        "pw-italy",
    ]
    for mail in judge.sent:
        for word in secrets:
            assert word not in mail.body, (word, mail.body)
    with database.reading() as s:
        rows = s.scalars(select(InboundMessage)).all()
        assert rows and all(r.redacted for r in rows)
        for r in rows:
            for word in secrets:
                assert word.encode() not in r.raw, (word, r.raw)
    folder = Path(tempfile.mkdtemp())
    try:
        url = migrated_sqlite(folder / "replay.sqlite")
        target = Database(url)
        report = replay(database, target, "pay7", judge.config)
        target.dispose()
        assert report.ok and report.identical == report.phases, report.differences
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    assert GM


# -- a message that crashes the processor, clients that hold on (item 9) -------------------------


def _nested(depth: int) -> bytes:
    body = b"Content-Type: text/plain\r\n\r\nHELP\r\n"
    for i in range(depth):
        body = (
            f"Content-Type: multipart/mixed; boundary=b{i}\r\n\r\n--b{i}\r\n".encode()
            + body
            + f"\r\n--b{i}--\r\n".encode()
        )
    return (
        b"From: Deep <deep@example.org>\r\nTo: judge@pj.test\r\nSubject: deep\r\n"
        b"Message-ID: <deep@example.org>\r\nMIME-Version: 1.0\r\n" + body
    )


@pytest.fixture
def default_recursion_limit():
    # the interpreter's default, as the daemon runs with (a library may have raised it)
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    yield
    sys.setrecursionlimit(before)


@pytest.mark.usefixtures("default_recursion_limit")
async def test_a_message_that_blows_up_the_parser_is_quarantined_and_its_sender_told(database):
    clock = FixedClock()
    assert await _deliver(database, clock, ("deep@example.org", _nested(1000), False)) == [250]
    process_pending(database, _config(), clock)
    with database.reading() as s:
        [row] = s.scalars(select(InboundMessage)).all()
        assert row.state == "quarantined" and "RecursionError" in row.error
    [(to, _, body)] = _outbox(database)
    assert to == ("deep@example.org",) and "set aside" in body


async def test_the_listener_bounds_connections_and_cuts_off_a_client_stalled_in_data():
    from payjudge.memory import MemoryInbound

    server = await start_listener(
        MemoryInbound(),
        "127.0.0.1",
        0,
        local_addresses=[JUDGE],
        hostname="judge.test",
        timeout=1,
        max_per_client=2,
    )
    port = server.sockets[0].getsockname()[1]
    async with server:
        streams = [await asyncio.open_connection("127.0.0.1", port) for _ in range(3)]
        greetings = [await reader.readline() for reader, _ in streams]
        assert [g[:3] for g in greetings] == [b"220", b"220", b"421"]
        reader, writer = streams[0]
        for command in (b"EHLO x", b"MAIL FROM:<a@example.org>", f"RCPT TO:<{JUDGE}>".encode(), b"DATA"):
            writer.write(command + b"\r\n")
            while (line := await reader.readline())[3:4] == b"-":
                pass
        assert line.startswith(b"354")
        writer.write(b"Subject: stalled\r\n\r\n" + b"x\r\n" * 1000)  # and nothing more
        assert await asyncio.wait_for(reader.read(), 30) == b""  # cut off by the timeout
        # the connection it held is free again
        again_reader, again_writer = await asyncio.open_connection("127.0.0.1", port)
        assert (await again_reader.readline()).startswith(b"220")
        for _, w in [*streams, (again_reader, again_writer)]:
            w.close()
