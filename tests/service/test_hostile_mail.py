"""Hostile mail that stalled the judge (issue 26, item 5): each input is read with bounded
work, refused where it cannot be read, and none holds the write lock while it is read.
No wall-clock timing: the bounds are counts (values the email package is given, handler
runs) or the CPU budget itself."""

from __future__ import annotations

import asyncio
import email.policy
import smtplib
from dataclasses import replace
from datetime import timedelta

import pytest
from sqlalchemy import select, update

from payjudge.commands import openers
from payjudge.mail.listener import start_listener
from payjudge.service import budget, execute, processor
from payjudge.store.db import _WriterGate
from payjudge.store.mailbox import SqlInbound
from payjudge.store.models import InboundMessage
from payjudge.text.headers import LIMITS
from payjudge.text.message import read_message
from tests.dbfix import migrated_sqlite
from tests.mail import hostile

from .judge import TestJudge
from .test_game import addr, signon, start_game

pytestmark = [pytest.mark.timeout(120)]


class _Unbounded(BaseException):
    """Raised by a probe where the old code did unbounded work (no `except Exception`
    swallows it, so a test fails at once instead of parsing for minutes)."""


def _last(judge: TestJudge) -> InboundMessage:
    with judge.db.reading() as s:
        row = s.scalars(select(InboundMessage).order_by(InboundMessage.id.desc()).limit(1)).one()
        s.expunge(row)
        return row


def _deliver(judge: TestJudge, raw: bytes) -> None:
    judge.clock.advance(seconds=1)
    SqlInbound(judge.db, judge.clock).store_inbound(raw, source="smtp")
    judge.process()


def test_an_html_body_of_open_tags_is_read_within_a_small_cpu_budget():
    """80 KB of `<a b`: 51 s with html.parser; libxml2 reads it in linear time."""
    with budget.message_budget(2.0), budget.interrupting():
        mail = read_message(hostile.html_open_tags())
    assert mail.sender == hostile.SENDER
    assert not [p for p in mail.problems if p.refused]


def test_html_still_reads_commands_typed_in_a_webmail_composer():
    raw = hostile.message(
        "<html><head><title>x</title><style>p{}</style></head><body>"
        "<div>SIGNON Fpay7 secret</div><p>A PAR&nbsp;- BUR<br>F BRE H</p>"
        "<blockquote>quoted</blockquote><pre>A MAR\n  A MUN</pre><!-- note -->end</body></html>",
        content_type="text/html; charset=utf-8",
    )
    assert [line.text for line in read_message(raw).lines] == [
        "SIGNON Fpay7 secret",
        "A PAR - BUR",
        "F BRE H",
        "A MAR",
        "A MUN",
        "end",
    ]


def test_a_punycode_body_is_refused_before_it_is_decoded(database, monkeypatch):
    import encodings.punycode

    def decode(*args, **kwargs):
        raise _Unbounded("the punycode decoder ran")

    monkeypatch.setattr(encodings.punycode, "punycode_decode", decode)
    judge = TestJudge(database)
    _deliver(judge, hostile.punycode_body())
    reply = judge.last_reply(hostile.SENDER)
    assert "NOT processed" in reply
    assert "'punycode' is not a text encoding the judge reads" in reply
    assert _last(judge).state == "done"


@pytest.fixture
def header_probe(monkeypatch) -> list[str]:
    """Every header value the email package's parser is given (after our policy)."""
    seen: list[str] = []
    real = email.policy.EmailPolicy.header_fetch_parse

    def probe(self, name, value):
        if not hasattr(value, "name"):
            if len(value) > LIMITS.characters:
                raise _Unbounded(f"{name}: {len(value):,} characters parsed")
            seen.append(value)
        return real(self, name, value)

    monkeypatch.setattr(email.policy.EmailPolicy, "header_fetch_parse", probe)
    return seen


@pytest.mark.parametrize(
    ("make", "refusal"),
    [
        (hostile.encoded_word_subject, "the Subject header has 419,999 characters; at most 4,096"),
        (hostile.rfc2231_parameters, "the Content-Type header has 408,915 characters"),
    ],
    ids=["subject-encoded-words", "rfc2231-parameters"],
)
def test_a_header_too_large_to_read_is_cut_before_parsing_and_refused(database, header_probe, make, refusal):
    judge = TestJudge(database)
    _deliver(judge, make())
    reply = judge.last_reply(hostile.SENDER)
    assert "NOT processed" in reply and refusal in reply
    # what the parser was given is within every count, not only the length
    assert max(v.count("=?") for v in header_probe) <= LIMITS.encoded_words
    assert max(v.count(";") for v in header_probe) <= LIMITS.parameters


