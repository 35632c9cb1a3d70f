"""The outbox sender against a real SMTP sink and a real Maildir."""

from __future__ import annotations

import asyncio
import mailbox
import random
import shutil
import ssl
import tempfile
from datetime import UTC, timedelta
from datetime import datetime as _dt
from email import message_from_bytes, policy
from pathlib import Path

import pytest

from payjudge.mail.sender import MaildirTransport, OutboxSender, SendResult, SmtpTransport, transport_from_url
from payjudge.memory import FixedClock, MemoryOutbox
from payjudge.text.compose import compose_mail
from tests.servers import free_port

pytestmark = [pytest.mark.timeout(30)]

JUDGE = "judge@payola.test"

_T0 = _dt(2026, 1, 1, 12, 0, tzinfo=UTC)


def queue(outbox: MemoryOutbox, *recipients: str, when=None):
    mails = []
    for rcpt in recipients:
        msgid, raw = compose_mail(
            f"Payola Judge <{JUDGE}>",
            rcpt,
            f"pay7 results for {rcpt}",
            f"Hello {rcpt},\nSpring 1901 – the results.\n",
            message_id=f"<t1.{id(object())}@payola.test>",
            date=_T0,
        )
        mails.append(outbox.add(JUDGE, [rcpt], raw, msgid, when))
    return mails


def sender_for(outbox, transport, clock=None, **kwargs):
    return OutboxSender(outbox, transport, clock or FixedClock(), rng=random.Random(7), **kwargs)


@pytest.fixture
def smtp_transport(smtp_sink):
    return SmtpTransport(smtp_sink.host, smtp_sink.port, timeout=10)


@pytest.mark.servers
def test_mails_arrive_byte_identical_with_our_message_id(smtp_sink, smtp_transport):
    outbox = MemoryOutbox()
    mails = queue(outbox, "alice@example.org", "bob@example.org", "carol@example.org")
    assert sender_for(outbox, smtp_transport).send_due() == SendResult(sent=3)
    received = smtp_sink.wait_for(3)
    assert [r.data for r in received] == [m.raw for m in mails]
    assert [message_from_bytes(r.data, policy=policy.default)["Message-ID"] for r in received] == [
        m.message_id for m in mails
    ]
    assert [r.rcpt_tos for r in received] == [[m.recipients[0]] for m in mails]
    assert all(r.mail_from == JUDGE for r in received)
    assert [m.id for m in outbox.sent] == [m.id for m in mails] and not outbox.pending


@pytest.mark.servers
def test_a_451_is_retried_later_with_backoff(smtp_sink, smtp_transport):
    outbox, clock = MemoryOutbox(), FixedClock()
    [mail] = queue(outbox, "alice@example.org")
    smtp_sink.refuse_data("451 4.3.0 Try again later")
    sender = sender_for(outbox, smtp_transport, clock, retry_base=timedelta(minutes=1))
    assert sender.send_due() == SendResult(retrying=1)
    retry_at = outbox.due[mail.id]
    assert clock.now() + timedelta(seconds=30) <= retry_at <= clock.now() + timedelta(seconds=60)
    assert outbox.pending[mail.id].attempts == 1
    assert sender.send_due() == SendResult()  # not due yet
    clock.current = retry_at
    assert sender.send_due() == SendResult(sent=1)
    assert smtp_sink.wait_for(1)[0].data == mail.raw


@pytest.mark.servers
@pytest.mark.parametrize("where", ["data", "rcpt"])
def test_a_550_gives_up(smtp_sink, smtp_transport, where):
    outbox = MemoryOutbox()
    queue(outbox, "nobody@example.org")
    refusal = "550 5.1.1 No such user"
    (smtp_sink.refuse_data if where == "data" else smtp_sink.refuse_rcpt)(refusal)
    assert sender_for(outbox, smtp_transport).send_due() == SendResult(given_up=1)
    [(mail, error)] = outbox.failed
    assert error.endswith("550 5.1.1 No such user") and mail.attempts == 1
    assert not outbox.pending and smtp_sink.messages == []


@pytest.mark.servers
def test_a_temporary_rcpt_refusal_is_retried(smtp_sink, smtp_transport):
    outbox = MemoryOutbox()
    queue(outbox, "busy@example.org")
    smtp_sink.refuse_rcpt("450 4.2.1 Mailbox busy")
    assert sender_for(outbox, smtp_transport).send_due() == SendResult(retrying=1)


@pytest.mark.servers
def test_one_failure_does_not_stop_the_batch(smtp_sink, smtp_transport):
    outbox = MemoryOutbox()
    queue(
        outbox,
        "alice@example.org",
        "gone@example.org",
        "bob@example.org",
        "busy@example.org",
        "carol@example.org",
    )
    smtp_sink.refuse_recipient("gone@example.org", "550 5.1.1 Gone")
    smtp_sink.refuse_recipient("busy@example.org", "452 4.2.2 Over quota")
    result = sender_for(outbox, smtp_transport).send_due()
    assert result == SendResult(sent=3, retrying=1, given_up=1)
    assert [r.rcpt_tos for r in smtp_sink.wait_for(3)] == [
        ["alice@example.org"],
        ["bob@example.org"],
        ["carol@example.org"],
    ]


