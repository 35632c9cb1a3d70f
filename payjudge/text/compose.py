"""Composing the judge's own mail: a UTF-8 text/plain message with our Message-ID, threaded
under the mail it answers, with files attached when there are any (the map picture)."""

from __future__ import annotations

import binascii
import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from email import policy, quoprimime
from email.message import EmailMessage
from email.utils import format_datetime
from typing import TYPE_CHECKING, Final

from .message import _MSGID, _msgid, _one_line
from .visible import visible

if TYPE_CHECKING:
    from datetime import datetime  # the caller passes the Date: this module has no clock


def new_message_id(domain: str, unique: str) -> str:
    """Our own Message-ID: `unique` must be unique for the judge (the caller makes it)."""
    if any(c in domain + unique for c in "\r\n<>@ "):
        raise ValueError("a Message-ID part may not hold line breaks, brackets, @ or blanks")
    return f"<{unique}@{domain}>"


@dataclass(frozen=True, slots=True)
class Attachment:
    """A file sent with a mail (the map picture of a phase): name, MIME type, bytes."""

    filename: str
    content_type: str  # "image/png"
    data: bytes

    def __repr__(self) -> str:
        return f"Attachment({self.filename!r}, {self.content_type!r}, <{len(self.data)} bytes>)"


def compose_mail(
    sender: str,
    to: str | Sequence[str],
    subject: str,
    body: str,
    *,
    message_id: str,
    date: datetime,
    in_reply_to: str | None = None,
    references: Sequence[str] = (),
    auto_submitted: str = "auto-replied",
    attachments: Sequence[Attachment] = (),
    direct: bool = True,
) -> tuple[str, bytes]:
    """A UTF-8 text/plain mail with our own Message-ID; returns (message_id, raw bytes).
    The common case is written directly (`_plain_mail`), byte for byte as the email
    package writes it; `direct=False` always goes through the package (tests compare).
    With attachments it is multipart/mixed: the text first, then each file (base64).
    Header values never carry CR/LF: subjects are flattened, foreign Message-IDs checked.
    The caller gives the Date and the Message-ID: this module has no clock and no chance."""
    recipients = [to] if isinstance(to, str) else list(to)
    subject = visible(_one_line(subject))  # a sender's NUL or ESC, quoted in "Re: …"
    for address in [sender, *recipients, message_id]:
        if any(c in address for c in "\r\n"):
            raise ValueError(f"line break in an address or Message-ID: {address!r}")
    if not _MSGID.fullmatch(message_id):
        raise ValueError(f"not a Message-ID: {message_id!r}")
    if direct and not attachments:
        plain = _plain_mail(
            sender, recipients, subject, body, message_id, date, in_reply_to, references, auto_submitted
        )
        if plain is not None:
            return message_id, plain
    # an internationalised address goes as UTF-8 (RFC 6532; sent with SMTPUTF8)
    international = not all(a.isascii() for a in [sender, *recipients])
    msg = EmailMessage(policy=policy.SMTPUTF8 if international else policy.SMTP)
    msg["From"] = sender
    msg["To"] = ", ".join(recipients)
    msg["Subject"] = _one_line(subject)
    msg["Date"] = format_datetime(date)
    msg["Message-ID"] = message_id
    parent = _msgid(in_reply_to) if in_reply_to else None
    if parent and _MSGID.fullmatch(parent):
        msg["In-Reply-To"] = parent
    refs = [r for ref in references for r in _MSGID.findall(ref)]
    if parent and _MSGID.fullmatch(parent) and parent not in refs:
        refs.append(parent)
    if refs:
        msg["References"] = " ".join(refs)
    msg["Auto-Submitted"] = _one_line(auto_submitted)
    msg["X-Auto-Response-Suppress"] = "All"  # ask Exchange not to send us out-of-office mail
    # plain ASCII goes as it is (readable in any mailbox file); RFC 5322 allows lines of
    # up to 998 characters, and only what is longer or not ASCII needs an encoding
    ascii_short = body.isascii() and all(len(line) <= 998 for line in body.splitlines())
    msg.set_content(
        body, subtype="plain", charset="utf-8", cte="7bit" if ascii_short else _transfer_encoding(body)
    )
    # Each file is attached as a stand-in of a few bytes, whose base64 line is replaced in
    # the written mail by the file's: what the email package writes for the file itself,
    # byte for byte (tests/mail/test_compose_plain.py), where its writer took a call per
    # 76-character line of every picture, a tenth of a game's processing.
    stand_ins: list[tuple[bytes, bytes]] = []
    for n, item in enumerate(attachments):
        maintype, _, subtype = item.content_type.partition("/")
        if not (maintype and subtype) or any(c in item.filename for c in '\r\n"/\\'):
            raise ValueError(f"bad attachment: {item!r}")
        if not direct:  # the email package's own way, which tests compare with
            msg.add_attachment(item.data, maintype=maintype, subtype=subtype, filename=item.filename)
            continue
        stand_in = _stand_in(n, message_id)
        msg.add_attachment(stand_in, maintype=maintype, subtype=subtype, filename=item.filename)
        stand_ins.append((binascii.b2a_base64(stand_in, newline=False) + b"\r\n", _base64_lines(item.data)))
    raw = msg.as_bytes(policy=policy.SMTPUTF8 if international else policy.SMTP)
    for line, lines in stand_ins:
        head, found, tail = raw.partition(line)
        if not found:  # (a stand-in of more than one line) the email package's own way
            return compose_mail(
                sender, to, subject, body, message_id=message_id, date=date, in_reply_to=in_reply_to,
                references=references, auto_submitted=auto_submitted, attachments=attachments, direct=False,
            )  # fmt: skip
        raw = head + lines + tail
    return message_id, raw


