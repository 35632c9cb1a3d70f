"""The body of an inbound e-mail as text, and what kept it from being read (pure).

`message.read_message` takes the text/plain part (or the text of an HTML-only part) here:
decoded from the charsets mail is written in and no others (some of Python's codecs, such as
punycode, are quadratic: issue 26), HTML read in linear time (`htmlbody`), format=flowed
undone. Every defect becomes a `MailProblem`, never an exception.
"""

from __future__ import annotations

import codecs
import enum
from dataclasses import dataclass
from email.message import EmailMessage, MIMEPart
from email.utils import collapse_rfc2231_value
from typing import Final

from .htmlbody import html_to_text

__all__ = ["REFUSED", "TEXT_CHARSETS", "MailProblem", "ProblemKind", "body_text", "unflow"]


class ProblemKind(enum.Enum):
    SENDER = "sender"  # no usable From address: the judge cannot know who wrote
    REPLY_TO = "reply_to"  # an unreadable Reply-To (ignored)
    BODY = "body"  # no readable text body
    ENCODING = "encoding"  # the body was decoded with guesses; some characters may be wrong
    CHARSET = "charset"  # the body's charset is no text encoding the judge reads: refused
    HEADER = "header"  # a header too large to read (`text.headers`): refused


REFUSED: Final = frozenset({ProblemKind.CHARSET, ProblemKind.HEADER})


@dataclass(frozen=True, slots=True)
class MailProblem:
    kind: ProblemKind
    message: str

    @property
    def refused(self) -> bool:
        """The judge refuses to read the message (its reply says why): no command runs."""
        return self.kind in REFUSED


def body_text(msg: EmailMessage, problems: list[MailProblem]) -> str:
    try:
        part = msg.get_body(preferencelist=("plain", "html"))
    except Exception:
        part = None
    if part is None:
        problems.append(MailProblem(ProblemKind.BODY, "the message has no text/plain or HTML body"))
        return ""
    try:
        text = _decode_part(part, problems)
        if part.get_content_subtype() == "html":
            text = html_to_text(text)
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        if _param(part, "format").lower() == "flowed":
            text = unflow(text, delsp=_param(part, "delsp").lower() == "yes")
    except Exception:  # a part the email package cannot take apart at all
        problems.append(MailProblem(ProblemKind.BODY, "the message body cannot be read"))
        return ""
    return text


def unflow(text: str, delsp: bool = False) -> str:
    """Undo RFC 3676 format=flowed: a line ending in a space continues on the next line
    (so a long order line wrapped by Thunderbird or Apple Mail is one line again)."""
    out: list[tuple[int, list[str]]] = []  # (quote depth, pieces of one line): joined once,
    joining = False  # so a long flowed paragraph stays linear
    for line in text.split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        content = line[depth:]
        if content.startswith(" "):
            content = content[1:]  # space-stuffing
        joining_this = joining and out and out[-1][0] == depth and content != "-- "
        joining = content.endswith(" ") and content != "-- "
        if joining and delsp:
            content = content[:-1]
        if joining_this:
            out[-1][1].append(content)
        else:
            out.append((depth, [content]))
    lines = ((depth, "".join(pieces)) for depth, pieces in out)
    return "\n".join(">" * depth + (" " if depth and content else "") + content for depth, content in lines)


def _param(part: MIMEPart, name: str) -> str:
    """A Content-Type parameter's value, "" if absent (an RFC 2231 value decoded)."""
    value = part.get_param(name)
    if isinstance(value, tuple):
        return collapse_rfc2231_value(value)
    return value or ""


# the charsets mail is written in (by their Python codec's name); decoding each is linear
TEXT_CHARSETS: Final = frozenset(
    codecs.lookup(name).name
    for name in (
        "utf-8", "ascii", "latin-1", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be",
        *(f"iso8859-{n}" for n in (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16)),
        *(f"cp{n}" for n in (1250, 1251, 1252, 1253, 1254, 1255, 1256, 1257, 1258)),
        "cp437", "cp850", "cp852", "cp866", "koi8-r", "koi8-u", "mac-roman", "mac-cyrillic", "tis-620",
        "gb2312", "gbk", "gb18030", "big5", "big5hkscs", "hz", "cp950",
        "shift_jis", "cp932", "euc-jp", "iso2022-jp", "iso2022-jp-2", "euc-kr", "cp949", "iso2022-kr",
    )
)  # fmt: skip


def _decode_part(part: MIMEPart, problems: list[MailProblem]) -> str:
    raw = part.get_payload(decode=True)
    if isinstance(raw, bytes):
        payload = raw
    elif isinstance(raw, str):
        payload = raw.encode("utf-8", "surrogateescape")
    else:  # no payload
        payload = b""
    if any(type(d).__name__.startswith("InvalidBase64") for d in part.defects):
        problems.append(MailProblem(ProblemKind.ENCODING, "the body's base64 encoding is damaged"))
    charset = part.get_content_charset() or "us-ascii"
    try:
        codec = codecs.lookup(charset).name
    except LookupError:
        problems.append(
            MailProblem(ProblemKind.ENCODING, f"unknown character set {charset!r}; read as UTF-8")
        )
        charset = codec = "utf-8"
    if codec not in TEXT_CHARSETS:
        # punycode, idna, rot13, the escapes: codecs of Python's, not charsets of mail,
        # and some of them quadratic (issue 26)
        problems.append(
            MailProblem(
                ProblemKind.CHARSET,
                f"the body's character set {charset[:40]!r} is not a text encoding the judge reads;"
                " send the message as UTF-8 (the usual setting of a mail program)",
            )
        )
        return ""
    if charset.lower() in ("us-ascii", "ascii"):
        charset = "utf-8"  # 8-bit text labelled ASCII is usually UTF-8
    try:
        return payload.decode(charset)
    except UnicodeDecodeError:
        problems.append(
            MailProblem(
                ProblemKind.ENCODING, f"the body is not valid {charset}; unreadable characters were replaced"
            )
        )
        return payload.decode(charset, errors="replace")
