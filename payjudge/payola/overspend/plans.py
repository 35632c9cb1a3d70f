"""Every unit's decision as a *plan* valid over a whole region of reduction states, kept
across the reduction and made again only where it stops holding.

A plan is `decide` run once on `affine.Affine` amounts at a state k0: what each power pays
for the unit, as affine functions of k (the rounds per power), and the conditions (affine
functions of k that must stay > 0) under which that decision holds, together with
k >= k0. `Plans` keeps one plan per unit, and each power's spending (the sum of its
payments, itself affine in k), so that who overspends at a state costs a few sums instead
of deciding every unit again.

Checking every condition at every state would cost as much as deciding again, so each plan
is checked only when it may have stopped holding: a condition worth f > 0 at the state of
its last check, whose negative slopes add up to m, stays > 0 as long as no power has gone
through (f − 1) // m more rounds (every power's rounds only grow). The *clock* counts the
most rounds any power has gone through since the start (a jump along a line counts all of
its rounds); a plan is checked again when the clock reaches its budget.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, cast

from ..book import Book
from ..decide import Amount, decide
from ..schedule import INF, Rounds, piece
from .affine import BASE_BITS, Affine, Region, Slopes, Traced, unit_slope, unpack

# c + Σ a[p]·k[p] > 0 must hold (absolute, not from k0); m: the most it loses per round
Condition = tuple[int, Slopes, int]  # (c, a, m)


Piece = tuple[int, int, Rounds]  # an offer's (value, slope, end) at k0: `schedule.piece`


class Trace(NamedTuple):
    """A plan's decision in terms of the offers' own amounts x, not only of their current
    linear pieces: it stays the decision at every k >= k0 where these comparisons keep their
    answers, whatever pieces the offers are on (`line.Line` follows it past piece ends).
    Each comparison and payment is given both ways: packed slopes per power a (on the
    pieces of k0) and packed coefficients per offer b (x[i] is row i of the unit)."""

    pieces: tuple[Piece, ...]  # per offer (row of the unit)
    comparisons: tuple[tuple[int, int, int], ...]  # (d, a, b): d + Σ b[i]·(x[i] − x0[i]) > 0
    pays: tuple[tuple[int, int, int, int], ...]  # (power, AgP at k0, a, b)


class Plan(NamedTuple):
    base: tuple[int, ...]  # k0: the plan holds for k >= k0 where the conditions hold
    pays: tuple[tuple[int, int, Slopes], ...]  # (power, c, a): it pays c + Σ a[q]·k[q]
    conditions: tuple[Condition, ...]
    trace: Trace | None  # (made `exact` only)


def _plus(a: Slopes, b: Slopes, sign: int) -> Slopes:
    if not b:
        return a
    out = dict(a)
    for p, c in b.items():
        x = out.get(p, 0) + sign * c
        if x:
            out[p] = x
        else:
            del out[p]
    return out


def value_at(c: int, a: Slopes, k: Sequence[int]) -> int:
    for p, x in a.items():
        c += x * k[p]
    return c


def slope_along(a: Slopes, direction: Sequence[int]) -> int:
    s = 0
    for p, x in a.items():
        s += x * direction[p]
    return s


Unpacked = dict[int, tuple[Slopes, int]]  # packed slopes -> (slopes, the most lost per round)


def _unpacked(packed: int, cache: Unpacked) -> tuple[Slopes, int]:
    found = cache.get(packed)
    if found is None:
        slopes = unpack(packed)
        found = cache[packed] = (slopes, -sum(c for c in slopes.values() if c < 0))
    return found


Coefficients = dict[int, list[tuple[int, int]]]  # packed b -> (offer, coefficient) pairs


def coefficients(packed: int, cache: Coefficients) -> list[tuple[int, int]]:
    found = cache.get(packed)
    if found is None:
        found = cache[packed] = list(unpack(packed).items())
    return found


def holds_for(plan: Plan, k: Sequence[int]) -> Rounds:
    """For how many more rounds (of any power) the plan surely holds from k; -1 if it does
    not hold at k."""
    budget: Rounds = INF
    for c, a, m in plan.conditions:
        f = value_at(c, a, k)
        if f <= 0:
            return -1
        if m and (f - 1) // m < budget:
            budget = (f - 1) // m
    return budget


# Plans kept per unit besides the one in use, to be tried before making a new one.
SPARE = 3


class Plans:
    """The plans of every unit that anyone pays for, and each power's spending."""

    def __init__(self, book: Book, limits: Sequence[int], ebayola: bool, public_totals: bool):
        n = len(book.powers)
        self.book, self.limits = book, limits
        self.ebayola, self.public = ebayola, public_totals
        self.units = [u for u, ub in enumerate(book.units) if ub.paying]
        self.plan: dict[int, Plan] = {}
        self.unpacked: Unpacked = {}
        self.offers: Coefficients = {}
        self.spare: dict[int, list[Plan]] = {u: [] for u in self.units}  # most recent first
        self.due: dict[int, Rounds] = {}  # the clock at which each plan is checked again
        self.k: list[int] | None = None
        self.clock = 0
        # what `line.Line` did while following units (Step 4½), counted for the tests
        self.piece_ends = 0  # an offer of a followed unit starting a new piece
        self.comparison_ends = 0  # a followed comparison changing its answer
        # each power's spending: const[p] + Σ coef[p][q]·k[q]
        self.const = [0] * n
        self.coef: list[Slopes] = [{} for _ in range(n)]
        # what making a plan reads, per unit: (entry, amount, plateau, power, K of the power)
        rows, flat = book.rows, book.flat
        self.rows = {u: [(e, *rows[e], flat[rows[e][2]]) for e in book.units[u].paying] for u in self.units}
        self.down = [unit_slope(p, -1) for p in range(n)]

    def holding(self, u: int, k: Sequence[int]) -> tuple[Plan, Rounds]:
        """A plan of unit u that holds at k, and its budget there: the one in use, one it
        used before (in a tug of war a unit goes back and forth between a few decisions,
        and a plan holds wherever its conditions do, whenever it was made), or a new one."""
        current = self.plan.get(u)
        for plan in [current, *self.spare[u]] if current else ():
            if all(x >= b for x, b in zip(k, plan.base)):
                budget = holds_for(plan, k)
                if budget >= 0:
                    return plan, budget
        plan = self.make(u, k)
        return plan, holds_for(plan, k)

    def make(self, u: int, k: Sequence[int], exact: bool = False) -> Plan:
        """Unit u's plan made at state k (Step 3 of docs/overexpenditure.md); with `exact`,
        its `Trace` too (what `line.Line` needs to follow it past the offers' piece ends)."""
        ub = self.book.units[u]
        region = Region()
        amount: dict[int, Amount] = dict.fromkeys(ub.entries, 0)
        keep = self.ebayola and not self.public  # only then does `decide` read plateaus
        plateau: dict[int, int] = dict.fromkeys(ub.entries, 0) if keep else {}
        down = self.down
        ends = [INF] * len(down)  # per power: its pieces (and plateaus in force) last while k[p] < end
        pieces: list[Piece] = []
        # a traced plan is never asked for where `decide` reads plateaus (eBayola without
        # PUBLIC_TOTALS: line.Line follows no unit there), so a trace has none to carry
        assert not (exact and keep)
        for i, (e, top, pl, p, flat) in enumerate(self.rows[u]):
            kp = k[p]
            v, s, kend = piece(top, pl, flat, kp)  # (s is 0 or -1)
            if exact:
                pieces.append((v, s, kend))
                if v:  # (an offer at 0 stays there)
                    amount[e] = Traced(v, down[p] if s else 0, region, 1 << (BASE_BITS * i))
            elif s:
                amount[e] = Affine(v, down[p], region)
            elif v:
                amount[e] = v
            if kend < ends[p]:
                ends[p] = kend
            if keep and kp <= flat:
                plateau[e] = pl
        # `decide` computes on Affines as on ints (see affine.py): its payments are Affines or ints
        decision = decide(ub, amount, plateau, self.ebayola, self.public)
        unpacked = self.unpacked
        pays: list[tuple[int, int, Slopes]] = []
        exact_pays: list[tuple[int, int, int, int]] = []
        for p, paid in decision.payments:
            x = cast("Affine | Traced | int", paid)
            if type(x) is Traced:
                slopes = _unpacked(x.a, unpacked)[0]
                pays.append((p, x.v - value_at(0, slopes, k), slopes))
                exact_pays.append((p, x.v, x.a, x.b))
            elif type(x) is Affine:
                slopes = _unpacked(x.a, unpacked)[0]
                pays.append((p, x.v - value_at(0, slopes, k), slopes))
            elif x:
                pays.append((p, x, {}))
                exact_pays.append((p, x, 0, 0))
        tightest: dict[int, int] = {}  # (of the conditions with the same slopes, the least d)
        for p, kend in enumerate(ends):  # (first: where a plan tried again fails, mostly)
            if kend != INF:
                tightest[down[p]] = int(kend) - k[p]
        for d, packed in region.conditions:
            if d < tightest.get(packed, d + 1):
                tightest[packed] = d
        conds: list[Condition] = []
        for packed, d in tightest.items():
            slopes, loss = _unpacked(packed, unpacked)
            if loss:  # (a condition that no round can lower holds for every k >= k0)
                conds.append((d - value_at(0, slopes, k), slopes, loss))
        trace = None
        if exact:
            same: dict[tuple[int, int], int] = {}  # (of the conditions on the same offers, the least d)
            for (d, a), (_, b) in zip(region.conditions, region.exact):
                if d < same.get((a, b), d + 1):
                    same[a, b] = d
            comparisons = tuple((d, a, b) for (a, b), d in same.items())
            trace = Trace(tuple(pieces), comparisons, tuple(exact_pays))
        return Plan(tuple(k), tuple(pays), tuple(conds), trace)

    def slopes(self, packed: int) -> Slopes:
        return _unpacked(packed, self.unpacked)[0]

    def replace(self, u: int, plan: Plan) -> None:
        """Use `plan` for unit u from now on (checked again at the next move); the one it
        replaces is kept as a spare."""
        old = self.plan.get(u)
        if old is plan:
            return
        spare = self.spare[u]
        if old is not None:
            for p, c, a in old.pays:
                self.const[p] -= c
                self.coef[p] = _plus(self.coef[p], a, -1)
            spare.insert(0, old)
        spare[:] = [x for x in spare if x is not plan][:SPARE]
        for p, c, a in plan.pays:
            self.const[p] += c
            self.coef[p] = _plus(self.coef[p], a, 1)
        self.plan[u] = plan
        self.due[u] = -1

    def at(self, k: Sequence[int]) -> None:
        """Make every plan hold at state k."""
        last = self.k
        if last is None or any(x < y for x, y in zip(k, last)):
            self.clock += 1  # (rounds went back: every plan is checked)
            force = True
        else:
            self.clock += max((x - y for x, y in zip(k, last)), default=0)
            force = False
        self.k = list(k)
        clock = self.clock
        for u in self.units:
            if force or self.due[u] <= clock:
                plan, budget = self.holding(u, k)
                self.replace(u, plan)
                self.due[u] = clock + budget + 1

    def spending(self, k: Sequence[int]) -> list[int]:
        self.at(k)
        return [value_at(c, a, k) for c, a in zip(self.const, self.coef)]

    def overspending(self, k: Sequence[int]) -> tuple[bool, ...]:
        """o(k): who would pay more than its limit at k (== `reduction.overspending`)."""
        return tuple(s > lim for s, lim in zip(self.spending(k), self.limits))