@pytest.mark.servers
def test_an_unreachable_relay_defers_the_whole_batch_at_once():
    outbox = MemoryOutbox()
    queue(outbox, "a@example.org", "b@example.org", "c@example.org")
    attempts: list[int] = []

    class Counting(SmtpTransport):
        def _connect(self):
            attempts.append(1)
            return super()._connect()

    transport = Counting("127.0.0.1", free_port(), timeout=5)
    assert sender_for(outbox, transport).send_due() == SendResult(retrying=3)
    assert len(attempts) == 1  # one refused connection defers the batch: no wait per mail
    assert all(m.attempts == 1 for m in outbox.pending.values())


def test_gives_up_after_max_attempts():
    outbox, clock = MemoryOutbox(), FixedClock()
    queue(outbox, "a@example.org")
    transport = SmtpTransport("127.0.0.1", free_port(), timeout=5)
    sender = sender_for(outbox, transport, clock, max_attempts=3, retry_max=timedelta(minutes=5))
    results = []
    for _ in range(3):
        results.append(sender.send_due())
        clock.advance(hours=1)
    assert results == [SendResult(retrying=1), SendResult(retrying=1), SendResult(given_up=1)]
    assert outbox.failed[0][0].attempts == 3


def test_backoff_grows_and_is_capped():
    outbox, clock = MemoryOutbox(), FixedClock()
    [mail] = queue(outbox, "a@example.org")
    transport = SmtpTransport("127.0.0.1", free_port(), timeout=5)
    sender = sender_for(
        outbox,
        transport,
        clock,
        retry_base=timedelta(minutes=1),
        retry_max=timedelta(minutes=10),
        max_attempts=100,
    )
    delays = []
    for _ in range(8):
        sender.send_due()
        delays.append((outbox.due[mail.id] - clock.now()).total_seconds())
        clock.current = outbox.due[mail.id]
    assert delays[0] <= 60 and delays[3] >= 240
    assert all(d <= 600 for d in delays) and delays[-1] >= 300


class ForgetfulOutbox(MemoryOutbox):
    """mark_sent fails (the database went away after the mail left)."""

    def mark_sent(self, mail_id, now):
        raise RuntimeError("database is locked")


@pytest.mark.servers
def test_a_failing_mark_sent_does_not_stop_the_batch(smtp_sink, smtp_transport):
    outbox = ForgetfulOutbox()
    queue(outbox, "a@example.org", "b@example.org")
    assert sender_for(outbox, smtp_transport).send_due() == SendResult(sent=2)
    assert len(smtp_sink.wait_for(2)) == 2
    assert len(outbox.pending) == 2  # will be sent again, with the same Message-ID


@pytest.mark.servers
async def test_run_sends_on_wake_and_stops(smtp_sink, smtp_transport):
    outbox = MemoryOutbox()
    sender = sender_for(outbox, smtp_transport)
    stop = asyncio.Event()
    task = asyncio.create_task(sender.run(stop, interval=60))
    try:
        await asyncio.sleep(0)  # let run() start
        queue(outbox, "a@example.org")
        await asyncio.to_thread(sender.wake)  # from another thread, as the processor would
        await asyncio.to_thread(smtp_sink.wait_for, 1, 5)
        queue(outbox, "b@example.org")
        sender.wake()  # from the loop
        await asyncio.to_thread(smtp_sink.wait_for, 2, 5)
    finally:
        stop.set()
        await asyncio.wait_for(task, 5)
    assert len(outbox.sent) == 2


async def test_passes_that_follow_each_other_share_one_connection(smtp_sink):
    class Counting(SmtpTransport):
        connections = 0

        def _connect(self):
            Counting.connections += 1
            return super()._connect()

    outbox = MemoryOutbox()
    sender = sender_for(outbox, Counting(smtp_sink.host, smtp_sink.port, timeout=10))
    stop = asyncio.Event()
    task = asyncio.create_task(sender.run(stop, interval=60))
    try:
        await asyncio.sleep(0)  # let run() start
        for n, rcpt in enumerate(("a@example.org", "b@example.org", "c@example.org"), 1):
            queue(outbox, rcpt)
            sender.wake()  # as after each batch of processed messages
            await asyncio.to_thread(smtp_sink.wait_for, n, 5)
    finally:
        stop.set()
        await asyncio.wait_for(task, 5)
    assert len(outbox.sent) == 3
    assert Counting.connections == 1


