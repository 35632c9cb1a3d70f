"""Read an inbound e-mail into what the judge acts on, and compose an outgoing one (pure).

Reading follows shared/spec/email.md, "How a message is read": the text/plain body (or the
text of an HTML-only body) in any charset; blank lines, quoted `> …` lines and `//` lines
are ignored, and so is everything after a signature separator or a reply header. The kept
lines keep their original numbers, because the reply names lines by number. Nothing here
raises on a bad message: every defect becomes a `MailProblem`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from email import message_from_bytes
from email.message import EmailMessage
from email.parser import Parser
from email.policy import EmailPolicy
from typing import Any, Final, NamedTuple, cast

from .headers import bounded, excess
from .mailbody import MailProblem, ProblemKind, body_text


class Line(NamedTuple):
    number: int  # 1-based, in the decoded body
    text: str  # as written, trailing blanks removed


@dataclass(frozen=True, slots=True)
class Skipped:
    """The non-blank lines of a body that were not read as commands, counted by why."""

    quoted: int = 0  # `> …` lines
    comments: int = 0  # `// …` lines
    after_end: int = 0  # lines after a signature separator or a reply header
    end: str = ""  # "signature" or "reply": what ended the commands


@dataclass(frozen=True, slots=True)
class InboundMail:
    sender: str | None  # the From address, lower-cased; None if unusable
    reply_to: tuple[str, ...]  # Reply-To addresses, lower-cased (kept apart)
    subject: str
    message_id: str | None
    in_reply_to: str | None
    references: tuple[str, ...]
    automated: bool  # an auto-reply, bounce or list mail: never answer it
    automated_reason: str | None
    body: str  # the whole decoded body text
    lines: tuple[Line, ...]  # the meaningful lines, with their original numbers
    problems: tuple[MailProblem, ...] = ()
    skipped: Skipped = Skipped()  # the lines left out of `lines`, counted


class _ReadingPolicy(EmailPolicy):
    """`policy.default` that parses each distinct header value once. The email package
    parses a header again on every access (`get_content_type` alone reads Content-Type
    about ten times a message), and most mail carries the same few values; a parsed
    header is a str that nobody changes, so one can serve every reader of it."""

    def header_fetch_parse(self, name: str, value: str) -> Any:
        if hasattr(value, "name"):
            return super().header_fetch_parse(name, value)
        if len(value) > 500:
            # a long value is parsed cut to the limits: its parse is bounded (issue 26)
            return super().header_fetch_parse(name, bounded(name, value))
        key = (name, value)
        parsed = _PARSED.get(key)
        if parsed is None:
            if len(_PARSED) >= 4096:  # bounded: cleared rather than aged (a cache, not a store)
                _PARSED.clear()
            parsed = _PARSED[key] = super().header_fetch_parse(name, value)
        return parsed


_PARSED: dict[tuple[str, str], object] = {}


READING: Final = cast("EmailPolicy[EmailMessage]", _ReadingPolicy())  # how inbound mail is read

_MSGID: Final = re.compile(r"<[^<>\s]+>")
_QUOTE_HEADER: Final = re.compile(
    r"^\s*(on|le|am|el|il|op|em)\s.*(wrote|a\s+écrit|schrieb|escribió|ha\s+scritto|schreef|escreveu)\s*:\s*$",
    re.IGNORECASE,
)
_QUOTE_HEADER_START: Final = re.compile(r"^\s*(on|le|am|el|il|op|em)\s", re.IGNORECASE)
_QUOTE_HEADER_END: Final = re.compile(
    r"(wrote|a\s+écrit|schrieb|escribió|ha\s+scritto|schreef|escreveu)\s*:\s*$", re.IGNORECASE
)
_ORIGINAL: Final = re.compile(
    r"^\s*-{2,}\s*(original message|forwarded message|ursprüngliche nachricht)\s*-{2,}\s*$", re.IGNORECASE
)
_HEADER_BLOCK: Final = re.compile(r"^\s*(from|von|de)\s*:\s*\S", re.IGNORECASE)
_HEADER_NEXT: Final = re.compile(
    r"^\s*(sent|date|to|subject|gesendet|an|betreff|envoyé|à|objet)\s*:", re.IGNORECASE
)
_RULE: Final = re.compile(r"^\s*_{10,}\s*$")


def read_message(raw: bytes, *, envelope_from: str | None = None) -> InboundMail:
    """Read a raw RFC 5322 message. `envelope_from` is the SMTP MAIL FROM when known
    ("" for a bounce)."""
    problems: list[MailProblem] = []
    msg = message_from_bytes(raw, policy=READING)
    head = utf8_headers(raw) or msg
    problems.extend(_oversized(head))

    sender = _sender(head, problems)
    reply_to = _reply_to(head, problems)
    subject = _one_line(_header(head, "Subject") or "")
    message_id = _msgid(_header(head, "Message-ID"))
    in_reply_to = _msgid(_header(head, "In-Reply-To"))
    references = tuple(_MSGID.findall(_header(head, "References") or ""))
    reason = _automated(msg, sender, envelope_from)

    body = body_text(msg, problems)
    lines, skipped = split_body(body)
    return InboundMail(
        sender=sender,
        reply_to=reply_to,
        subject=subject,
        message_id=message_id,
        in_reply_to=in_reply_to,
        references=references,
        automated=reason is not None,
        automated_reason=reason,
        body=body,
        lines=lines,
        problems=tuple(problems),
        skipped=skipped,
    )


def utf8_headers(raw: bytes) -> EmailMessage | None:
    """The header block read as UTF-8 text, when it holds raw UTF-8 (RFC 6532: an address
    or a display name in UTF-8, which the SMTPUTF8 listener accepts); else None. The email
    package reads header bytes as ASCII, turning every 8-bit byte into an undecodable
    character, so such an address was unusable and such a name a defect."""
    end = min((i for i in (raw.find(b"\r\n\r\n"), raw.find(b"\n\n")) if i >= 0), default=len(raw))
    block = raw[:end]
    if block.isascii():
        return None
    try:
        text = block.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return Parser(policy=READING).parsestr(text, headersonly=True)


def command_lines(body: str) -> tuple[Line, ...]:
    """The lines of `body` that may hold commands, numbered as in `body`."""
    return split_body(body)[0]


def split_body(body: str) -> tuple[tuple[Line, ...], Skipped]:
    """The lines of `body` that may hold commands, numbered as in `body`, and a count of
    the other non-blank lines."""
    raw_lines = body.splitlines()
    kept: list[Line] = []
    quoted = comments = 0
    for index, line in enumerate(raw_lines):
        text = line.rstrip()
        stripped = text.strip()
        end = _ends_commands(raw_lines, index, line)
        if end:
            after = sum(1 for rest in raw_lines[index + 1 :] if rest.strip())
            return tuple(kept), Skipped(quoted, comments, after + (end == "reply"), end)
        if stripped.startswith(">"):
            quoted += 1
        elif stripped.startswith("//"):
            comments += 1
        elif stripped:
            kept.append(Line(index + 1, text))
    return tuple(kept), Skipped(quoted, comments)


def _ends_commands(lines: list[str], index: int, line: str) -> str | None:
    """ "signature" or "reply" when the commands end at this line, else None."""
    # A signature separator is "-- "; many clients strip the trailing blank.
    if line.rstrip("\r\n") in ("-- ", "--"):
        return "signature"
    if _QUOTE_HEADER.match(line) or _ORIGINAL.match(line):
        return "reply"
    # "On Mon, 5 Jan 2026 at 10:00, Alice <alice@example.org>" wrapped before "wrote:"
    if (
        _QUOTE_HEADER_START.match(line)
        and index + 1 < len(lines)
        and _QUOTE_HEADER_END.search(lines[index + 1])
        and not lines[index + 1].lstrip().startswith(">")
    ):
        return "reply"
    # An Outlook reply block: "From: …" after a blank line (or a rule), then Sent:/To:/Subject:
    previous = lines[index - 1].strip() if index else ""
    if _HEADER_BLOCK.match(line) and (not previous or _RULE.match(previous)):
        following = lines[index + 1 : index + 4]
        if any(_HEADER_NEXT.match(f) for f in following):
            return "reply"
    if _RULE.match(line) and index + 1 < len(lines) and _HEADER_BLOCK.match(lines[index + 1]):
        return "reply"
    return None


# the headers the judge reads; one too large to read refuses the message
_READ: Final = frozenset(
    {"from", "reply-to", "subject", "message-id", "in-reply-to", "references", "content-type"}
    | {"auto-submitted", "precedence", "return-path", "content-transfer-encoding"}
)


def _oversized(msg: EmailMessage) -> list[MailProblem]:
    """A problem for each header the judge reads that is over `text.headers.LIMITS`
    (its raw value, before any parse: a count of characters, not a parse)."""
    found = []
    for name, value in msg.raw_items():
        if name.lower() in _READ and len(value) > 500 and (why := excess(name, str(value))):
            found.append(MailProblem(ProblemKind.HEADER, f"{why}: the message was not read"))
    return found


def _header(msg: EmailMessage, name: str) -> str | None:
    try:
        value = msg[name]
    except Exception:  # the header parser raises on some malformed values
        return None
    return None if value is None else str(value)


def _one_line(value: str) -> str:
    return " ".join(value.split())


def _msgid(value: str | None) -> str | None:
    if not value:
        return None
    found = _MSGID.search(value)
    return found.group(0) if found else (_one_line(value) or None)


def _addresses(msg: EmailMessage, name: str) -> tuple[tuple[str, ...], bool] | None:
    """The header's addresses and whether it parsed cleanly; None if absent."""
    try:
        header = msg[name]
    except Exception:
        return (), False
    if header is None:
        return None
    try:
        addresses = tuple(a.addr_spec for a in header.addresses)
        # a UTF-8 local part is allowed in internationalised mail (RFC 6532)
        clean = not [d for d in header.defects if type(d).__name__ != "NonASCIILocalPartDefect"]
    except Exception:
        return (), False
    if any("@" not in a or any(c in a for c in "\r\n<> ") for a in addresses):
        clean = False
    return tuple(a.lower() for a in addresses), clean


