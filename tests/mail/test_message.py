"""Reading inbound mail: each .eml under messages/ with what the judge must read from it."""

from __future__ import annotations

import ast
from datetime import UTC
from datetime import datetime as _dt
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from payjudge.text import mailbody
from payjudge.text import message as message_module
from payjudge.text.compose import compose_mail
from payjudge.text.mailbody import ProblemKind
from payjudge.text.message import read_message
from tests.sources import source_of

MESSAGES = Path(__file__).parent / "messages"

SIGNON_F = (1, "SIGNON Fpay7 secret")

# file: (sender, reply_to, subject, automated, lines, problem kinds)
CASES = {
    "plain.eml": (
        "alice@example.org",
        (),
        "orders for pay7",
        False,
        [SIGNON_F, (4, "5 : A PAR - BUR   % the big push"), (5, "  3 : F BRE H"), (7, "SIGNOFF")],
        set(),
    ),
    "qp-windows-1252.eml": (
        "francois@example.fr",
        (),
        "ordres café",
        False,
        [(1, "SIGNON Fpay7 sésame"), (2, "2 : A MAR – GAS")],
        set(),
    ),
    "html-only-base64.eml": (
        "gerd@example.de",
        (),
        "html orders",
        False,
        [(1, "SIGNON Gpay7 secret"), (2, "4 : A MUN – BOH"), (4, "LIST pay7")],
        set(),
    ),
    "multipart-alternative.eml": (
        "ivan@example.ru",
        (),
        "alt",
        False,
        [(1, "SIGNON Rpay7 secret"), (2, "6 : F SEV - BLA")],
        set(),
    ),
    "garbled-part.eml": (
        "tom@example.tr",
        (),
        "garbled",
        False,
        [(1, "SIGNON Tpay7 secret"), (2, "3 : A CON H")],
        {ProblemKind.ENCODING},
    ),
    "auto-reply.eml": (
        "alice@example.org",
        (),
        "Out of office: pay7 results",
        True,
        [(1, "I am away until Monday.")],
        set(),
    ),
    "list-mail.eml": ("digest@lists.example.net", (), "Weekly digest", True, [(1, "LIST")], set()),
    "bounce.eml": (
        "mailer-daemon@mx.example.org",
        (),
        "Undelivered Mail Returned to Sender",
        True,
        [(1, "This is the mail system. Your message could not be delivered.")],
        set(),
    ),
    "spoof-two-addresses.eml": (None, (), "two senders", False, [SIGNON_F], {ProblemKind.SENDER}),
    "spoof-parenthesis.eml": (None, (), "parenthesis trick", False, [SIGNON_F], {ProblemKind.SENDER}),
    "signature-and-quote.eml": (
        "alice@example.org",
        ("alice.mobile@example.net",),
        "Re: pay7 Spring 1901 results",
        False,
        [SIGNON_F, (3, "5 : A PAR - BUR")],
        set(),
    ),
    "outlook-reply.eml": (
        "bob@example.com",
        (),
        "RE: pay7",
        False,
        [(1, "SIGNON Epay7 secret"), (2, "2 : F LON - NTH")],
        set(),
    ),
    "outlook-header-block.eml": (
        "bob@example.com",
        (),
        "RE: pay7",
        False,
        [(1, "SIGNON Epay7 secret"), (2, "BALANCE")],
        set(),
    ),
    "format-flowed.eml": (
        "tb@example.org",
        (),
        "long offer line",
        False,
        [
            (1, "SIGNON Ipay7 secret"),
            (2, "4*3 + 2*4#2 + 1 : A VEN S A TRI | - TYR | - ROM | - PIE | S A ROM - APU | H"),
            (3, " From here on space-stuffed"),
            (4, "ACCEPT IAF?"),
        ],
        set(),
    ),
    "no-from.eml": (None, (), "who am I", False, [(1, "LIST")], {ProblemKind.SENDER}),
    "attachment-only.eml": ("carol@example.org", (), "picture", False, [], {ProblemKind.BODY}),
}

_T0 = _dt(2026, 1, 1, 12, 0, tzinfo=UTC)


def test_every_message_file_has_a_case():
    assert {p.name for p in MESSAGES.glob("*.eml")} == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_reading(name):
    sender, reply_to, subject, automated, lines, problems = CASES[name]
    mail = read_message((MESSAGES / name).read_bytes())
    assert mail.sender == sender
    assert mail.reply_to == reply_to
    assert mail.subject == subject
    assert mail.automated is automated, mail.automated_reason
    assert [tuple(line) for line in mail.lines] == lines
    assert {p.kind for p in mail.problems} == problems
    assert mail.message_id and mail.message_id.startswith("<")


def test_threading_headers_are_kept():
    mail = read_message((MESSAGES / "signature-and-quote.eml").read_bytes())
    assert mail.in_reply_to == "<judge-42@payola.test>"
    assert mail.references == ("<judge-41@payola.test>", "<judge-42@payola.test>")


def test_line_numbers_index_the_body():
    mail = read_message((MESSAGES / "plain.eml").read_bytes())
    body_lines = mail.body.splitlines()
    for number, text in mail.lines:
        assert body_lines[number - 1].rstrip() == text


