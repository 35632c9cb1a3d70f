"""Attacks and stumbles of issue 8, sent as bytes through the real SMTP listener into the
real store and processor (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import smtplib
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
    server = await start_listener(SqlInbound(database, clock), "127.0.0.1", 0,
                                  local_addresses=[JUDGE], hostname="judge.test")
    port = server.sockets[0].getsockname()[1]
    async with server:
        return [(await asyncio.to_thread(_smtp, port, sender, raw, utf8=utf8))[0]
                for sender, raw, utf8 in messages]


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
    raw1 = (f"From: {address}\r\nTo: {JUDGE}\r\nSubject: grüße\r\nMessage-ID: <u1@x>\r\n"
            f"Content-Type: text/plain; charset=utf-8\r\n\r\nHELP\r\n").encode()
    raw2 = (f"From: Jürgen Müller <x@example.org>\r\nTo: {JUDGE}\r\nSubject: hi\r\n"
            f"Message-ID: <u2@x>\r\n\r\nLIST\r\n").encode()
    codes = await _deliver(database, clock, (address, raw1, True), ("x@example.org", raw2, False))
    assert codes == [250, 250]
    process_pending(database, _config(), clock)
    with database.reading() as s:
        rows = s.scalars(select(InboundMessage).order_by(InboundMessage.id)).all()
        assert [(r.sender, r.state, r.error) for r in rows] == [
            (address, "done", None), ("x@example.org", "done", None)]
    (to1, header1, body1), (to2, _, body2) = _outbox(database)
    assert to1 == (address,) and header1 == address and "JOIN <game> <password>" in body1
    assert to2 == ("x@example.org",) and "LIST" in body2


async def test_a_message_without_message_id_delivered_twice_is_applied_once(database):
    from .judge import TestJudge
    from .test_game import addr, signon, snapshot, start_game
    judge = TestJudge(database)
    start_game(judge)
    raw = (f"From: {addr('FRANCE')}\r\nTo: {JUDGE}\r\nSubject: money\r\n"
           f"Date: Thu, 01 Jan 2026 00:10:00 +0000\r\n\r\n"
           f"{signon('FRANCE')}\r\nTRANSFER 5 TO ENGLAND\r\n").encode()
    # the second copy came round another relay, which added its own trace header
    again = b"Received: from relay2.example.org by judge.test; Thu, 1 Jan 2026 00:11:00 +0000\r\n" + raw
    codes = await _deliver(database, judge.clock, (addr("FRANCE"), raw, False),
                           (addr("FRANCE"), again, False))
    assert codes == [250, 250]
    judge.process()
    _, balances, _, _ = snapshot(judge)
    assert balances["FRANCE"] == 48 - 5 and balances["ENGLAND"] == 48 + 5
    with database.reading() as s:
        assert s.scalar(select(InboundMessage).where(InboundMessage.content_hash.is_not(None))) is not None
