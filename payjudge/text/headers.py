"""Bounds on a mail header before the email package parses it (pure).

The email package's header parser is quadratic or worse on some long values (issue 26: a
Subject of 30,000 encoded words, 20,000 RFC 2231 parameters, a From of 50,000 addresses
each took the processor from seconds to minutes). No header the judge reads needs more
than a few hundred characters, so a value is cut to `LIMITS` before it is parsed (the
parse is then bounded whatever was sent), and `excess` says by how much a header went
over, so that the reply can refuse the message with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class HeaderLimits:
    characters: int = 4096  # of one header field, unfolded
    encoded_words: int = 64  # =?charset?q?…?= pieces (RFC 2047)
    parameters: int = 32  # of a Content-Type or Content-Disposition (RFC 2231 pieces each)
    addresses: int = 32  # of an address header (From, To, …)


LIMITS: Final = HeaderLimits()

_PARAMETERS: Final = frozenset({"content-type", "content-disposition"})
_ADDRESSES: Final = frozenset(
    {
        "from",
        "sender",
        "reply-to",
        "to",
        "cc",
        "bcc",
        "resent-from",
        "resent-sender",
        "resent-to",
        "resent-cc",
    }
)


def excess(name: str, value: str, limits: HeaderLimits = LIMITS) -> str | None:
    """What makes the header too large to read (`the Subject header has 30,000 encoded
    words; at most 64`), None when it is within the limits."""
    for what, count, most in _counts(name, value, limits):
        if count > most:
            return f"the {name} header has {count:,} {what}; at most {most:,}"
    return None


def bounded(name: str, value: str, limits: HeaderLimits = LIMITS) -> str:
    """The value cut to the limits: at most `characters`, and before the first piece
    over each count (a cut value parses as a shorter one would)."""
    value = value[: limits.characters]
    value = _cut_before(value, "=?", limits.encoded_words)
    key = name.lower()
    if key in _PARAMETERS:
        value = _cut_before(value, ";", limits.parameters)
    if key in _ADDRESSES:
        value = _cut_before(value, ",", limits.addresses - 1)
    return value


def _counts(name: str, value: str, limits: HeaderLimits) -> list[tuple[str, int, int]]:
    key = name.lower()
    counts = [
        ("characters", len(value), limits.characters),
        ("encoded words", value.count("=?"), limits.encoded_words),
    ]
    if key in _PARAMETERS:
        counts.append(("parameters", value.count(";"), limits.parameters))
    if key in _ADDRESSES:
        counts.append(("addresses", value.count(",") + 1, limits.addresses))
    return counts


def _cut_before(value: str, mark: str, most: int) -> str:
    """`value` up to its (`most` + 1)-th `mark`, the whole of it if it has no more."""
    at = -1
    for _ in range(most + 1):
        at = value.find(mark, at + 1)
        if at < 0:
            return value
    return value[:at]
