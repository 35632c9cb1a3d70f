"""The SMTP listener in a real SMTP conversation (smtplib client, aiosmtpd server)."""

from __future__ import annotations

import asyncio
import smtplib
import socket

import pytest

from payjudge.mail.listener import start_listener
from payjudge.memory import MemoryInbound

pytestmark = [pytest.mark.servers, pytest.mark.timeout(30)]

MESSAGE = (
    b"From: Alice <alice@example.org>\r\nTo: judge@payola.test\r\nSubject: orders\r\n"
    b"Message-ID: <m1@example.org>\r\n\r\nSIGNON Fpay7 secret\r\n.leading dot\r\n"
)


class FlakyInbound(MemoryInbound):
    """Fails the next `failures` stores, like a database that is briefly down."""

    def __init__(self, failures: int = 0):
        super().__init__()
        self.failures = failures

    def store_inbound(self, raw, **kwargs):
        if self.failures:
            self.failures -= 1
            raise RuntimeError("connection to server at 10.0.0.5 failed: password=hunter2")
        return super().store_inbound(raw, **kwargs)


async def _listen(store, **kwargs):
    options = {"local_domains": ["payola.test"], "hostname": "judge.test"}
    options.update(kwargs)
    server = await start_listener(store, "127.0.0.1", 0, **options)
    return server, server.sockets[0].getsockname()[1]


def _client(port: int) -> smtplib.SMTP:
    return smtplib.SMTP("127.0.0.1", port, local_hostname="client.test", timeout=10)


def _send(port: int, raw: bytes = MESSAGE, sender: str = "alice@example.org", rcpts=("judge@payola.test",)):
    """One message over one connection: the reply code and text of DATA."""
    with _client(port) as smtp:
        smtp.ehlo()
        code, _ = smtp.mail(sender)
        assert code == 250
        for rcpt in rcpts:
            assert smtp.rcpt(rcpt)[0] == 250
        return smtp.data(raw)


async def test_a_message_is_stored_raw_and_acknowledged():
    store = MemoryInbound()
    server, port = await _listen(store)
    async with server:
        code, text = await asyncio.to_thread(_send, port)
    assert (code, text) == (250, b"2.0.0 Message accepted")
    [stored] = store.messages
    assert stored["raw"] == MESSAGE  # byte for byte, dot-unstuffed
    assert stored["source"] == "smtp"
    assert stored["envelope_from"] == "alice@example.org"
    assert stored["envelope_to"] == ["judge@payola.test"]


async def test_a_bounce_with_an_empty_sender_is_stored_with_empty_envelope_from():
    store = MemoryInbound()
    server, port = await _listen(store)
    async with server:
        code, _ = await asyncio.to_thread(_send, port, sender="")
    assert code == 250
    assert store.messages[0]["envelope_from"] == ""


async def test_recipients_are_matched_by_domain_or_address_case_insensitively():
    store = MemoryInbound()
    server, port = await _listen(store, local_domains=[], local_addresses=["Judge@Payola.Test"])

    def conversation():
        with _client(port) as smtp:
            smtp.ehlo()
            smtp.mail("alice@example.org")
            return smtp.rcpt("JUDGE@payola.test")[0], smtp.rcpt("other@payola.test")[0]

    async with server:
        assert await asyncio.to_thread(conversation) == (250, 550)


async def test_a_foreign_recipient_is_refused_we_are_not_a_relay():
    store = MemoryInbound()
    server, port = await _listen(store)

    def conversation():
        with _client(port) as smtp:
            smtp.ehlo()
            smtp.mail("spammer@example.net")
            refused = smtp.rcpt("victim@elsewhere.example")
            accepted = smtp.rcpt("judge@payola.test")
            return refused, accepted, smtp.data(MESSAGE)

    async with server:
        refused, accepted, data = await asyncio.to_thread(conversation)
    assert refused[0] == 550 and refused[1].startswith(b"5.1.1")
    assert accepted[0] == 250 and data[0] == 250
    assert store.messages[0]["envelope_to"] == ["judge@payola.test"]


