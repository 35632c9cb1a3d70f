"""Overexpenditure (rule 5.5), literally: the executable specification of the reduction.

Every round, each power that would pay more than its limit (balance minus savings, at
least 0) has all its offers reduced (see `schedule.py`), and every unit decides again.
The state of the whole auction is therefore the vector k of rounds per power, and a
round maps k to k + o(k), o(k) being the powers that overspend at k.

`reduce_literal` runs the rounds one by one, as the rulebook describes them; its cost
grows with the money. `overspend.reduce_overspending` reaches the same k without
visiting every round (docs/overexpenditure.md says why it is the same k); tests compare
the two.
"""

from __future__ import annotations

from collections.abc import Sequence

from .book import Book
from .decide import evaluate, spending


class ReductionError(Exception):
    """The reduction did not settle (a bug: every round lowers some offer). An `Exception`
    (mypyc compiles subclasses of few built-in exceptions, RuntimeError not among them)."""


def overspending(
    book: Book, k: Sequence[int], limits: Sequence[int], ebayola: bool, public_totals: bool
) -> tuple[bool, ...]:
    """o(k): who would pay more than its limit after k[p] rounds of each power p."""
    spent = spending(book, evaluate(book, k, ebayola, public_totals))
    return tuple(spent[p] > limits[p] for p in range(len(book.powers)))


def reduce_literal(
    book: Book, limits: Sequence[int], ebayola: bool = False, public_totals: bool = False
) -> list[int]:
    """The rounds per power, one round at a time (the reference procedure)."""
    n = len(book.powers)
    k = [0] * n
    # every round lowers some offer by 1 AgP: there are no more rounds than AgP offered
    for _ in range(sum(e.amount for e in book.entries) + n + 2):
        over = overspending(book, k, limits, ebayola, public_totals)
        if not any(over):
            return k
        k = [k[p] + over[p] for p in range(n)]
    raise ReductionError("the reduction rounds did not settle")
