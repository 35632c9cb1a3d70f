"""Whole numbers as players write them, read with a bound.

Every number in a mail (amounts, repetitions, plateaus, TRANSFER, durations, `VOTE nWAY`)
goes through `whole_number`: only ASCII digits count (`²` and `٣` are digits to
`str.isdigit` but not amounts), and a number longer than its bound is refused by its
length, before `int()` sees it (Python refuses to convert 4,300 digits or more).
"""

from __future__ import annotations

from typing import Final

from .problems import invalid

MAX_NUMBER: Final = 1_000_000_000  # no count or amount in the game comes near it
_SHOWN: Final = 12  # digits of a refused number quoted back to the player


def is_digits(text: str) -> bool:
    """Only the ASCII digits 0-9, at least one."""
    return text.isascii() and text.isdigit()


def whole_number(
    text: str, maximum: int = MAX_NUMBER, *, what: str = "the number", limit: str | None = None
) -> int:
    """`text` (digits only) as an int no larger than `maximum`; raises `LineError`
    (invalid) naming `what` when it is not a number or is too large. `limit` says what
    the maximum is when it is not just the number (`9999 AgP`)."""
    if not is_digits(text):
        raise invalid(f"{shown(text)!r} is not a whole number")
    digits = text.lstrip("0") or "0"
    if len(digits) > len(str(maximum)) or int(digits) > maximum:
        raise invalid(f"{what} is too large: {shown(digits)} (at most {limit or maximum})")
    return int(digits)


def shown(text: str) -> str:
    """A long number or word as quoted back: its start and its length."""
    if len(text) <= _SHOWN:
        return text
    return f"{text[:_SHOWN]}… ({len(text):,} characters)"
