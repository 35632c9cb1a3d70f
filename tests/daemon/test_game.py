"""A whole Payola game played by mail through the running daemon: seven players join
by SMTP, send offer sheets and builds; phases are processed by the Master's PROCESS, by
early processing once everyone is ready, and by PROCESS! with late powers."""

from __future__ import annotations

import pytest

from . import script as g
from .checks import duplicate_ledger_entries, processed_phases
from .harness import one_each, recipients_count, send_mail

pytestmark = [pytest.mark.servers, pytest.mark.timeout(180)]

EVERYONE = sorted([g.address(p) for p in g.POWERS] + [g.MASTER])


def _ok(replies, msgid: str) -> str:
    body = replies.reply_to(msgid).body
    assert body.lstrip().startswith("Your message was processed") and "\nERRORS" not in body, body
    return body


def _results(replies, phase: str):
    """The public results of a phase: one mail to each player and to the Master."""
    mails = replies.wait_subject(f"Diplomacy results {g.GAME} {phase}", count=len(EVERYONE), timeout=40)
    assert one_each(mails) == EVERYONE
    mail = mails[0]
    for order in g.EXPECTED.get(phase, ()):
        assert order in mail.body, f"{order!r} missing from the {phase} results:\n{mail.body}"
    return mail


def test_a_game_by_mail(judges, smtp_sink, replies):
    judge = judges(outbound=smtp_sink.url)
    judge.upgrade()
    judge.start()
    port = judge.port

    body = _ok(replies, send_mail(port, g.MASTER, g.create_body(), "new game"))
    assert "created" in body and "POWER_CHOICE" in body

    for power in g.POWERS:
        body = _ok(replies, send_mail(port, g.address(power), g.join_body(power), "join"))
        assert f"as {power}" in body
    welcomes = replies.wait_subject(f"Diplomacy game {g.GAME} starts", count=7)
    assert sorted(m.rcpt for m in welcomes) == sorted((g.address(p),) for p in g.POWERS)
    started = replies.wait_subject(f"Diplomacy game {g.GAME} has started", count=len(EVERYONE))
    assert one_each(started) == EVERYONE

    # Spring 1901: Turkey asks the judge to wait, so the Master processes it
    for power, lines in g.SPRING_1901.items():
        extra = ["SET WAIT"] if power == "TURKEY" else []
        body = _ok(replies, send_mail(port, g.address(power), g.sheet_body(power, lines + extra)))
        assert lines[0].split(":", 1)[1].strip() in body
    body = _ok(replies, send_mail(port, g.MASTER, f"SIGNON M{g.GAME} {g.MASTER_PASSWORD}\nPROCESS"))
    assert "Spring 1901 Movement has been processed" in body
    _results(replies, "S1901M")
    statements = replies.wait_subject(f"Payola bribe results {g.GAME} S1901M", count=7)
    assert sorted(m.rcpt for m in statements) == sorted((g.address(p),) for p in g.POWERS)

    # Fall 1901 and Winter 1901: processed early, by the scheduler, once all are in
    for phase, sheets in (("F1901M", g.FALL_1901), ("W1901A", g.WINTER_1901)):
        for power, lines in sheets.items():
            _ok(replies, send_mail(port, g.address(power), g.sheet_body(power, lines)))
        _results(replies, phase)
    incomes = replies.wait_subject(f"Payola income report {g.GAME} 1901", count=7)
    assert sorted(m.rcpt for m in incomes) == sorted((g.address(p),) for p in g.POWERS)

    # Spring 1902: two powers order, the Master forces the phase
    for power, lines in g.SPRING_1902.items():
        _ok(replies, send_mail(port, g.address(power), g.sheet_body(power, lines)))
    body = _ok(replies, send_mail(port, g.MASTER, f"SIGNON M{g.GAME} {g.MASTER_PASSWORD}\nPROCESS!"))
    assert "Spring 1902 Movement has been processed" in body
    results = _results(replies, "S1902M")
    assert "A PAR - PIC" in results.body

    # every phase once, every mail once, no password anywhere, money applied once
    assert processed_phases(judge) == {1: ["S1901M", "F1901M", "W1901A", "S1902M"]}
    assert duplicate_ledger_entries(judge) == []
    everything = replies.all()
    ids = [m.message_id for m in everything]
    assert len(ids) == len(set(ids)), "a mail was delivered twice"
    results_per_rcpt = recipients_count(replies.with_subject("Diplomacy results"))
    assert results_per_rcpt == dict.fromkeys(EVERYONE, 4)
    for mail in everything:
        text = mail.raw.decode("utf-8", "replace")
        assert g.MASTER_PASSWORD not in text
        assert not any(g.password(p) in text for p in g.POWERS), mail.subject
    assert judge.scalar("SELECT count(*) FROM inbound_message WHERE state <> 'done'") == 0
