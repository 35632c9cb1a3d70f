"""Overexpenditure (rule 5.5), fast: the rounds per power of `reduction.reduce_literal`,
without visiting every round. The argument is in docs/overexpenditure.md.

The state of the auction is k, the rounds each power has gone through; a round adds 1 to
k[p] for every power p that overspends at k. `reduce_overspending` goes through the rounds
as *segments* — runs of rounds with the same overspending powers o, along which k moves on
the line k + q·o — and asks `line.Line` where each segment ends. When the last segments
repeat the ones before them, three times in a row (a tug of war: a unit going back and
forth between powers that take turns overspending), the rounds of a period are checked,
each along its own
line k_j + q·(rounds per period), for how many whole periods they keep to the pattern,
and the pattern is jumped over. Both are the same question — how long the overspending
powers along a line stay as expected — asked of the same `Line`. Rounds, lines and
periods all read the same `plans.Plans`: every unit's decision over a region of states,
made again only where it stops holding.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..book import Book
from ..reduction import ReductionError, reduce_literal
from ..schedule import INF, Rounds
from .line import Line
from .plans import Plan, Plans

# Up to this many rounds in all, the literal procedure is cheaper than planning (a round
# costs one `evaluate`; planning a line costs a few; compiled, the two cross at about
# 300-370 for 7 powers x 60 offers). Realistic auctions stay far below it.
LITERAL_LIMIT = 256
# Periods longer than this many rounds are not looked for: checking one costs one line
# per round of the period, and the patterns that last in the stress cases are 2 to 8
# rounds long (longer ones, looked for, mostly broke at once: checks for nothing).
LONGEST_PERIOD = 8
# The first rounds of a segment are taken one by one: in a tug of war most segments are
# a few rounds long, and a round (a few plans checked) costs much less than a line (every
# plan followed along it).
ALONE = 4
# A pattern is checked once it has been seen this many times in a row: a check costs a
# line per round of the period, and a pattern seen only twice often breaks at once.
REPEATS = 3


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
    plans = Plans(book, limits, ebayola, public_totals)
    segments: list[Segment] = []  # the rounds so far, the jumped ones too (its tail)
    quiet = 0  # segments to wait before looking for a pattern again
    for _ in range(sum(e.amount for e in book.entries) + n + 2):
        over = plans.overspending(k)
        if not any(over):
            return k
        if segments and segments[-1][0] == over and segments[-1][1] >= ALONE:
            # a segment going on: find where it ends (its first rounds are taken alone:
            # in a tug of war most segments are a few rounds long)
            rounds = Line(plans, k, over).departure(over)
            if rounds == INF:
                raise ReductionError("overspending that no round can cure")
        else:
            rounds = 1
        _extend(segments, [(over, int(rounds))])
        k = [k[p] + int(rounds) * over[p] for p in range(n)]
        quiet -= 1
        if quiet > 0:
            continue
        patterns = _repeating(segments)
        for period in patterns:
            periods = whole_periods(plans, k, period)
            if periods:
                step = _per_period(period, n)
                k = [k[p] + periods * step[p] for p in range(n)]
                # the periods jumped over are rounds like the others: a longer pattern
                # that contains them shows in the segments
                _extend(segments, period * min(periods, 2 * LONGEST_PERIOD))
                quiet = 2  # the pattern has just broken: it will not go on at once
                break
        else:
            # not a pattern (yet): look again a period later
            quiet = len(patterns[-1]) if patterns else 0
    raise ReductionError("the reduction did not settle")


def _extend(segments: list[Segment], more: list[Segment]) -> None:
    """Append rounds to the segments (merging runs of the same overspending powers), and
    forget what is too old to be part of a pattern that is looked for."""
    for over, rounds in more:
        if segments and segments[-1][0] == over:
            segments[-1] = (over, segments[-1][1] + rounds)
        else:
            segments.append((over, rounds))
    if len(segments) > 2 * REPEATS * LONGEST_PERIOD:
        del segments[: -REPEATS * LONGEST_PERIOD]  # (a pattern seen REPEATS times fits)


def _repeating(segments: list[Segment]) -> list[list[Segment]]:
    """Patterns to try: the last L segments, where they repeat the L before them. The
    longest such L first (a short repeat is often a part of a longer pattern, that lasts
    longer), unless it is itself made of a shorter one; then the shortest."""
    sizes = []
    total = 0
    n = len(segments)
    for size in range(1, n // REPEATS + 1):
        total += segments[n - size][1]
        if total > LONGEST_PERIOD:
            break
        # the last REPEATS·size segments repeat with period `size` (compared one by one,
        # from the last: most sizes fail at the first comparison)
        for i in range(n - 1, n - 1 - (REPEATS - 1) * size, -1):
            if segments[i] != segments[i - size]:
                break
        else:
            sizes.append(size)
    primitive = [m for m in sizes if not any(m % s == 0 for s in sizes if s < m)]
    order = sorted({primitive[-1], sizes[0]}, reverse=True) if sizes else []
    return [segments[-size:] for size in order]


def _per_period(period: list[Segment], n: int) -> list[int]:
    return [sum(rounds for over, rounds in period if over[p]) for p in range(n)]


def whole_periods(plans: Plans, k: Sequence[int], period: list[Segment]) -> int:
    """For how many whole periods the rounds from k follow `period` (0: not one whole).

    The first period is checked round by round (a few sums each: a pattern that is about
    to break costs no more). Then round j of period q is at k_j + q·step (step: the rounds
    per period); the rounds keep to the pattern for q whole periods exactly when, for
    every j, the overspending powers at k_j + q'·step are those of round j for every
    q' < q. Each j is one `Line`, from its round in the second period."""
    n = len(k)
    step = _per_period(period, n)
    rounds: list[tuple[list[int], tuple[bool, ...]]] = []  # (k_j, o_j) of the first period
    at = list(k)
    for over, count in period:
        for _ in range(count):
            if plans.overspending(at) != over:
                return 0
            rounds.append((at, over))
            at = [at[p] + over[p] for p in range(n)]
    best: Rounds = INF
    made: dict[tuple[int, int], Plan] = {}  # (plans made on one line mostly hold on the next)
    for start, over in rounds:
        best = Line(plans, [x + s for x, s in zip(start, step)], step, made).departure(over, best)
        if best == 0:
            return 1
    if best == INF:
        raise ReductionError("a pattern that never ends")
    return 1 + int(best)