def test_a_from_of_many_addresses_is_cut_at_receipt_and_processing(database, header_probe):
    """Neither the store (the listener's thread) nor the processor parses 50,000
    addresses; without one sender the message is ignored, as before."""
    judge = TestJudge(database)
    _deliver(judge, hostile.many_addresses_from())
    assert max(v.count(",") for v in header_probe) < LIMITS.addresses
    row = _last(judge)
    assert (row.state, row.sender, row.error) == ("done", None, "ignored: no usable sender address")
    assert not judge.sent


@pytest.mark.parametrize("keyword", ["SUMMARY", "HISTORY"])
def test_many_report_lines_are_answered_up_to_a_bound_and_the_rest_said_skipped(
    database, monkeypatch, keyword
):
    judge = TestJudge(database)
    start_game(judge)
    handler = openers.Summary if keyword == "SUMMARY" else openers.History
    runs = [0]
    real = handler.run

    def counted(self, ctx, cmd):
        runs[0] += 1
        if runs[0] > execute.REPORTS_PER_MESSAGE:
            raise _Unbounded(f"{keyword} run {runs[0]} times")
        return real(self, ctx, cmd)

    monkeypatch.setattr(handler, "run", counted)
    judge.sent.clear()
    _deliver(judge, hostile.report_lines(20_000, keyword=keyword))
    assert runs == [execute.REPORTS_PER_MESSAGE]
    reply = judge.last_reply(hostile.SENDER)
    assert "Your message was processed" in reply
    assert "19,990 more LIST, SUMMARY, HISTORY or HELP lines skipped" in reply
    assert len(reply.encode()) < 120_000


def test_a_message_that_spends_its_cpu_budget_is_quarantined_and_its_sender_told(database):
    judge = TestJudge(database)
    judge.config = replace(judge.config, message_cpu_seconds=1e-9)  # a tiny budget
    _deliver(judge, hostile.html_open_tags(2_000))
    row = _last(judge)
    assert row.state == "quarantined" and "processing time" in (row.error or "")
    [told] = judge.inbox(hostile.SENDER)
    assert "set aside" in told.body and "share of the judge's processing time" in told.body
    # the next message has its own budget
    judge.config = replace(judge.config, message_cpu_seconds=10.0)
    _deliver(judge, hostile.message("HELP", msgid="<next@pj.test>"))
    assert "Your message was processed" in judge.last_reply(hostile.SENDER)


def test_the_budget_interrupts_a_read_in_the_email_package(database, monkeypatch):
    """A read that would never end is cut by the CPU timer, even inside the email
    package's own `except Exception` (it fires again), and quarantined."""

    def forever(raw, envelope_from=None):
        try:
            while True:
                sum(range(1000))
        except Exception:  # as the email package swallows errors in places: the first
            pass
        while True:  # then goes on for ever: the timer fires again
            sum(range(1000))

    monkeypatch.setattr(processor, "read_message", forever)
    judge = TestJudge(database)
    judge.config = replace(judge.config, message_cpu_seconds=0.2)
    _deliver(judge, hostile.message("HELP"))
    row = _last(judge)
    assert row.state == "quarantined" and "processing time" in (row.error or "")
    assert "set aside" in judge.last_reply(hostile.SENDER) or judge.inbox(hostile.SENDER)


def test_the_attempt_is_counted_and_committed_before_the_message_is_read(database, monkeypatch):
    judge = TestJudge(database)
    seen: list[int] = []
    real = processor.read_message

    def reading(raw, envelope_from=None):
        with database.reading() as s:  # another session: only what is committed
            seen.append(s.scalars(select(InboundMessage.attempts).order_by(InboundMessage.id.desc())).first())
        return real(raw, envelope_from=envelope_from)

    monkeypatch.setattr(processor, "read_message", reading)
    _deliver(judge, hostile.message("HELP"))
    assert seen == [1]
    row = _last(judge)
    assert (row.state, row.attempts) == ("done", 1)


def _killed_while_reading(judge: TestJudge, attempts: int) -> None:
    """A message as processors killed while reading it leave it: its attempts counted
    and leased (nothing else of it)."""
    judge.clock.advance(seconds=1)
    SqlInbound(judge.db, judge.clock).store_inbound(hostile.html_open_tags(), source="smtp")
    with judge.db.transaction() as s:  # what `_prepare` committed before the kill
        s.execute(
            update(InboundMessage).values(
                attempts=attempts,
                not_before=judge.clock.now() + timedelta(seconds=judge.config.lease_seconds),
            )
        )


def test_a_message_killed_once_is_processed_after_the_lease(database):
    """One kill of the daemon mid-message costs nothing but the lease's wait."""
    judge = TestJudge(database)
    _killed_while_reading(judge, attempts=1)
    judge.process()
    assert _last(judge).state == "new"  # leased: another processor may be reading it
    judge.clock.advance(seconds=judge.config.lease_seconds)
    judge.process()
    row = _last(judge)
    assert (row.state, row.attempts) == ("done", 2)
    assert "NOT processed" in judge.last_reply(hostile.SENDER)  # (no commands in it)


