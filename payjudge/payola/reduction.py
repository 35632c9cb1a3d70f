"""Overexpenditure (rule 5.5): how many one-AgP reduction rounds each power goes through.

Every round, each power that would pay more than its balance minus its savings has all
its offers reduced (see `schedule.py`), and every unit decides again. The state of the
whole auction is therefore the vector k of rounds per power.

`reduce_literal` runs the rounds one by one, as the rulebook describes them. Its cost
grows with the amounts of money involved.

`reduce_fast` reaches the same k without visiting every round. Small auctions and the
first rounds of any are taken one by one (`decide.Spender`). Then, along a stretch where
the set of overspending powers stays the same, k moves along a straight line and every
candidate's total is piecewise linear; `kinetic.Planner` plans each unit for as long as
its decision cannot change and `sweep.Sweep` jumps from one such event to the next.
Where powers keep starting and stopping to overspend because units go back and forth
between them (a tug of war: whoever holds the unit overspends, is reduced and loses it),
the rounds follow a repeating pattern: `tugs.Tugs.establish` finds it by simulation,
and from then on every plan follows it exactly, class by class (`slides.py`), so that
the switching costs nothing until something else changes. (Where no such pattern is
found, a power that keeps switching is made *volatile*: units are planned for any
pattern of its rounds; and a pattern of switches seen repeating is jumped over whole
periods at a time, `cycles.py`.) Every step skipped is checked exactly; the cost depends
on the number of offers and of decisions that change, not on the sums of money; tests
compare the result with the literal procedure on thousands of random sheets.
"""

from __future__ import annotations

from collections.abc import Sequence

from .book import Book
from .cycles import periods_valid
from .decide import Spender, evaluate, spending
from .schedule import INF
from .sweep import Sweep

LITERAL_LIMIT = 64  # when no more rounds than this are possible, take them one by one
LITERAL_ROUNDS = 3  # rounds taken one by one before the events take over
PATTERN_REPEATS = 3  # a pattern seen this many times in a row is checked (cycles.py)
VOLATILE_SWITCHES = 3  # this many starts or stops of overspending …
VOLATILE_WINDOW = 32  # … within this many rounds make a power volatile (kinetic.py)
VOLATILE_IDLE = 64  # … and one that has not switched for this long is no more
WOBBLE_WINDOW = 4  # a unit that flips back within this many steps wobbles (tugs.py)
TUG_WINDOW = 32  # units that flipped twice within this many steps: a tug of war?
TUG_BACKOFF = 8  # after a vain look for one, wait 8, 16, … steps
TUG_BACKOFF_MAX = 256


class ReductionError(RuntimeError):
    """The reduction did not settle (a bug: every round lowers some offer)."""


def reduce_literal(
    book: Book, limits: Sequence[int], ebayola: bool = False, public_totals: bool = False
) -> list[int]:
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


def _pattern(
    history: list[tuple[int, tuple[bool, ...]]], longest: int = 16, repeats: int = 2
) -> list[tuple[tuple[bool, ...], int]] | None:
    """The last period, if the last `repeats` periods of sub-steps were identical: a schedule
    of (who overspends, rounds) ending just before the sub-step that has just begun."""
    steps = [(o, history[i + 1][0] - t) for i, (t, o) in enumerate(history[:-1])]
    current = history[-1][1]
    for size in range(1, longest + 1):
        if repeats * size > len(steps):
            break
        last = steps[-size:]
        if last[0][0] == current and all(
            steps[-(r + 1) * size : -r * size] == last for r in range(1, repeats)
        ):
            return last
    return None


def most_rounds(book: Book) -> int:
    """No power goes through more rounds than it takes to bring all its offers to 0."""
    top = [0] * len(book.powers)
    for e in book.entries:
        top[e.power] = max(top[e.power], book.flat[e.power] + e.plateau)
    return max(top, default=0)


