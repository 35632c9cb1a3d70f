"""Overexpenditure (rule 5.5): how many one-AgP reduction rounds each power goes through.

Every round, each power that would pay more than its balance minus its savings has all
its offers reduced (see `schedule.py`), and every unit decides again. The state of the
whole auction is therefore the vector k of rounds per power.

`reduce_literal` runs the rounds one by one, as the rulebook describes them. Its cost
grows with the amounts of money involved.

`reduce_fast` reaches the same k without visiting every round. While the set S of
overspending powers stays the same, k moves along a straight line (every power of S
gains one round per round), every offer's amount is piecewise linear along it, and so
is every candidate's total. For each unit it plans the longest run of rounds in which
nothing about the unit can change: no offer on it changes slope, the ranking of its
candidates against the winner keeps its signs (so the winner and any tie stay), and
under eBayola the runner-up and the rebate split stay the same. Within such a run
what each power pays for the unit is linear, so each power's spending is linear
between two unit events, and the round at which it crosses its limit is a division.
The procedure jumps from event to event; its cost depends on the number of offers and
of decisions that change, not on the sums of money. Tests compare it with the literal
procedure on many random sheets.
"""

from __future__ import annotations

from typing import Sequence

from .book import Book
from .decide import evaluate, spending
from .cycles import periods_valid
from .sweep import Sweep
from .schedule import INF


LITERAL_ROUNDS = 3         # rounds taken one by one before the events take over
VOLATILE_SWITCHES = 3      # this many starts or stops of overspending …
VOLATILE_WINDOW = 32       # … within this many rounds make a power volatile (kinetic.py)


class ReductionError(RuntimeError):
    """The reduction did not settle (a bug: every round lowers some offer)."""


def reduce_literal(book: Book, limits: Sequence[int], ebayola: bool = False,
                   public_totals: bool = False) -> list[int]:
    """The rounds per power, one round at a time (the reference procedure)."""
    n = len(book.powers)
    k = [0] * n
    bound = sum(e.amount for e in book.entries) + n + 1
    for _ in range(bound + 1):
        spent = spending(book, evaluate(book, k, ebayola, public_totals))
        over = [p for p in range(n) if spent[p] > limits[p]]
        if not over:
            return k
        for p in over:
            k[p] += 1
    raise ReductionError("the reduction rounds did not settle")


def _pattern(history: list[tuple[int, tuple[bool, ...]]], longest: int = 16):
    """The last period, if the last two periods of sub-steps were identical: a schedule of
    (who overspends, rounds) ending just before the sub-step that has just begun."""
    steps = [(o, history[i + 1][0] - t) for i, (t, o) in enumerate(history[:-1])]
    current = history[-1][1]
    for size in range(1, longest + 1):
        if 2 * size > len(steps):
            break
        last, before = steps[-size:], steps[-2 * size:-size]
        if last == before and last[0][0] == current:
            return last
    return None


def reduce_fast(book: Book, limits: Sequence[int], ebayola: bool = False,
                public_totals: bool = False) -> list[int]:
    """The same rounds per power as `reduce_literal`, jumping from event to event, and over
    whole periods of a repeating pattern (`cycles.py`)."""
    n = len(book.powers)
    k = [0] * n
    # most auctions settle within a few rounds: take those one by one, it is cheaper
    for _ in range(LITERAL_ROUNDS):
        spent = spending(book, evaluate(book, k, ebayola, public_totals))
        over = [spent[p] > limits[p] for p in range(n)]
        if not any(over):
            return k
        k = [k[p] + over[p] for p in range(n)]
    spent = spending(book, evaluate(book, k, ebayola, public_totals))
    over = [spent[p] > limits[p] for p in range(n)]
    if not any(over):
        return k
    sweep = Sweep(book, limits, ebayola, public_totals, k, 0, [int(o) for o in over])
    switches: list[list[int]] = [[] for _ in range(n)]
    tau = 0
    history = [(0, tuple(over))]
    wait = 2                   # membership changes before the next look for a pattern
    # a safety net only: every event moves some offer, decision or power along
    guard = (sum(e.amount for e in book.entries) + n + 2) * (len(book.units) + 2) + 1000
    while True:
        guard -= 1
        if guard < 0:
            raise ReductionError("the fast reduction did not settle")
        t = sweep.next_step(tau, over)
        if t == INF:
            raise ReductionError("overspending that no round can cure")
        tau = int(t)
        sweep.advance(tau)
        now = sweep.membership(tau)
        if now == over:
            continue
        if not any(now):
            return sweep.rounds(tau)
        changed = [p for p in range(n) if now[p] != over[p]]
        sweep.set_rates({p: int(now[p]) for p in changed}, tau)
        over = now
        for p in changed:
            # a power that keeps starting and stopping is planned for either
            recent = switches[p] = [x for x in switches[p] if x > tau - VOLATILE_WINDOW] + [tau]
            if len(recent) >= VOLATILE_SWITCHES:
                sweep.set_volatile(p, True, tau)
        for p in range(n):
            if sweep.planner.volatile[p] and switches[p][-1] <= tau - 2 * VOLATILE_WINDOW:
                sweep.planner.volatile[p] = False     # its plans stay valid, only cautious
        history.append((tau, tuple(now)))
        wait -= 1
        if wait > 0:
            continue
        schedule = _pattern(history)
        if schedule is None:
            wait = 1
            continue
        k = sweep.rounds(tau)
        periods = periods_valid(book, k, schedule, limits, ebayola, public_totals)
        if periods < 3:
            wait = 2 * len(schedule) * (1 + len(history) // 8)
            continue
        # the rounds follow the pattern for `periods` whole periods: jump over them
        length = sum(rounds for _, rounds in schedule)
        step = [sum(r for o, r in schedule if o[p]) for p in range(n)]
        k = [k[p] + int(periods) * step[p] for p in range(n)]
        tau += int(periods) * length
        sweep = Sweep(book, limits, ebayola, public_totals, k, tau, [int(o) for o in schedule[0][0]])
        over = sweep.membership(tau)
        if not any(over):
            return k
        if over != list(schedule[0][0]):
            sweep.set_rates({p: int(over[p]) for p in range(n) if over[p] != schedule[0][0][p]}, tau)
        history = [(tau, tuple(over))]
        switches = [[] for _ in range(n)]
        wait = 2