def _stand_in(n: int, message_id: str) -> bytes:
    """What file `n` is attached as until the mail is written: one base64 line (at most
    57 bytes), found in no other mail's text."""
    return f"payjudge attachment {n} {hashlib.sha256(message_id.encode()).hexdigest()[:20]}".encode()


def _base64_lines(data: bytes) -> bytes:
    """`data` in base64 as the email package writes an attachment under the SMTP policy:
    lines of 76 characters (57 bytes each), each ending in CRLF."""
    encoded = binascii.b2a_base64(data, newline=False)
    return b"".join(encoded[i : i + 76] + b"\r\n" for i in range(0, len(encoded), 76))


_ATOM: Final = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_PLAIN_ADDRESS: Final = re.compile(rf"{_ATOM}(?:\.{_ATOM})*@{_ATOM}(?:\.{_ATOM})*")
_PRINTABLE: Final = re.compile(r"[ -~]*")  # printable ASCII, blanks included


def _plain_mail(
    sender: str,
    recipients: list[str],
    subject: str,
    body: str,
    message_id: str,
    date: datetime,
    in_reply_to: str | None,
    references: Sequence[str],
    auto_submitted: str,
) -> bytes | None:
    """The common mail (plain addresses, an ASCII subject and body, every header line
    short enough not to be folded) written out directly, byte for byte what the email
    package makes of it (`tests/text/test_compose_plain.py` holds them side by side);
    None for anything else. The email package's header machinery (parse each value into
    a tree, fold it back) was a fifth of the processing of a message."""
    if not all(_PLAIN_ADDRESS.fullmatch(a) for a in [sender, *recipients]):
        return None
    parent = _msgid(in_reply_to) if in_reply_to else None
    parent = parent if parent and _MSGID.fullmatch(parent) else None
    refs = [r for ref in references for r in _MSGID.findall(ref)]
    if parent and parent not in refs:
        refs.append(parent)
    headers = [
        ("From", sender),
        ("To", ", ".join(recipients)),
        ("Subject", _one_line(subject)),
        ("Date", format_datetime(date)),
        ("Message-ID", message_id),
    ]
    if parent:
        headers.append(("In-Reply-To", parent))
    if refs:
        headers.append(("References", " ".join(refs)))
    headers.append(("Auto-Submitted", _one_line(auto_submitted)))
    headers.append(("X-Auto-Response-Suppress", "All"))
    for name, value in headers:
        # a value the email package would fold, encode or quote goes the long way
        if not value or len(name) + 2 + len(value) > 78 or not _PRINTABLE.fullmatch(value) or "=?" in value:
            return None
    if any(c in body for c in "\r\x00\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"):
        return None
    lines = body.split("\n")
    if lines[-1] == "":
        lines.pop()
    if not lines:
        return None
    if body.isascii():
        if any(len(line) > 998 or not _PRINTABLE.fullmatch(line.replace("\t", " ")) for line in lines):
            return None
        cte, text = "7bit", "\r\n".join(lines) + "\r\n"
    elif _transfer_encoding(body) == "quoted-printable":
        # what the email package's content manager does: encode the UTF-8 bytes, read as
        # Latin-1, in lines of at most 78 characters (soft breaks)
        data = "\n".join(lines) + "\n"
        encoded = quoprimime.body_encode(data.encode("utf-8").decode("latin-1"), 78)
        text = encoded.replace("\n", "\r\n")
        cte = "quoted-printable"
    else:
        return None
    headers += [
        ("Content-Type", 'text/plain; charset="utf-8"'),
        ("Content-Transfer-Encoding", cte),
        ("MIME-Version", "1.0"),
    ]
    head = "".join(f"{name}: {value}\r\n" for name, value in headers)
    return (head + "\r\n" + text).encode("ascii")


def _transfer_encoding(body: str) -> str:
    """Quoted-printable for mostly Latin text; base64 when that is shorter, so a reply
    never grows by more than a third when encoded (a byte above 127 takes three in QP)."""
    data = body.encode("utf-8")
    escaped = sum(1 for b in data if b > 127 or b == 61)  # 61 is '='
    return "quoted-printable" if 2 * escaped <= len(data) // 3 else "base64"
