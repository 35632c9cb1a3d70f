"""A sweep along a line of reduction states (see `kinetic.py`): every unit's plan in a heap,
every power's spending as a value plus a gradient (AgP per round of each power), so the
next step at which anything can change — a plan runs out, or a power's spending crosses
its limit — is a division away.
"""

from __future__ import annotations

import heapq
from typing import Sequence

from .book import Book
from .kinetic import Pays, Planner
from .lines import Grad


class Sweep:
    """Every unit's plan and every power's spending along the line, from step `t` on."""

    def __init__(self, book: Book, limits: Sequence[int], ebayola: bool, public_totals: bool,
                 k: Sequence[int], t: int, rate: Sequence[int]):
        self.book = book
        self.limits = limits
        self.n = n = len(book.powers)
        self.planner = Planner(book, ebayola, public_totals, k, t, rate)
        nunits = len(book.units)
        # p's spending: base[p] + sum of coef[p][q] * (rounds of q)
        self.base = [0] * n
        self.coef: list[dict[int, int]] = [{} for _ in range(n)]
        self.plans: list[list[tuple[int, int, Grad]]] = [[] for _ in range(nunits)]
        self.version = [0] * nunits
        self.heap: list[tuple[float, int, int]] = []
        for ui in range(nunits):
            self._install(ui, *self.planner.plan(ui, t))

    def _install(self, ui: int, end: float, pays: Pays) -> None:
        base, coef = self.base, self.coef
        for p, a, g in self.plans[ui]:
            base[p] -= a
            cp = coef[p]
            for q, x in g.items():
                cp[q] -= x
        ks = self.planner.k0[ui]
        lines = []
        for p, v, g in pays:
            a = v - sum(x * ks[q] for q, x in g.items())
            base[p] += a
            cp = coef[p]
            for q, x in g.items():
                cp[q] = cp.get(q, 0) + x
            lines.append((p, a, g))
        self.plans[ui] = lines
        self.version[ui] += 1
        heapq.heappush(self.heap, (end, self.version[ui], ui))

    def _line(self, p: int, t: int) -> tuple[int, int]:
        """p's spending at step t and its change per step."""
        planner = self.planner
        v, s = self.base[p], 0
        for q, x in self.coef[p].items():
            if x:
                v += x * planner.rounds(q, t)
                s += x * planner.rate[q]
        return v, s

    def membership(self, t: int) -> list[bool]:
        """Who would overspend at step t."""
        return [self._line(p, t)[0] > self.limits[p] for p in range(self.n)]

    def next_step(self, t: int, over: Sequence[bool]) -> float:
        """The first step after t at which a plan runs out or `over` stops being true."""
        nxt = self.heap[0][0]
        if nxt <= t:
            raise AssertionError(f"a plan ends at step {nxt}, not after {t}")
        lim = self.limits
        for p in range(self.n):
            v, s = self._line(p, t)
            if over[p] and s < 0:
                d = -(-(v - lim[p]) // -s)
            elif not over[p] and s > 0:
                d = (lim[p] - v) // s + 1
            else:
                continue
            if t + d < nxt:
                nxt = t + d
        return nxt

    def advance(self, t: int) -> None:
        """Bring up to date every unit whose plan runs out at or before step t."""
        heap, version = self.heap, self.version
        while heap[0][0] <= t:
            _, ver, ui = heapq.heappop(heap)
            if ver == version[ui]:
                self._install(ui, *self.planner.refresh(ui, t))

    def set_rates(self, changes: dict[int, int], t: int) -> None:
        """Change some powers' rates at step t, and the plans of the units where it matters."""
        planner = self.planner
        units = range(len(self.plans))
        for p, rate in changes.items():
            joining = rate > planner.rate[p]
            if planner.volatile[p]:
                planner.set_rate(p, t, rate)      # its plans hold for any rate
                continue
            stale = [ui for ui in units if planner.affected(ui, p, t, joining)]
            planner.set_rate(p, t, rate)
            for ui in stale:
                self._install(ui, *planner.refresh(ui, t))

    def set_volatile(self, p: int, volatile: bool, t: int) -> None:
        """Plan the units where p has offers for any (or only for its actual) pattern of rounds."""
        planner = self.planner
        if planner.volatile[p] == volatile:
            return
        planner.volatile[p] = volatile
        for ui in range(len(self.plans)):
            if p in self.book.units[ui].paying_of:
                self._install(ui, *planner.refresh(ui, t))

    def rounds(self, t: int) -> list[int]:
        return [self.planner.rounds(p, t) for p in range(self.n)]
