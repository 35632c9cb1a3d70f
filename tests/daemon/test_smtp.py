"""A real SMTP conversation with `payjudge serve`; the replies arrive at a real SMTP sink."""

from __future__ import annotations

import smtplib

import pytest

from . import script as g
from .harness import JUDGE, send_mail

pytestmark = [pytest.mark.servers, pytest.mark.timeout(120)]


def test_help_and_list_are_answered_through_the_sink(judge, replies):
    help_id = send_mail(judge.port, "newbie@players.test", "HELP", "help me")
    list_id = send_mail(judge.port, "newbie@players.test", "LIST")
    help_reply = replies.reply_to(help_id)
    assert help_reply.rcpt == ("newbie@players.test",)
    assert help_reply.subject == "Re: help me"
    assert "JOIN <game> <password>" in help_reply.body and "SIGNON" in help_reply.body
    list_reply = replies.reply_to(list_id)
    assert list_reply.subject == "Re: orders"
    assert "LIST" in list_reply.body
    # one reply each, from the judge, threaded to the message it answers
    assert [m.in_reply_to for m in replies.all()].count(help_id) == 1
    raw = help_reply.raw.decode("utf-8", "replace")
    assert f"From: {JUDGE}" in raw or f"<{JUDGE}>" in raw
    assert "Auto-Submitted: auto-replied" in raw


def test_a_bad_first_line_is_explained(judge, replies):
    msgid = send_mail(judge.port, "lost@players.test", "Hello judge, how do I play?\nA PAR - BUR")
    body = replies.reply_to(msgid).body
    assert "line   1" in body or "line 1" in body
    assert "HELP" in body


def test_a_wrong_password_is_refused_and_never_echoed(judge, replies):
    created = send_mail(judge.port, g.MASTER, g.create_body("pwtest"))
    body = replies.reply_to(created).body
    assert "pwtest" in body and g.MASTER_PASSWORD not in body
    wrong = "Wr0ngHorseBattery"
    msgid = send_mail(judge.port, g.MASTER, f"SIGNON Mpwtest {wrong}\nPROCESS")
    reply = replies.reply_to(msgid)
    assert "invalid power or password" in reply.body
    assert wrong not in reply.raw.decode("utf-8", "replace")
    assert g.MASTER_PASSWORD not in reply.raw.decode("utf-8", "replace")


def test_foreign_recipients_are_refused_at_rcpt(judge, replies):
    with smtplib.SMTP("127.0.0.1", judge.port, timeout=30) as smtp:
        smtp.ehlo()
        code, _ = smtp.mail("spammer@elsewhere.test")
        assert code == 250
        code, text = smtp.rcpt("victim@elsewhere.test")
        assert code == 550 and b"relay" in text
        code, _ = smtp.rcpt(JUDGE)
        assert code == 250
