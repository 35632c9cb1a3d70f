"""How far the rounds can go along one line of reduction states before anything changes.

`Line(book, …, start, direction).departure(expected, horizon)` answers: the first step
q >= 0 at which the set of overspending powers at start + q·direction is not `expected`
(`horizon` if none comes before it). It follows the line from event to event:

- each unit has a *plan*: from the step q0 at which it was made, its decision and what
  each power pays for it, exactly, as linear functions of the step, until the plan's end
  (`_plan`: `decide` run on `linear.Lin` amounts, the end being the first step at which
  an offer on the unit leaves its linear piece or one of `decide`'s comparisons would
  answer differently);
- each power's spending is then the sum of linear functions, itself linear, and the
  step at which it crosses the power's limit is a division;
- the next event is the earliest plan end or limit crossing: at a plan end the unit is
  planned again, at a crossing the answer is found.

The cost depends on the number of offers and of decisions that change on the way, not on
the number of steps.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from typing import cast

from ..book import Book
from ..decide import Amounts, decide
from ..schedule import INF, piece
from .linear import Lin, Window, _first_gt0, _first_le0

Pay = tuple[int, int, int]  # (power, AgP at step 0 of the line, AgP per step)


class Line:
    """The auction along start + q·direction (q = 0, 1, …)."""

    def __init__(
        self,
        book: Book,
        limits: Sequence[int],
        ebayola: bool,
        public_totals: bool,
        start: Sequence[int],
        direction: Sequence[int],
    ):
        self.book = book
        self.limits = limits
        self.ebayola = ebayola
        self.public = public_totals
        self.start = start
        self.direction = direction

    def _plan(self, u: int, q: int) -> tuple[float, list[Pay]]:
        """Unit u from step q on: until when its plan holds, and its payments."""
        book, start, direction = self.book, self.start, self.direction
        ub = book.units[u]
        rows, flat = book.rows, book.flat
        win = Window()
        amount: dict[int, Lin | int] = dict.fromkeys(ub.entries, 0)
        keep = self.ebayola and not self.public  # only then does `decide` read plateaus
        plateau: dict[int, int] = dict.fromkeys(ub.entries, 0) if keep else {}
        slab: float = INF
        for e in ub.paying:
            a, pl, p = rows[e]
            d = direction[p]
            k = start[p] + q * d
            v, s, kend = piece(a, pl, flat[p], k)
            if keep and k <= flat[p]:
                plateau[e] = pl
            if d == 0 or s == 0:
                amount[e] = v
            else:
                amount[e] = Lin(v, s * d, win)
            if d and kend != INF:
                steps = -((k - int(kend)) // d)  # ceil((kend - k) / d)
                if steps < slab:
                    slab = steps
        # `decide` computes on Lins as on ints (see linear.py): its payments are Lins or ints
        decision = decide(ub, cast(Amounts, amount), plateau, self.ebayola, self.public)
        pays: list[Pay] = []
        for p, paid in decision.payments:
            x = cast("Lin | int", paid)
            if type(x) is Lin:
                pays.append((p, x.v - x.s * q, x.s))
            elif x:
                pays.append((p, x, 0))
        return q + min(slab, win.end), pays

    def departure(self, expected: Sequence[bool], horizon: float = INF) -> float:
        """The first step at which the overspending powers are not `expected`."""
        n = len(self.book.powers)
        a, s = [0] * n, [0] * n  # spending: a[p] + s[p]·q
        pays: list[list[Pay]] = []
        heap: list[tuple[float, int]] = []
        for u, ub in enumerate(self.book.units):
            if not ub.paying:
                pays.append([])
                continue
            end, ps = self._plan(u, 0)
            pays.append(ps)
            for p, a0, s0 in ps:
                a[p] += a0
                s[p] += s0
            if end != INF:
                heap.append((end, u))
        heapq.heapify(heap)
        limits = self.limits
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
                end, ps = self._plan(u, q)
                pays[u] = ps
                for p, a0, s0 in ps:
                    a[p] += a0
                    s[p] += s0
                if end != INF:
                    heapq.heappush(heap, (end, u))
