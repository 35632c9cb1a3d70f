"""Skipping whole periods of a repeating reduction pattern (rule 5.5, used by `reduce_fast`).

A power whose spending hovers at its limit can join and leave the overspending set every
few rounds while the others keep overspending ("chattering"): each time it is reduced it
loses a unit it pays for, and a few rounds later the others' falling offers give it back.
Such a pattern repeats for a number of periods that grows with the sums of money.

`periods_valid` takes the pattern as a schedule (sub-steps: who overspends, for how many
rounds) and the state at the start of a period, and returns for how many whole periods
the literal rounds follow it. If they do, the state at round r of period q is
k0 + off_r + q*Δk (Δk: the rounds each power gains per period), a straight line in q for
each r; a `Sweep` along that line finds the first q at which round r's set of
overspending powers differs from the schedule's. The smallest such q over the rounds of
the period is the answer, exactly: up to it every round goes as scheduled, by induction.
"""

from __future__ import annotations

from collections.abc import Sequence

from .book import Book
from .schedule import INF
from .sweep import Sweep

MAX_PERIOD = 32  # longer periods are left to the round-by-round events


def departure(
    book: Book,
    start: Sequence[int],
    direction: Sequence[int],
    expected: list[bool],
    limits: Sequence[int],
    horizon: float,
    ebayola: bool,
    public_totals: bool,
) -> float:
    """The first step q along start + q*direction at which the overspending set is not
    `expected` (or `horizon`, if that comes first)."""
    sweep = Sweep(book, limits, ebayola, public_totals, start, 0, direction)
    if sweep.membership(0) != expected:
        return 0
    t = 0
    while True:
        nxt = sweep.next_step(t, expected)
        if nxt >= horizon:
            return horizon
        t = int(nxt)
        sweep.advance(t)
        if sweep.membership(t) != expected:
            return t


def periods_valid(
    book: Book,
    k0: Sequence[int],
    schedule: Sequence[tuple[tuple[bool, ...], int]],
    limits: Sequence[int],
    ebayola: bool,
    public_totals: bool,
) -> float:
    """How many whole periods of `schedule` the rounds follow from state k0 (0: not one)."""
    n = len(book.powers)
    if sum(length for _, length in schedule) > MAX_PERIOD:
        return 0
    direction = [sum(length for over, length in schedule if over[p]) for p in range(n)]
    best: float = INF
    off = [0] * n
    for over, length in schedule:
        for _ in range(length):
            start = [k0[p] + off[p] for p in range(n)]
            best = min(
                best, departure(book, start, direction, list(over), limits, best, ebayola, public_totals)
            )
            if best < 3:
                return best
            off = [off[p] + (1 if over[p] else 0) for p in range(n)]
    return best
