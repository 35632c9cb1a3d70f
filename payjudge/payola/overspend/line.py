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
  planned again there, at a crossing the answer is found.

The cost depends on the number of offers and of decisions that change on the way, not on
the number of steps.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence

from ..schedule import INF
from .plans import Plan, Plans, holds_for, slope_along, value_at

Pay = tuple[int, int, int]  # (power, AgP at step 0 of the line, AgP per step)


def _first_le0(d: int, s: int) -> float:
    """The first Δ >= 1 with d + s·Δ <= 0, for d > 0."""
    return INF if s >= 0 else (d - s - 1) // -s


def _first_gt0(d: int, s: int) -> float:
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

    def _plan(self, u: int, q: int) -> Plan:
        """A plan of unit u that holds at step q: one made at step q or q − 1 of the
        parallel line before (any plan that holds is exact, wherever it was made), or a
        new one."""
        at = [k + q * d for k, d in zip(self.start, self.direction)]
        made = self.made
        for old in (made.get((u, q)), made.get((u, q - 1))):
            if old is not None and all(x >= b for x, b in zip(at, old.base)) and holds_for(old, at) >= 0:
                return old
        plan = made[u, q] = self.plans.make(u, at)
        return plan

    def _on_line(self, plan: Plan, q: int) -> tuple[float, list[Pay]]:
        """A plan that holds at step q: the step it ends at, and its payments on the line."""
        start, direction = self.start, self.direction
        at = [k + q * d for k, d in zip(start, direction)]
        end: float = INF
        for c, a, _ in plan.conditions:
            s = slope_along(a, direction)
            if s < 0:
                t = _first_le0(value_at(c, a, at), s)
                if t < end:
                    end = t
        pays = [(p, value_at(c, a, start), slope_along(a, direction)) for p, c, a in plan.pays]
        return q + end, pays

    def departure(self, expected: Sequence[bool], horizon: float = INF) -> float:
        """The first step at which the overspending powers are not `expected`."""
        plans, start, direction = self.plans, self.start, self.direction
        plans.at(start)
        n = len(expected)
        a = [value_at(c, co, start) for c, co in zip(plans.const, plans.coef)]
        s = [slope_along(co, direction) for co in plans.coef]  # spending: a[p] + s[p]·q
        pays: dict[int, list[Pay]] = {}
        heap: list[tuple[float, int]] = []
        for u in plans.units:
            end, pays[u] = self._on_line(plans.plan[u], 0)
            if end != INF:
                heap.append((end, u))
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
                _, u = heapq.heappop(heap)
                for p, a0, s0 in pays[u]:
                    a[p] -= a0
                    s[p] -= s0
                # (on a line, plans mostly end where an offer's piece does, and no plan made
                # before on this line holds past that)
                plan = self._plan(u, q)
                plans.replace(u, plan)
                end, pays[u] = self._on_line(plan, q)
                for p, a0, s0 in pays[u]:
                    a[p] += a0
                    s[p] += s0
                if end != INF:
                    heapq.heappush(heap, (end, u))
