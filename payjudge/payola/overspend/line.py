"""How far the rounds can go along one line of reduction states before anything changes.

`Line(plans, start, direction).departure(expected, horizon)` answers: the first step
q >= 0 at which the set of overspending powers at start + q·direction is not `expected`
(`horizon` if none comes before it). It follows the line from event to event:

- each unit's plan (`plans.Plan`: its payments as affine functions of the state, and the
  conditions under which they hold) is, along the line, a set of linear functions of the
  step: it holds until the first step at which one of its conditions reaches 0 (a
  division), its *end*;
- each power's spending is the sum of its payments, linear in the step, and the step at
  which it crosses the power's limit is a division;
- the next event is the earliest plan end or limit crossing: at a plan end the unit is
  planned again there, at a crossing the answer is found;
- a unit planned again on the line (mostly because one of its offers reached its plateau
  or 0, the decision staying the same) is then *followed* by its offers' amounts (its
  plan's `Trace`): its comparisons and payments are sums of offers, linear between their
  piece ends, so an offer's piece end only updates the sums it is part of, and the unit is
  planned again only where a comparison reaches 0 (docs/overexpenditure.md, Step 4½).

The cost depends on the number of offers and of decisions that change on the way, not on
the number of steps.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence

from ..schedule import INF, Rounds, piece
from .plans import Plan, Plans, Trace, coefficients, holds_for, slope_along, value_at

Pay = tuple[int, int, int]  # (power, AgP at step 0 of the line, AgP per step)
# events at the same step, in this order: an offer's piece ends, a comparison ends, a plan ends
OFFER, FLIP, END = 0, 1, 2
# A unit is followed by its offers (past their piece ends) from its FOLLOW-th new plan on a
# line: following costs more to set up than a plan, and most units are planned at most once
# on the short lines of a pattern check.
FOLLOW = 2


def _first_le0(d: int, s: int) -> Rounds:
    """The first Δ >= 1 with d + s·Δ <= 0, for d > 0."""
    return INF if s >= 0 else (d - s - 1) // -s


def _first_gt0(d: int, s: int) -> Rounds:
    """The first Δ >= 1 with d + s·Δ > 0, for d <= 0."""
    return INF if s <= 0 else -d // s + 1


class Line:
    """The auction along start + q·direction (q = 0, 1, …)."""

    def __init__(
        self,
        plans: Plans,
        start: Sequence[int],
        direction: Sequence[int],
        made: dict[tuple[int, int], Plan] | None = None,
    ):
        self.plans = plans
        self.start = start
        self.direction = direction
        # (unit, step) -> the plan made there, on this line or on a parallel one just behind
        # it (the lines of a period): tried first, as it mostly holds there too
        self.made: dict[tuple[int, int], Plan] = {} if made is None else made
        # what `departure` follows: each power's spending a[p] + s[p]·q; the events
        # (step, kind, unit, offer or comparison, the unit's version); per unit, its
        # payments and how many times it was planned on this line; the units followed by
        # their offers
        self.a: list[int] = []
        self.s: list[int] = []
        self.heap: list[tuple[Rounds, int, int, int, int]] = []
        self.pays: dict[int, Sequence[Sequence[int]]] = {}  # per unit: (power, AgP at step 0, per step)
        self.version: dict[int, int] = {}
        self.exact: dict[int, _Followed] = {}
        self.planned: dict[int, int] = {}

    def _plan(self, u: int, q: int, follow: bool = False) -> Plan:
        """A plan of unit u that holds at step q: one made at step q or q − 1 of the
        parallel line before (any plan that holds is exact, wherever it was made), or a
        new one, made with its `Trace` (to be followed past its offers' piece ends)."""
        at = [k + q * d for k, d in zip(self.start, self.direction)]
        made = self.made
        for old in (made.get((u, q)), made.get((u, q - 1))):
            if old is not None and all(x >= b for x, b in zip(at, old.base)) and holds_for(old, at) >= 0:
                return old
        plan = made[u, q] = self.plans.make(u, at, exact=follow)
        return plan

    def _on_line(self, plan: Plan, q: int) -> tuple[Rounds, list[Pay]]:
        """A plan that holds at step q: the step it ends at, and its payments on the line."""
        start, direction = self.start, self.direction
        at = [k + q * d for k, d in zip(start, direction)]
        end: Rounds = INF
        for c, a, _ in plan.conditions:
            s = slope_along(a, direction)
            if s < 0:
                t = _first_le0(value_at(c, a, at), s)
                if t < end:
                    end = t
        pays = [(p, value_at(c, a, start), slope_along(a, direction)) for p, c, a in plan.pays]
        return q + end, pays

    def departure(self, expected: Sequence[bool], horizon: Rounds = INF) -> Rounds:
        """The first step at which the overspending powers are not `expected`."""
        plans, start, direction = self.plans, self.start, self.direction
        plans.at(start)
        n = len(expected)
        self.a = a = [value_at(c, co, start) for c, co in zip(plans.const, plans.coef)]
        self.s = s = [slope_along(co, direction) for co in plans.coef]
        self.heap = heap = []
        self.version = dict.fromkeys(plans.units, 0)
        for u in plans.units:
            end, self.pays[u] = self._on_line(plans.plan[u], 0)
            if end != INF:
                heap.append((end, END, u, 0, 0))
        heapq.heapify(heap)
        limits = plans.limits
        q = 0
        while True:
            cross = horizon
            for p in range(n):
                f = a[p] + s[p] * q - limits[p]
                if (f > 0) != expected[p]:
                    return q
                t = q + (_first_le0(f, s[p]) if f > 0 else _first_gt0(f, s[p]))
                if t < cross:
                    cross = t
            if not heap or cross < heap[0][0]:
                return cross
            q = int(heap[0][0])
            while heap and heap[0][0] == q:
                _, kind, u, j, version = heapq.heappop(heap)
                if version != self.version[u]:
                    continue  # (the unit has moved on to another plan since)
                if kind == OFFER:
                    self._offer(u, j, q)
                elif kind == FLIP and self.exact[u].ends[j] != q:
                    continue  # (that comparison's end has moved)
                else:
                    self._replan(u, q, kind == END)

    def _replan(self, u: int, q: int, ended: bool) -> None:
        """Unit u's plan (or one of its comparisons) ends at step q: plan it again there.
        A unit whose plan ended (mostly at one of its offers' piece ends, rather than a
        comparison that answers otherwise) a second time on this line is likely to be on a
        long stretch of piece ends (the first line): it is followed by its offers."""
        a, s = self.a, self.s
        for p, a0, s0 in self.pays[u]:
            a[p] -= a0
            s[p] -= s0
        self.version[u] += 1
        if not ended:
            self.plans.comparison_ends += 1
        follow = False
        if ended and not self.plans.ebayola:
            again = self.planned[u] = self.planned.get(u, 0) + 1
            follow = again >= FOLLOW
        plan = self._plan(u, q, follow)
        self.plans.replace(u, plan)
        if plan.trace is None or plan.base != tuple(k + q * d for k, d in zip(self.start, self.direction)):
            # (a trace is followed only from where it was made)
            end, self.pays[u] = self._on_line(plan, q)
            if end != INF:
                heapq.heappush(self.heap, (end, END, u, 0, self.version[u]))
        else:
            self._follow(u, plan.trace, q)
        for p, a0, s0 in self.pays[u]:
            a[p] += a0
            s[p] += s0

    def _follow(self, u: int, trace: Trace, q: int) -> None:
        """Follow unit u's decision from step q (where it was made) by its offers' amounts:
        each comparison and payment is a sum of offers, linear between the offers' piece
        ends; at a piece end only the sums it is part of change slope."""
        start, direction, version, heap = self.start, self.direction, self.version[u], self.heap
        at = [k + q * d for k, d in zip(start, direction)]
        rows = self.plans.rows[u]
        offers = self.plans.offers
        follow = _Followed()
        self.exact[u] = follow
        for j, (d, a, b) in enumerate(trace.comparisons):
            slope = slope_along(self.plans.slopes(a), direction)
            follow.sums.append([d - slope * q, slope])
            follow.ends.append(INF)
            self._end(u, j, q)
            for i, c in coefficients(b, offers):
                follow.index.setdefault(i, []).append((j, c))
        pays: list[list[int]] = []
        self.pays[u] = pays
        for p, x, a, b in trace.pays:
            slope = slope_along(self.plans.slopes(a), direction)
            j = len(follow.sums)
            follow.sums.append([x - slope * q, slope])
            pays.append([p, x - slope * q, slope])
            for i, c in coefficients(b, offers):
                follow.index.setdefault(i, []).append((j, c))
        follow.pays = pays
        follow.first = len(trace.comparisons)
        for i in follow.index:
            v, sl, kend = trace.pieces[i]
            p = rows[i][3]
            step = sl * direction[p]
            follow.offers[i] = [v - step * q, step]
            if kend != INF and direction[p]:
                heapq.heappush(heap, (q - (-(int(kend) - at[p]) // direction[p]), OFFER, u, i, version))

    def _end(self, u: int, j: int, q: int) -> None:
        """(Re)compute where comparison j of unit u ends (its sum reaches 0), from step q."""
        follow = self.exact[u]
        c0, slope = follow.sums[j]
        f = c0 + slope * q
        end = q if f <= 0 else q + _first_le0(f, slope)
        follow.ends[j] = end
        if end != INF:
            heapq.heappush(self.heap, (end, FLIP, u, j, self.version[u]))

    def _offer(self, u: int, i: int, q: int) -> None:
        """Offer i of unit u starts a new piece at step q: its sums change slope."""
        follow = self.exact[u]
        self.plans.piece_ends += 1
        _, top, pl, p, flat = self.plans.rows[u][i]
        d = self.direction[p]
        kp = self.start[p] + q * d
        v, sl, kend = piece(top, pl, flat, kp)
        w0, old = follow.offers[i]
        jump = v - (w0 + old * q)  # (where the piece ended within a step)
        step = sl * d
        follow.offers[i] = [v - step * q, step]
        if kend != INF:
            heapq.heappush(self.heap, (q - (-(int(kend) - kp) // d), OFFER, u, i, self.version[u]))
        first = follow.first
        for j, c in follow.index[i]:
            total = follow.sums[j]
            before = total[0] + total[1] * q
            total[1] += c * (step - old)
            total[0] = before + c * jump - total[1] * q
            if j < first:
                self._end(u, j, q)
            else:
                pay = follow.pays[j - first]
                self.a[pay[0]] += total[0] - pay[1]
                self.s[pay[0]] += total[1] - pay[2]
                pay[1], pay[2] = total[0], total[1]


class _Followed:
    """A unit followed by its offers' amounts along a line (`Line._follow`): each sum is
    [AgP at step 0, AgP per step] (the comparisons first, then the payments)."""

    __slots__ = ("ends", "first", "index", "offers", "pays", "sums")

    def __init__(self) -> None:
        self.sums: list[list[int]] = []
        self.ends: list[Rounds] = []  # per comparison: the step its sum reaches 0
        self.index: dict[int, list[tuple[int, int]]] = {}  # offer -> (sum, coefficient)
        self.offers: dict[int, list[int]] = {}  # offer -> [AgP at step 0, AgP per step]
        self.pays: list[list[int]] = []
        self.first = 0