def reduce_fast(
    book: Book,
    limits: Sequence[int],
    ebayola: bool = False,
    public_totals: bool = False,
    *,
    shortcuts: bool = True,
    tugs: bool = True,
) -> list[int]:
    """The same rounds per power as `reduce_literal`, jumping from event to event, and over
    whole periods of a repeating pattern (`cycles.py`). With `shortcuts`, small auctions
    (few rounds possible) and the first rounds of any are taken one by one, which is
    cheaper there; without, the events do everything (for tests)."""
    n = len(book.powers)
    if shortcuts and most_rounds(book) <= LITERAL_LIMIT:
        # few rounds possible: take them one by one, as `reduce_literal` does
        spender = Spender(book, ebayola, public_totals)
        k = [0] * n
        for _ in range(sum(e.amount for e in book.entries) + n + 2):
            spent = spender.spending(k)
            over = [spent[p] > limits[p] for p in range(n)]
            if not any(over):
                return k
            k = [k[p] + over[p] for p in range(n)]
        raise ReductionError("the reduction rounds did not settle")
    k = [0] * n
    spender = Spender(book, ebayola, public_totals)
    # most auctions settle within a few rounds: take those one by one, it is cheaper
    for _ in range(LITERAL_ROUNDS if shortcuts else 0):
        spent = spender.spending(k)
        over = [spent[p] > limits[p] for p in range(n)]
        if not any(over):
            return k
        k = [k[p] + over[p] for p in range(n)]
    spent = spender.spending(k)
    over = [spent[p] > limits[p] for p in range(n)]
    if not any(over):
        return k
    sweep = Sweep(book, limits, ebayola, public_totals, k, 0, [int(o) for o in over])
    switches: list[list[int]] = [[] for _ in range(n)]
    tau = 0
    history = [(0, tuple(over))]
    wait = 2  # membership changes before the next look for a pattern
    patience = 2
    # a safety net only: every event moves some offer, decision or power along
    guard = (sum(e.amount for e in book.entries) + n + 2) * (len(book.units) + 2) + 1000
    flip_log: dict[int, list[tuple[int, int, int]]] = {}  # unit: its recent flips
    next_try, backoff = 0, TUG_BACKOFF
    while True:
        guard -= 1
        if guard < 0:
            raise ReductionError("the fast reduction did not settle")
        t = sweep.next_step(tau, sweep.predicted(tau))
        if t == INF:
            raise ReductionError("overspending that no round can cure")
        tau = int(t)
        sweep.advance(tau)
        now = sweep.membership(tau)
        pred = sweep.predicted(tau)
        flips = sweep.take()
        for ui, old, new in flips:
            flip_log.setdefault(ui, []).append((tau, old, new))
        if now == pred:
            if sweep.schedule is not None:
                # a unit that goes back and forth with the pattern, nobody starting or
                # stopping to overspend because of it, wobbles with it
                for ui, old, new in flips:
                    log = flip_log[ui]
                    if len(log) > 1 and log[-2][0] >= tau - WOBBLE_WINDOW and log[-2][1:] == (new, old):
                        sweep.wobble(ui, tuple(sorted((old, new))), tau)
                sweep.flush(tau)
            continue
        if not any(now):
            return sweep.rounds(tau)
        changed = [p for p in range(n) if now[p] != pred[p]]
        found = None
        if tugs and (tau >= next_try or sweep.wobbles):
            # units that went back and forth lately: a tug of war? (tugs.py)
            groups = {}
            for ui in list(flip_log):
                log = flip_log[ui] = [f for f in flip_log[ui] if f[0] > tau - TUG_WINDOW]
                if not log:
                    del flip_log[ui]
                elif len(log) > 1:
                    groups[ui] = tuple(sorted({c for _, old, new in log for c in (old, new)}))
            if groups or sweep.wobbles:
                found = sweep.establish(groups, tau, now)
                if found is not None:
                    backoff = TUG_BACKOFF
                elif tau >= next_try:
                    next_try, backoff = tau + backoff, min(2 * backoff, TUG_BACKOFF_MAX)
        # from here on: the rates of now, or the pattern found
        sweep.set_course(tau, now, found)
        over = now
        for p in changed:
            # a power that keeps starting and stopping is planned for either
            recent = switches[p] = [x for x in switches[p] if x > tau - VOLATILE_WINDOW] + [tau]
            if len(recent) >= VOLATILE_SWITCHES and sweep.schedule is None:
                sweep.set_volatile(p, True, tau)
        for p in range(n):
            if sweep.planner.volatile[p] and switches[p] and switches[p][-1] <= tau - VOLATILE_IDLE:
                sweep.planner.volatile[p] = False  # its plans stay valid, only cautious
        sweep.take()
        sweep.flush(tau)
        if sweep.schedule is not None:
            history = [(tau, tuple(now))]
            wait = 2
            continue
        history.append((tau, tuple(now)))
        wait -= 1
        if wait > 0:
            continue
        schedule = _pattern(history, repeats=PATTERN_REPEATS)
        if schedule is None:
            wait = 1
            continue
        k = sweep.rounds(tau)
        periods = periods_valid(book, k, schedule, limits, ebayola, public_totals)
        if periods < 3:
            # checking a pattern costs a few sweeps: look less often after each failure
            wait = patience * len(schedule)
            patience *= 2
            continue
        patience = 2
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
            sweep.flush(tau)
        history = [(tau, tuple(over))]
        switches = [[] for _ in range(n)]
        wait = 2
