"""The hostile mail of issue 26, item 5: messages of at most 1 MB that took the processor
from seconds to hours to read. Shared by tests/service/test_hostile_mail.py and
benchmarks/hostile_mail.py (which times each before and after)."""

from __future__ import annotations

from collections.abc import Callable

SENDER = "mallory@pj.test"
JUDGE = "judge@pj.test"


def message(
    body: str,
    *,
    content_type: str = "text/plain; charset=utf-8",
    subject: str = "hello",
    sender: str = SENDER,
    msgid: str = "<hostile@pj.test>",
) -> bytes:
    return (
        f"From: {sender}\r\nTo: {JUDGE}\r\nSubject: {subject}\r\nMessage-ID: {msgid}\r\n"
        f"MIME-Version: 1.0\r\nContent-Type: {content_type}\r\n\r\n{body}\r\n"
    ).encode()


def html_open_tags(n: int = 20_000) -> bytes:
    """An HTML-only body of `<a b` n times (80 KB): html.parser rescans it at every tag."""
    return message("<a b" * n, content_type="text/html; charset=utf-8")


def punycode_body(n: int = 450_000) -> bytes:
    """A body labelled `charset=punycode` (900 KB): Python's punycode decoder copies the
    whole string at each character it inserts (quadratic), and it is no charset of mail."""
    encoded = ("a" * n + "\U0001f600" * n).encode("punycode").decode("ascii")
    return message(encoded, content_type="text/plain; charset=punycode")


def encoded_word_subject(n: int = 30_000) -> bytes:
    """A Subject of n RFC 2047 encoded words."""
    return message("HELP", subject=" ".join(["=?utf-8?q?a?="] * n))


def rfc2231_parameters(n: int = 20_000) -> bytes:
    """A Content-Type of n RFC 2231 parameter pieces."""
    params = "".join(f";\r\n x*{i}*=utf-8''a" for i in range(n))
    return message("HELP", content_type=f"text/plain; charset=utf-8{params}")


def many_addresses_from(n: int = 50_000) -> bytes:
    """A From line of n addresses."""
    return message("HELP", sender=", ".join(f"a{i}@pj.test" for i in range(n)))


def report_lines(n: int = 20_000, game: str = "pay7", keyword: str = "SUMMARY") -> bytes:
    """n SUMMARY (or HISTORY) lines, each a report of a whole game."""
    return message(f"{keyword} {game}\r\n" * n)


ALL: dict[str, Callable[[], bytes]] = {
    "html <a b x20,000": html_open_tags,
    "charset=punycode": punycode_body,
    "Subject of 30,000 encoded words": encoded_word_subject,
    "20,000 RFC 2231 parameters": rfc2231_parameters,
    "From of 50,000 addresses": many_addresses_from,
    "20,000 SUMMARY lines": report_lines,
    "20,000 HISTORY lines": lambda: report_lines(keyword="HISTORY"),
}