def _sender(msg: EmailMessage, problems: list[MailProblem]) -> str | None:
    parsed = _addresses(msg, "From")
    if parsed is None:
        problems.append(MailProblem(ProblemKind.SENDER, "the message has no From address"))
        return None
    addresses, clean = parsed
    if len(addresses) != 1 or not clean:
        problems.append(
            MailProblem(ProblemKind.SENDER, "the From header must hold exactly one valid address")
        )
        return None
    return addresses[0]


def _reply_to(msg: EmailMessage, problems: list[MailProblem]) -> tuple[str, ...]:
    parsed = _addresses(msg, "Reply-To")
    if parsed is None:
        return ()
    addresses, clean = parsed
    if not clean:
        problems.append(MailProblem(ProblemKind.REPLY_TO, "the Reply-To header is unreadable"))
        return ()
    return addresses


def _automated(msg: EmailMessage, sender: str | None, envelope_from: str | None) -> str | None:
    """Why the message must never be answered (RFC 3834 and common practice), or None."""
    auto = _header(msg, "Auto-Submitted")
    if auto is not None and auto.split(";")[0].strip().lower() != "no":
        return f"Auto-Submitted: {_one_line(auto)}"
    precedence = (_header(msg, "Precedence") or "").strip().lower()
    if precedence in ("bulk", "list", "junk"):
        return f"Precedence: {precedence}"
    for name in ("X-Autoreply", "X-Autorespond", "List-Id"):
        if _header(msg, name) is not None:
            return f"{name} header"
    if envelope_from is not None and envelope_from.strip() in ("", "<>"):
        return "empty envelope sender"
    return_path = _header(msg, "Return-Path")
    if return_path is not None and return_path.strip() in ("", "<>"):
        return "empty Return-Path"
    if sender is not None and sender.split("@")[0] in ("mailer-daemon", "postmaster"):
        return f"sent by {sender.split('@')[0].upper()}"
    if msg.get_content_type() == "multipart/report":
        return "a delivery or disposition report"
    return None