async def test_only_foreign_recipients_means_no_data():
    store = MemoryInbound()
    server, port = await _listen(store)

    def conversation():
        with _client(port) as smtp:
            with pytest.raises(smtplib.SMTPRecipientsRefused) as refused:
                smtp.sendmail("a@example.org", ["x@elsewhere.example"], MESSAGE)
            return refused.value.recipients

    async with server:
        recipients = await asyncio.to_thread(conversation)
    assert recipients["x@elsewhere.example"][0] == 550
    assert store.messages == []


async def test_an_oversize_message_is_refused_at_MAIL_when_SIZE_is_declared():
    store = MemoryInbound()
    server, port = await _listen(store, size_limit=10_000)
    big = MESSAGE + b"x" * 20_000 + b"\r\n"

    def conversation():
        with _client(port) as smtp:
            smtp.ehlo()
            assert smtp.has_extn("size")
            with pytest.raises(smtplib.SMTPSenderRefused) as refused:
                smtp.sendmail("alice@example.org", ["judge@payola.test"], big)
            return refused.value.smtp_code

    async with server:
        assert await asyncio.to_thread(conversation) == 552
    assert store.messages == []


async def test_an_oversize_message_is_refused_after_DATA_without_SIZE():
    store = MemoryInbound()
    server, port = await _listen(store, size_limit=10_000)
    big = MESSAGE + (b"y" * 70 + b"\r\n") * 300

    async with server:
        code, _ = await asyncio.to_thread(_send, port, big)
    assert code == 552
    assert store.messages == []


async def test_a_storage_failure_answers_451_without_leaking_and_a_retry_is_stored_once():
    store = FlakyInbound(failures=1)
    server, port = await _listen(store)
    async with server:
        first = await asyncio.to_thread(_send, port)
        assert store.messages == []  # nothing half-stored
        second = await asyncio.to_thread(_send, port)
    assert first == (451, b"4.3.0 Temporary failure, please retry")
    assert b"hunter2" not in first[1] and b"RuntimeError" not in first[1]
    assert second[0] == 250
    assert len(store.messages) == 1


async def test_a_store_that_is_down_never_gets_a_5xx():
    store = MemoryInbound(fail=True)
    server, port = await _listen(store)
    async with server:
        results = [await asyncio.to_thread(_send, port) for _ in range(3)]
    assert {code for code, _ in results} == {451}


async def test_a_duplicate_message_id_is_acknowledged_and_stored_once():
    store = MemoryInbound()
    server, port = await _listen(store)
    async with server:
        first = await asyncio.to_thread(_send, port)
        second = await asyncio.to_thread(_send, port)
    assert first[0] == second[0] == 250
    assert len(store.messages) == 1


async def test_several_messages_on_one_connection_and_parallel_clients():
    store = MemoryInbound()
    server, port = await _listen(store)

    def client(n: int):
        with _client(port) as smtp:
            for i in range(5):
                raw = MESSAGE.replace(b"<m1@", f"<c{n}-{i}@".encode())
                smtp.sendmail("alice@example.org", ["judge@payola.test"], raw)

    async with server:
        await asyncio.gather(*(asyncio.to_thread(client, n) for n in range(4)))
    assert len(store.messages) == 20


async def test_the_listener_runs_on_the_callers_loop_and_closes():
    store = MemoryInbound()
    server, port = await _listen(store)
    assert server.get_loop() is asyncio.get_running_loop()
    server.close()
    await server.wait_closed()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()


async def test_the_listener_needs_local_recipients():
    with pytest.raises(ValueError):
        await start_listener(MemoryInbound(), "127.0.0.1", 0, hostname="judge.test")


