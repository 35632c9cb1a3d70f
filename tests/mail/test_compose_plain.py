"""The direct writing of a common reply (`compose._plain_mail`) gives the very bytes the
email package makes of the same mail; anything it does not cover goes the long way."""

from __future__ import annotations

import random
import string
from datetime import UTC, datetime, timedelta, timezone

import pytest

from payjudge.text import compose

DATE = datetime(2026, 3, 1, 12, 30, tzinfo=UTC)


def both(*args, **kwargs) -> tuple[bytes, bytes]:
    """(written directly where it can be, through the email package)."""
    return compose.compose_mail(*args, **kwargs)[1], compose.compose_mail(*args, **kwargs, direct=False)[1]


CASES = [
    ("judge@pj.test", ["a@b.test"], "Re: HELP", "line 1\nline 2\n", "<p@q.test>", ()),
    ("judge@pj.test", ["a@b.test", "c@d.test"], "Re: x", "one\n\n\ntwo", None, ("<r@s> <t@u>",)),
    ("judge@pj.test", ["a@b.test"], "Re: " + "long " * 30, "body\n", None, ()),  # folded subject
    ("judge@pj.test", ["Alice <a@b.test>"], "Re: x", "body\n", None, ()),  # a display name
    ("judge@pj.test", ["a@b.test"], "Re: é", "body\n", None, ()),  # non-ASCII subject
    ("judge@pj.test", ["a@b.test"], "Re: x", "naïve\n", None, ()),  # non-ASCII body
    ("judge@pj.test", ["a@b.test"], "Re: x", "naïve " * 40 + "\nend = 1\n" + "x " * 50, None, ()),
    ("judge@pj.test", ["a@b.test"], "Re: x", "ééé\n" * 5, None, ()),  # base64
    ("judge@pj.test", ["a@b.test"], "Re: x", "trailing blank \n… \t\n", None, ()),
    ("judge@pj.test", ["a@b.test"], "Re: =?utf-8?q?x?=", "body\n", None, ()),
    ("judge@pj.test", ["a@b.test"], "Re: x", "", None, ()),
    ("judge@pj.test", ["a@b.test"], "Re: x", "\n", None, ()),
    ("judge@pj.test", ["a@b.test"], "Re: x", "tab\there  \n.\nFrom me\n", None, ()),
    ("judge@pj.test", ["a@b.test"], "Re: x", "x" * 999 + "\n", None, ()),
    ("judge@pj.test", ["a@b.test"], "Re: x", "a\r\nb\rc\x0cd\n", None, ()),
    ("judge@pj.test", ['"quoted"@b.test'], "Re: x", "body", "not an id", ()),
    ("judge@pj.test", ["a@b.test"], "", "body", None, ()),
    ("judge@pj.test", ["a@b.test"], "Re: x", "body", None, tuple(f"<ref{i}@pj.test>" for i in range(9))),
]


@pytest.mark.parametrize("case", CASES, ids=range(len(CASES)))
def test_the_same_bytes_as_the_email_package(case):
    sender, to, subject, body, parent, refs = case
    kwargs = {"message_id": "<m1@pj.test>", "date": DATE, "in_reply_to": parent, "references": refs}
    fast, slow = both(sender, to, subject, body, **kwargs)
    assert fast == slow


def test_the_common_reply_is_written_directly():
    assert compose._plain_mail(
        "judge@pj.test", ["a@b.test"], "Re: HELP", "text\n", "<m@pj.test>", DATE, "<p@q>", (), "auto-replied"
    )


def test_random_ascii_mail_is_the_same():
    rng = random.Random(14)
    alphabet = string.ascii_letters + string.digits + " .,:;-_!?()[]<>@=\t\n"
    accents = "éü…—€·"
    zones = [UTC, timezone(timedelta(hours=2)), timezone(timedelta(hours=-5, minutes=-30))]
    direct = 0
    for i in range(400):
        subject = "".join(rng.choice(alphabet[:-2]) for _ in range(rng.randrange(0, 90)))
        body = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 400)))
        if i % 2:  # a few non-ASCII characters: quoted-printable
            cut = rng.randrange(len(body) + 1)
            body = body[:cut] + rng.choice(accents) * rng.randrange(1, 4) + body[cut:]
        to = [f"p{j}.x@h{j}.example.org" for j in range(rng.randrange(1, 5))]
        refs = tuple(f"<r{j}.{i}@pj.test>" for j in range(rng.randrange(0, 3)))
        parent = rng.choice([None, f"<p{i}@players.test>", "junk"])
        date = DATE.astimezone(rng.choice(zones))
        kwargs = {"message_id": f"<m{i}@pj.test>", "date": date, "in_reply_to": parent, "references": refs}
        fast, slow = both("judge@pj.test", to, subject, body, **kwargs)
        assert fast == slow, (subject, body, to, refs, parent)
        direct += (
            compose._plain_mail(
                "judge@pj.test", to, subject, body, f"<m{i}@pj.test>", date, parent, refs, "auto-replied"
            )
            is not None
        )
    assert direct > 100  # the direct way was really compared


@pytest.mark.parametrize("sizes", [[0], [1], [56], [57], [58], [300_000], [1000, 171, 57 * 40]])
@pytest.mark.parametrize("to", [["a@b.test"], ["Ünï <u@b.test>"], ["ü@b.test"]])
def test_attachments_are_written_as_the_email_package_writes_them(sizes, to):
    """Pictures are attached by a stand-in replaced in the written mail; the result is the
    email package's own, byte for byte (its multipart boundary is random: seeded alike)."""
    rng = random.Random(sum(sizes))
    files = [
        compose.Attachment(f"g-S1901M-{n}.png", "image/png", rng.randbytes(size))
        for n, size in enumerate(sizes)
    ]
    mails = []
    for direct in (True, False):
        random.seed(7)  # the boundary
        mails.append(
            compose.compose_mail(
                "judge@pj.test", to, "Diplomacy results g S1901M", "naïve\n" * 3,
                message_id="<" + "m" * 80 + "@pj.test>", date=DATE, attachments=files, direct=direct,
            )[1]
        )  # fmt: skip
    assert mails[0] == mails[1]
    assert b"payjudge attachment" not in mails[0]


def test_a_stand_in_not_found_in_the_written_mail_falls_back_to_the_email_package(monkeypatch):
    """A stand-in longer than one base64 line is not found as written: the mail is then
    written by the email package itself, the same bytes."""
    files = [compose.Attachment("g.png", "image/png", bytes(range(256)) * 40)]
    args = ("judge@pj.test", ["a@b.test"], "Diplomacy results g S1901M", "body\n")
    kwargs = {"message_id": "<m2@pj.test>", "date": DATE, "attachments": files}
    random.seed(3)
    expected = compose.compose_mail(*args, **kwargs, direct=False)[1]
    monkeypatch.setattr(compose, "_stand_in", lambda n, message_id: b"x" * 200)
    random.seed(3)  # (the direct attempt draws one boundary, the fallback another)
    written = compose.compose_mail(*args, **kwargs)[1]
    assert b"eHh4eHh4" not in written  # no stand-in's base64 is left
    assert written.count(b"Content-Type: image/png") == 1
    assert written.split(b"\r\n\r\n", 1)[1].count(b"\r\n") == expected.split(b"\r\n\r\n", 1)[1].count(b"\r\n")