async def test_run_survives_an_outbox_that_fails(caplog):
    class BrokenOutbox(MemoryOutbox):
        calls = 0

        def claim_due(self, now, limit=50):
            BrokenOutbox.calls += 1
            raise RuntimeError("no database")

    sender = sender_for(BrokenOutbox(), MaildirTransport("/nonexistent"))
    stop = asyncio.Event()
    task = asyncio.create_task(sender.run(stop, interval=0.01))
    while BrokenOutbox.calls < 3:
        await asyncio.sleep(0.01)
    stop.set()
    await asyncio.wait_for(task, 5)
    assert "outbox sender pass failed" in caplog.text


@pytest.fixture
def maildir_path():
    d = Path(tempfile.mkdtemp(prefix="pj-maildir-"))
    yield d / "outbox"
    shutil.rmtree(d, ignore_errors=True)


def test_maildir_transport_writes_each_mail_into_new(maildir_path):
    outbox = MemoryOutbox()
    mails = queue(outbox, "a@example.org", "b@example.org")
    sender = sender_for(outbox, transport_from_url(f"maildir:{maildir_path}"))
    assert sender.send_due() == SendResult(sent=2)
    files = sorted((maildir_path / "new").iterdir())
    assert len(files) == 2 and not list((maildir_path / "tmp").iterdir())
    assert sorted(f.read_bytes() for f in files) == sorted(m.raw for m in mails)
    box = mailbox.Maildir(maildir_path, create=False)
    assert sorted(m["Message-ID"] for m in box) == sorted(m.message_id for m in mails)


def test_an_unwritable_maildir_is_retried(maildir_path):
    maildir_path.write_text("not a directory")
    outbox = MemoryOutbox()
    queue(outbox, "a@example.org")
    assert sender_for(outbox, MaildirTransport(maildir_path)).send_due() == SendResult(retrying=1)


def test_transport_from_url():
    t = transport_from_url("smtp://relay.example.org:2525")
    assert isinstance(t, SmtpTransport) and (t.host, t.port, t.starttls, t.username) == (
        "relay.example.org",
        2525,
        False,
        None,
    )
    t = transport_from_url("smtp://judge%40x.org:s%3Acret@relay.example.org?starttls=1")
    assert (t.port, t.starttls, t.username, t.password) == (25, True, "judge@x.org", "s:cret")
    t = transport_from_url("smtps://relay.example.org")
    assert (t.port, t.implicit_tls) == (465, True)
    assert transport_from_url("maildir:/var/lib/payjudge/outbox").path == Path("/var/lib/payjudge/outbox")
    assert transport_from_url("maildir:data/outbox").path == Path("data/outbox")
    assert transport_from_url("maildir:///srv/outbox").path == Path("/srv/outbox")
    for bad in ("http://x", "maildir:", "smtp://"):
        with pytest.raises(ValueError):
            transport_from_url(bad)


@pytest.fixture
def tls_sink():
    """An SMTP sink that offers STARTTLS and wants AUTH (only after STARTTLS)."""
    from aiosmtpd.controller import Controller
    from aiosmtpd.smtp import AuthResult

    from tests.servers import SinkHandler, SmtpSink, make_certificate

    d = Path(tempfile.mkdtemp(prefix="pj-tls-"))
    certificate = make_certificate(d)
    if certificate is None:
        shutil.rmtree(d)
        pytest.skip("openssl is needed to make the test certificate")
    server_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_context.load_cert_chain(*certificate)

    def authenticator(server, session, envelope, mechanism, auth_data):
        ok = (auth_data.login, auth_data.password) == (b"judge", b"s3cret")
        return AuthResult(success=ok, handled=False)  # handled=True would send no reply

    handler = SinkHandler()
    controller = Controller(
        handler,
        hostname="127.0.0.1",
        port=free_port(),
        ready_timeout=10,
        server_hostname="tls-sink.test",
        tls_context=server_context,
        authenticator=authenticator,
        auth_required=True,
    )
    controller.start()
    try:
        yield SmtpSink(controller, handler), ssl.create_default_context(cafile=str(certificate[0]))
    finally:
        controller.stop()
        shutil.rmtree(d, ignore_errors=True)


@pytest.mark.servers
def test_starttls_and_login(tls_sink):
    sink, client_context = tls_sink
    outbox = MemoryOutbox()
    [mail] = queue(outbox, "a@example.org")
    transport = SmtpTransport(
        sink.host,
        sink.port,
        starttls=True,
        username="judge",
        password="s3cret",
        ssl_context=client_context,
        timeout=10,
    )
    assert sender_for(outbox, transport).send_due() == SendResult(sent=1)
    assert sink.wait_for(1)[0].data == mail.raw


@pytest.mark.servers
def test_a_refused_login_is_retried_not_given_up(tls_sink):
    sink, client_context = tls_sink
    outbox = MemoryOutbox()
    queue(outbox, "a@example.org", "b@example.org")
    transport = SmtpTransport(
        sink.host,
        sink.port,
        starttls=True,
        username="judge",
        password="wrong",
        ssl_context=client_context,
        timeout=10,
    )
    assert sender_for(outbox, transport).send_due() == SendResult(retrying=2)
