"""The amount part of an offer line: `[count*]amount[#[plateau]]`, joined by `+` (rule 3.1 items 1-4).

Spaces are allowed anywhere in it (`4 * 3 + 2*4 #2`). Limits are DPjudge's: amounts up to
9999 AgP, repetition counts 1 to 99, a plateau no higher than its amount.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from ..payola.offers import Term
from .numbers import shown, whole_number
from .problems import invalid

MAX_AMOUNT: Final = 9999
MAX_REPEAT: Final = 99
_TERM: Final = re.compile(r"^(?:([0-9]+)\*)?([0-9]+)(#([0-9]*))?$")


@dataclass(frozen=True, slots=True)
class Amounts:
    terms: tuple[Term, ...]
    repeated: bool  # a `*` was written
    augmented: bool  # a `+` was written
    plateaus: bool  # a `#` was written


def parse_amounts(text: str) -> Amounts:
    """Read the amount part; raises `LineError` (invalid) with a message for the player."""
    compact = "".join(text.split())
    if len(compact) <= 4 and compact.isascii() and compact.isdigit():
        # most lines: one plain amount, at most 9999 (no regular expression needed)
        return Amounts((Term(int(compact), 1, 0),), False, False, False)
    if not compact:
        raise invalid("an amount is missing")
    parts = compact.split("+")
    terms = []
    for part in parts:
        if not part:
            raise invalid(f"an amount is missing next to '+' in {shown(compact)!r}")
        m = _TERM.match(part)
        if m is None:
            raise invalid(f"{shown(part)!r} is not an amount (write [count*]amount[#plateau], e.g. 3*2#1)")
        repeat = (
            1 if m.group(1) is None else whole_number(m.group(1), MAX_REPEAT, what="the repetition count")
        )
        if repeat < 1:
            raise invalid(f"{shown(part)!r}: a repetition count is 1 to {MAX_REPEAT}")
        amount = whole_number(m.group(2), MAX_AMOUNT, what="the amount", limit=f"{MAX_AMOUNT} AgP")
        if m.group(3) is None:
            plateau = 0
        elif m.group(4) == "":
            plateau = amount
        else:
            plateau = whole_number(m.group(4), amount, what="the plateau", limit=f"its amount, {amount}")
        terms.append(Term(amount, repeat, plateau))
    return Amounts(tuple(terms), "*" in compact, len(parts) > 1, "#" in compact)