@pytest.mark.parametrize("envelope_from, automated", [("", True), ("<>", True), ("a@b.example", False)])
def test_empty_envelope_sender_is_a_bounce(envelope_from, automated):
    raw = (MESSAGES / "plain.eml").read_bytes()
    assert read_message(raw, envelope_from=envelope_from).automated is automated


@pytest.mark.parametrize(
    "value, automated",
    [("no", False), ("No ; x=y", False), ("auto-generated", True), ("auto-notified", True)],
)
def test_auto_submitted_values(value, automated):
    raw = f"From: a@b.example\nAuto-Submitted: {value}\n\nLIST\n".encode()
    assert read_message(raw).automated is automated


def test_a_header_the_parser_chokes_on_is_a_problem_not_an_exception():
    mail = read_message(b"From: =?utf-8?q?Al=0Dice?= <a@b.example>\r\n\r\nLIST\r\n")
    assert mail.sender is None and {p.kind for p in mail.problems} == {ProblemKind.SENDER}


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2000))
def test_any_bytes_are_read_without_exception(raw):
    read_message(raw)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                b"From: a@b.example\r\n",
                b'From: "x" <a@b.example>, c@d\r\n',
                b"Content-Type: multipart/mixed; boundary=q\r\n",
                b"Content-Type: text/plain; charset=bogus\r\n",
                b"Content-Transfer-Encoding: base64\r\n",
                b"Content-Transfer-Encoding: quoted-printable\r\n",
                b"Content-Type: text/html\r\n",
                b"\r\n",
                b"--q\r\n",
                b"--q--\r\n",
                b"=FF=\r\n",
                b"PGI+aGk8L2I+\r\n",
                b"<p>x</p>\r\n",
                b"-- \r\n",
                b"> q\r\n",
                b"On x wrote:\r\n",
                b"\xff\xfe\r\n",
            ]
        ),
        max_size=30,
    )
)
def test_mime_shaped_garbage_is_read_without_exception(chunks):
    read_message(b"".join(chunks))


@pytest.mark.parametrize(
    "flowed, delsp, plain",
    [
        ("a \nb\n> q \n> r\nc \n-- \nsig", False, "a b\n> q r\nc \n-- \nsig"),
        ("ab \ncd\n", True, "abcd\n"),
        (" From x\n", False, "From x\n"),
    ],
)
def test_unflow(flowed, delsp, plain):
    assert mailbody.unflow(flowed, delsp=delsp) == plain


def test_compose_mail():
    msgid, raw = compose_mail(
        "Payola Judge <judge@payola.test>",
        ["alice@example.org"],
        "pay7:\r\n results é",
        "Spring 1901 – results\nline 2\n",
        message_id=f"<t1.{id(object())}@payola.test>",
        date=_T0,
        in_reply_to="<sig-1@example.org>",
        references=["<a@x> <b@y>", "junk\r\nBcc: evil@x"],
    )
    assert msgid.startswith("<") and msgid.endswith("@payola.test>")
    assert b"\r\n" in raw and b"\n" not in raw.replace(b"\r\n", b"")
    msg = message_from_bytes(raw, policy=policy.default)
    assert msg["Message-ID"] == msgid
    assert msg["Subject"] == "pay7: results é"
    assert msg["Auto-Submitted"] == "auto-replied"
    assert msg["In-Reply-To"] == "<sig-1@example.org>"
    assert msg["References"] == "<a@x> <b@y> <sig-1@example.org>"
    assert msg["Bcc"] is None and msg["Date"]
    assert msg.get_content_type() == "text/plain" and msg.get_content_charset() == "utf-8"
    assert msg.get_content().replace("\r\n", "\n") == "Spring 1901 – results\nline 2\n"
    assert all(b < 128 for b in raw)  # 7-bit safe for any relay


def test_compose_refuses_line_breaks_in_addresses():
    with pytest.raises(ValueError):
        compose_mail(
            "judge@payola.test",
            "a@b.example\r\nBcc: x@y",
            "s",
            "b",
            message_id=f"<t2.{id(object())}@payola.test>",
            date=_T0,
        )


def test_a_composed_mail_reads_back():
    _, raw = compose_mail(
        "judge@payola.test",
        "alice@example.org",
        "Re: x",
        "SIGNON Fpay7 s\n",
        message_id=f"<t3.{id(object())}@payola.test>",
        date=_T0,
    )
    mail = read_message(raw)
    assert mail.sender == "judge@payola.test"
    assert mail.automated  # our own mail is never answered
    assert [tuple(line) for line in mail.lines] == [(1, "SIGNON Fpay7 s")]


@pytest.mark.parametrize("module", [message_module, mailbody], ids=["message", "mailbody"])
def test_message_module_is_pure(module):
    tree = ast.parse(source_of(module).read_text())
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    # (its own package's modules, imported relatively, are checked by tests/payola/test_purity.py)
    imported |= {
        node.module.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0
    }
    assert imported <= {
        "__future__",
        "codecs",
        "collections",
        "dataclasses",
        "datetime",
        "email",
        "enum",
        "html",
        "re",
        "typing",
    }