def test_a_message_whose_second_attempt_never_finished_is_quarantined_unread(database, monkeypatch):
    judge = TestJudge(database)
    _killed_while_reading(judge, attempts=2)

    def never(raw, envelope_from=None):
        raise _Unbounded("read a third time")

    monkeypatch.setattr(processor, "read_message", never)
    judge.clock.advance(seconds=judge.config.lease_seconds)
    judge.process()
    row = _last(judge)
    assert (row.state, row.attempts) == ("quarantined", 3)
    assert "did not finish" in (row.error or "")
    [told] = judge.inbox(hostile.SENDER)
    assert "Two attempts to process it did not finish" in told.body


def test_a_deferred_message_keeps_no_attempt(database):
    """Waiting its turn (over the rate limit) is no attempt: its later run is its first."""
    judge = TestJudge(database)
    judge.config = replace(judge.config, rate_limit_per_hour=1)
    _deliver(judge, hostile.message("HELP", msgid="<a@pj.test>"))
    _deliver(judge, hostile.message("HELP", msgid="<b@pj.test>"))
    row = _last(judge)
    assert (row.state, row.attempts) == ("new", 0)
    judge.clock.advance(hours=1)
    judge.process()
    row = _last(judge)
    assert (row.state, row.attempts) == ("done", 1)


@pytest.mark.servers
@pytest.mark.timeout(60)
async def test_the_listener_stores_mail_while_the_processor_reads_a_message(tmp_path, monkeypatch):
    """A real SMTP conversation, made while the processor is in the middle of reading a
    message (on a SQLite file, whose write lock the listener needs): answered 250, where
    it was 451 after waiting for the lock (shortened here to one second)."""
    from payjudge.store.db import Database

    monkeypatch.setattr(_WriterGate, "WAIT_SECONDS", 1.0)
    url = migrated_sqlite(tmp_path / "judge.sqlite")
    db = Database(url)
    judge = TestJudge(db)
    server = await start_listener(
        SqlInbound(db), "127.0.0.1", 0, local_domains=["pj.test"], hostname="judge.test"
    )
    port = server.sockets[0].getsockname()[1]
    answers: list[int] = []
    real = processor.read_message

    def reading(raw, envelope_from=None):
        if not answers:  # the processor is reading: another mail arrives
            with smtplib.SMTP("127.0.0.1", port, local_hostname="client.test", timeout=20) as smtp:
                try:
                    bob = hostile.message("HELP", msgid="<b@pj.test>", sender="bob@pj.test")
                    smtp.sendmail("bob@pj.test", [hostile.JUDGE], bob)
                    answers.append(250)
                except smtplib.SMTPDataError as exc:
                    answers.append(exc.smtp_code)
        return real(raw, envelope_from=envelope_from)

    monkeypatch.setattr(processor, "read_message", reading)
    try:
        async with server:
            SqlInbound(db).store_inbound(hostile.message("HELP"), source="smtp")
            await asyncio.to_thread(judge.process)
        assert answers == [250]
        judge.process()  # and the mail stored meanwhile is answered
        assert "Your message was processed" in judge.last_reply("bob@pj.test")
    finally:
        db.dispose()


def test_control_characters_are_shown_escaped_in_replies(database):
    judge = TestJudge(database)
    start_game(judge)
    judge.sent.clear()
    judge.send(
        addr("FRANCE"), f"{signon('FRANCE')}\nA PAR\x07 - BUR\x1b[2J\x00\n", subject="orders\x07\x1b[31m"
    )
    [mail] = [m for m in judge.inbox(addr("FRANCE")) if m.kind == "reply"]
    assert "\\x07" in mail.body and "\\x1b[2J" in mail.body
    assert "\\x07\\x1b[31m" in mail.subject
    for text in (mail.subject, mail.body):
        assert not any(c in text for c in "\x00\x07\x1b")


def test_a_quarantined_messages_traceback_and_log_keep_no_password(database, monkeypatch, caplog):
    """The traceback of a crash is stored and logged with the message's passwords masked,
    a misspelt opener's too."""

    def crashes(ctx, script):
        raise ValueError(f"cannot handle {[c.text for c in script.commands]!r} or 'SIGNIN Fpay7 pw-italy'")

    judge = TestJudge(database)
    start_game(judge)
    monkeypatch.setattr(processor, "execute", crashes)
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\nSIGNIN Fpay7 pw-italy\nA PAR - BUR\n")
    row = _last(judge)
    assert row.state == "quarantined" and "ValueError" in (row.error or "")
    for text in (row.error or "", caplog.text):
        assert "pw-france" not in text and "pw-italy" not in text
    assert "********" in (row.error or "")
    assert all("pw-" not in m.body for m in judge.sent)
