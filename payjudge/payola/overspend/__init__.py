"""Overexpenditure (rule 5.5), fast: the rounds per power of `reduction.reduce_literal`,
without visiting every round. The argument is in docs/overexpenditure.md.

The state of the auction is k, the rounds each power has gone through; a round adds 1 to
k[p] for every power p that overspends at k. `reduce_overspending` goes through the rounds
as *segments* — runs of rounds with the same overspending powers o, along which k moves on
the line k + q·o — and asks `line.Line` where each segment ends. When the last segments
repeat the ones before them (a tug of war: a unit going back and forth between powers
that take turns overspending), the rounds of a period are checked, each along its own
line k_j + q·(rounds per period), for how many whole periods they keep to the pattern,
and the pattern is jumped over. Both are the same question — how long the overspending
powers along a line stay as expected — asked of the same `Line`.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..book import Book
from ..reduction import ReductionError, overspending, reduce_literal
from ..schedule import INF
from .line import Line

# Up to this many rounds in all, the literal procedure is cheaper than planning (a round
# costs one `evaluate`; planning a line costs a few). Realistic auctions stay below it.
LITERAL_LIMIT = 64
# Periods longer than this many rounds are not looked for: checking one costs one line
# per round of the period, and the patterns seen in play are a few rounds long.
LONGEST_PERIOD = 32


def most_rounds(book: Book) -> int:
    """No power goes through more rounds than it takes to bring all its offers to 0."""
    top = [0] * len(book.powers)
    for e in book.entries:
        top[e.power] = max(top[e.power], book.flat[e.power] + e.plateau)
    return max(top, default=0)


Segment = tuple[tuple[bool, ...], int]  # (who overspends, for how many rounds)


def reduce_overspending(
    book: Book,
    limits: Sequence[int],
    ebayola: bool = False,
    public_totals: bool = False,
    *,
    shortcuts: bool = True,
) -> list[int]:
    """The rounds per power rule 5.5 ends with (== `reduction.reduce_literal`). Without
    `shortcuts`, small auctions go through the segments too (for tests)."""
    if shortcuts and most_rounds(book) <= LITERAL_LIMIT:
        return reduce_literal(book, limits, ebayola, public_totals)
    n = len(book.powers)
    k = [0] * n
    segments: list[Segment] = []
    quiet = 0  # segments to wait before looking for a pattern again
    for _ in range(sum(e.amount for e in book.entries) + n + 2):
        over = overspending(book, k, limits, ebayola, public_totals)
        if not any(over):
            return k
        if segments and segments[-1][0] == over:
            # the second round of a segment: find where it ends (a first round is taken
            # alone: in a tug of war most segments are a round or two long)
            rounds = Line(book, limits, ebayola, public_totals, k, over).departure(over)
            if rounds == INF:
                raise ReductionError("overspending that no round can cure")
            segments[-1] = (over, segments[-1][1] + int(rounds))
        else:
            rounds = 1
            segments.append((over, 1))
        k = [k[p] + int(rounds) * over[p] for p in range(n)]
        quiet -= 1
        period = _repeating(segments) if quiet <= 0 else None
        if period is None:
            continue
        periods = whole_periods(book, limits, ebayola, public_totals, k, period)
        if periods:
            step = _per_period(period, n)
            k = [k[p] + periods * step[p] for p in range(n)]
            segments.clear()
        else:
            quiet = len(period)  # not a pattern yet: look again a period later
    raise ReductionError("the reduction did not settle")


def _repeating(segments: list[Segment]) -> list[Segment] | None:
    """The last L segments, if they repeat the L before them (the shortest such L)."""
    total = 0
    for size in range(1, len(segments) // 2 + 1):
        total += segments[-size][1]
        if total > LONGEST_PERIOD:
            return None
        if segments[-size:] == segments[-2 * size : -size]:
            return segments[-size:]
    return None


def _per_period(period: list[Segment], n: int) -> list[int]:
    return [sum(rounds for over, rounds in period if over[p]) for p in range(n)]


def whole_periods(
    book: Book,
    limits: Sequence[int],
    ebayola: bool,
    public_totals: bool,
    k: Sequence[int],
    period: list[Segment],
) -> int:
    """For how many whole periods the rounds from k follow `period` (0: not one whole).

    Round j of period q is at k_j + q·step (step: the rounds per period); the rounds keep
    to the pattern for q whole periods exactly when, for every j, the overspending powers
    at k_j + q'·step are those of round j for every q' < q. Each j is one `Line`."""
    n = len(k)
    step = _per_period(period, n)
    best: float = INF
    at = list(k)
    for over, rounds in period:
        for _ in range(rounds):
            best = Line(book, limits, ebayola, public_totals, at, step).departure(over, best)
            if best == 0:
                return 0
            at = [at[p] + over[p] for p in range(n)]
    if best == INF:
        raise ReductionError("a pattern that never ends")
    return int(best)