async def test_starttls_is_offered_with_a_tls_context():
    import shutil
    import ssl
    import tempfile
    from pathlib import Path

    from tests.servers import make_certificate

    d = Path(tempfile.mkdtemp(prefix="pj-tls-"))
    try:
        certificate = make_certificate(d)
        if certificate is None:
            pytest.skip("openssl is needed to make the test certificate")
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(*certificate)
        store = MemoryInbound()
        server, port = await _listen(store, tls_context=context)

        def conversation():
            with _client(port) as smtp:
                smtp.starttls(context=ssl.create_default_context(cafile=str(certificate[0])))
                smtp.sendmail("alice@example.org", ["judge@payola.test"], MESSAGE)

        async with server:
            await asyncio.to_thread(conversation)
        assert store.messages[0]["raw"] == MESSAGE
    finally:
        shutil.rmtree(d, ignore_errors=True)


async def _reply(reader: asyncio.StreamReader) -> bytes:
    """One whole reply (the last line of a multi-line one); b"" once the server closed."""
    while (line := await asyncio.wait_for(reader.readline(), 20))[3:4] == b"-":
        pass
    return line


async def test_noop_keeps_a_session_no_longer_than_its_deadline():
    # issue 26: every NOOP reset the idle cut-off, so a client could hold a slot forever
    server, port = await _listen(MemoryInbound(), timeout=30, session_seconds=1)
    async with server:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        assert (await _reply(reader)).startswith(b"220")
        last = b""
        for _ in range(200):  # 40 s of NOOPs at most; the deadline ends the session long before
            writer.write(b"NOOP\r\n")
            last = await _reply(reader)
            if not last.startswith(b"250"):
                break
            await asyncio.sleep(0.2)
        writer.close()
    assert last.startswith(b"421 4.4.2")


async def test_a_session_is_closed_after_its_command_cap():
    server, port = await _listen(MemoryInbound(), max_commands=10)
    async with server:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        assert (await _reply(reader)).startswith(b"220")
        replies = []
        for _ in range(30):
            writer.write(b"NOOP\r\n")
            replies.append(await _reply(reader))
            if not replies[-1].startswith(b"250"):
                break
        writer.close()
    assert [r[:3] for r in replies] == [b"250"] * 10 + [b"421"]


async def test_a_cap_allows_many_messages_on_one_connection_within_it():
    store = MemoryInbound()
    server, port = await _listen(store, max_commands=40)

    def client():
        with _client(port) as smtp:
            for i in range(8):  # EHLO, 8 × (MAIL, RCPT, DATA), QUIT: 26 commands
                raw = MESSAGE.replace(b"<m1@", f"<cap-{i}@".encode())
                smtp.sendmail("alice@example.org", ["judge@payola.test"], raw)

    async with server:
        await asyncio.to_thread(client)
    assert len(store.messages) == 8


async def _greeting(port: int, source: str) -> tuple[bytes, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    return await _reply(reader), writer


async def test_connections_are_counted_per_network_not_per_address():
    # issue 26: 100 connections from 10 addresses of one network held every slot
    server, port = await _listen(MemoryInbound(), max_per_client=2)
    async with server:
        held = []
        for source in ("127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.1.2"):
            greeting, writer = await _greeting(port, source)
            held.append(writer)
            held_greetings = greeting[:3]
            if source == "127.0.0.4":
                assert held_greetings == b"421", "a third address of 127.0.0.0/24 gets in"
            else:
                assert held_greetings == b"220", source
        for writer in held:
            writer.close()


def test_the_network_of_an_address():
    from payjudge.mail.listener import client_network

    assert client_network("192.0.2.77") == "192.0.2.0/24"
    assert client_network("::ffff:192.0.2.77") == "192.0.2.0/24"
    assert client_network("2001:db8:1:2:aaaa::1") == "2001:db8:1:2::/64"
    assert client_network("fe80::1%eth0") == "fe80::/64"
    assert client_network("not an address") == "not an address"
