"""Where passwords stand in a mail, to mask them in replies and to redact stored mail (pure).

A password is any word after the identity on a line that opens with CREATE, JOIN, INVEST,
OBSERVE, SIGNON, RESIGN or TAKEOVER (`SIGNON Fpay7 my secret`: both words), after SET PASSWORD,
and after PRIVATE in a CREATE block, wherever the line stands (a second SIGNON, a line
after SIGNOFF, a quoted line): the shape of the line decides, not the grammar, so no
password is echoed because the line was misplaced. Two exceptions keep meaning: the
variant word of CREATE (`payola`), and the text of a PRESS or BROADCAST, which is the
player's own words.

Redaction replaces each password with a token: the same password gives the same token
and different ones different tokens (the caller's `token` function sees to that), and a
privacy word, which the judge compares in lower case, is lowered first. So the redacted
mail, processed again (`payjudge replay`), does exactly what the original did.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from .commands import KEYWORDS, MASK, OPENERS, split_commands, split_identity
from .message import command_lines

__all__ = ["MASK", "mask_line", "mask_quoted", "redact_body", "scrub_secrets"]
_OPENERS_WITH_PASSWORD: Final = {"CREATE", "JOIN", "INVEST", "OBSERVE", "SIGNON", "RESIGN", "TAKEOVER"}
_QUOTE: Final = re.compile(r"^[\s>]*")


def secret_words(words: list[str]) -> list[tuple[int, bool]]:
    """The positions of the password words of a line's words (comment cut off), each with
    whether the judge compares it in lower case (a privacy word)."""
    if not words:
        return []
    key = words[0].upper()
    if key in _OPENERS_WITH_PASSWORD:
        out = []
        for i in range(2, len(words)):
            if key == "CREATE" and i == 3 and words[i].lower() == "payola":
                continue
            out.append((i, key == "JOIN" and i == 3))
        return out
    if key == "SET" and len(words) > 1 and words[1].upper() == "PASSWORD":
        return [(i, False) for i in range(2, len(words))]
    if key == "PRIVATE":
        return [(i, True) for i in range(1, len(words))]
    return []


def _rewrite(line: str, replace: Callable[[str, bool], str]) -> str:
    quote = _QUOTE.match(line)  # (always matches: it may be empty)
    prefix = quote.group(0) if quote else ""
    rest = line[len(prefix) :]
    command, percent, comment = rest.partition("%")
    words = command.split()
    secret = secret_words(words)
    if not secret:
        return line
    for i, lower in secret:
        words[i] = replace(words[i], lower)
    trailing = " " if percent and command.endswith((" ", "\t")) else ""
    return prefix + " ".join(words) + trailing + percent + comment


def mask_line(line: str) -> str:
    """The line as a reply may show it: every password word is ********."""
    return _rewrite(line, lambda word, lower: MASK)


def mask_quoted(line: str) -> str:
    """A line as a reply quotes it among the lines not understood or ignored: its
    passwords masked (`mask_line`), and, when it has a sign-on's shape without a known
    first word (`SIGNIN Canc1 pwcarthage`: a word the judge does not know, then an
    identity, a power with a game, then more), the words after the identity too."""
    line = mask_line(line)
    words = line.split()
    if len(words) >= 3 and _signon_shaped(words):
        lead = line[: len(line) - len(line.lstrip())]
        return f"{lead}{words[0]} {words[1]} {MASK}"
    return line


def _signon_shaped(words: list[str]) -> bool:
    first, identity = words[0].upper(), words[1]
    if first in KEYWORDS or first in OPENERS or MASK in words[2:3]:
        return False
    # a game name holds a digit or comes after an @ (a province never does either)
    return split_identity(identity) is not None and ("@" in identity or any(c.isdigit() for c in identity))


def scrub_secrets(text: str, body: str) -> str:
    """`text` (a traceback, a log line) with every word of `body` that may be a password
    masked: the words a reply would mask (`mask_line`, `mask_quoted` and
    `commands.unread`), wherever they stand in `text`."""
    secrets: set[str] = set()
    for line in body.splitlines():
        words = line.split("%", 1)[0].split()
        secrets.update(words[i] for i, _ in secret_words(words))
        if len(words) >= 3 and words[0].upper() not in KEYWORDS and words[0].upper() not in OPENERS:
            secrets.update(words[2:])
    for word in sorted((w for w in secrets if len(w) >= 3), key=len, reverse=True):
        text = re.sub(rf"(?<![\w@]){re.escape(word)}(?![\w@])", MASK, text)
    return text


def redact_body(body: str, token: Callable[[str], str]) -> str:
    """The body with every password replaced by `token(password)` (a privacy word by the
    token of its lower case), press text left alone. Line breaks are kept as they are."""
    script = split_commands([(line.number, line.text) for line in command_lines(body)])
    press = {
        number for cmd in script.commands if cmd.keyword in ("PRESS", "BROADCAST") for number, _ in cmd.body
    }
    lines = body.splitlines(keepends=True)
    for index, line in enumerate(lines):
        if index + 1 in press:
            continue
        text = line.rstrip("\r\n")
        end = line[len(text) :]
        lines[index] = _rewrite(text, lambda word, lower: token(word.lower() if lower else word)) + end
    return "".join(lines)


def _header_block(raw: bytes) -> bytes:
    cut = [i for i in (raw.find(b"\r\n\r\n"), raw.find(b"\n\n")) if i >= 0]
    return raw[: min(cut)] if cut else raw


def _drop_headers(block: bytes, drop: Callable[[str], bool]) -> list[bytes]:
    """The header fields of a block (continuation lines kept with theirs), without those
    whose name `drop` picks."""
    fields: list[list[bytes]] = []
    for line in block.splitlines():
        if line[:1] in (b" ", b"\t") and fields:
            fields[-1].append(line)
        else:
            fields.append([line])
    out = []
    for field in fields:
        name = field[0].split(b":", 1)[0].strip().decode("ascii", "replace").lower()
        if not drop(name):
            out.extend(field)
    return out


def rebuild_message(raw: bytes, body: str) -> bytes:
    """The message with its headers as they came (bar its MIME structure) and `body` as
    its one text/plain part: read again, it gives the same sender and the same lines."""
    import base64

    fields = _drop_headers(
        _header_block(raw), lambda name: name.startswith("content-") or name == "mime-version"
    )
    encoded = base64.encodebytes(body.encode("utf-8", "surrogatepass")).replace(b"\n", b"\r\n")
    return b"\r\n".join(
        fields
        + [
            b"MIME-Version: 1.0",
            b"Content-Type: text/plain; charset=utf-8",
            b"Content-Transfer-Encoding: base64",
            b"",
            encoded,
        ]
    )


def headers_only(raw: bytes) -> bytes:
    """The message with its headers as they came and no body (a message never read)."""
    return _header_block(raw) + b"\r\n\r\n"
