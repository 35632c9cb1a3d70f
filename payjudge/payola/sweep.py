"""A sweep along a line of reduction states (see `kinetic.py`): every unit's plan in a heap,
every power's spending as a value plus a gradient (AgP per round of each power), so the
next step at which anything can change — a plan runs out, or a power's spending crosses
its limit — is a division away.

Tugs of war over units (a repeating pattern of rounds, and the units that go back and
forth with it) are in `tugs.py`.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence

from .book import Book
from .kinetic import Pays
from .lines import Grad
from .slides import SlidingPlanner
from .tugs import Schedule, Tugs, Wobble


class Sweep(Tugs):
    """Every unit's plan and every power's spending along the line, from step `t` on."""

    def __init__(
        self,
        book: Book,
        limits: Sequence[int],
        ebayola: bool,
        public_totals: bool,
        k: Sequence[int],
        t: int,
        rate: Sequence[int],
    ):
        self.book = book
        self.limits = limits
        self.n = n = len(book.powers)
        self.planner = SlidingPlanner(book, ebayola, public_totals, k, t, rate)
        self.ebayola = ebayola
        nunits = len(book.units)
        # p's spending: base[p] + sum of coef[p][q] * (rounds of q)
        self.base = [0] * n
        self.coef: list[dict[int, int]] = [{} for _ in range(n)]
        self.plans: list[list[tuple[int, int, Grad]]] = [[] for _ in range(nunits)]
        self.version = [0] * nunits
        self.heap: list[tuple[float, int, int]] = []
        self.choice = [-2] * nunits  # each unit's decision, as last planned
        self.flips: list[tuple[int, int, int]] = []  # (unit, old, new) since last taken
        self.schedule: Schedule | None = None  # the pattern followed, if any
        self.wobbles: dict[int, Wobble] = {}  # by unit
        self.pending: set[int] = set()  # units to plan again (`flush`)
        self.dirty: set[int] = set(range(n))  # powers whose spending changed (`tugs.py`)
        self.until: list[float] = [0] * n  # and for the others, their windows
        for ui in range(nunits):
            self._install(ui, *self.planner.plan(ui, t))

    def _install(self, ui: int, end: float, pays: Pays) -> None:
        base, coef, dirty = self.base, self.coef, self.dirty
        for p, a, g in self.plans[ui]:
            dirty.add(p)
            base[p] -= a
            if g:
                cp = coef[p]
                for q, x in g.items():
                    cp[q] -= x
        ks = self.planner.k0[ui]
        lines = []
        for p, v, g in pays:
            dirty.add(p)
            if g:
                cp = coef[p]
                for q, x in g.items():
                    v -= x * ks[q]
                    cp[q] = cp.get(q, 0) + x
            base[p] += v
            lines.append((p, v, g))
        self.plans[ui] = lines
        new = self.planner.chosen[ui]
        if new != self.choice[ui]:
            if new >= -1 and self.choice[ui] >= -1:
                self.flips.append((ui, self.choice[ui], new))
            self.choice[ui] = new
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

    def next_step(self, t: int, over: Sequence[bool]) -> float:
        """The first step after t at which a plan runs out or `over` stops being true."""
        assert not self.pending
        nxt = self.heap[0][0]
        if nxt <= t:
            raise AssertionError(f"a plan ends at step {nxt}, not after {t}")
        if self.schedule is not None:
            return self._next_sliding(t, nxt)
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
                if ui in self.wobbles:
                    self._rewobble(ui, t)
                else:
                    self._install(ui, *self.planner.advance(ui, t))

    def _replan(self, units: Iterable[int], t: int) -> None:
        """Plan these units again at step t — at the next `flush`: their plans' payments stay
        exact at t meanwhile, only their ends may be too far."""
        self.pending.update(units)

    def flush(self, t: int) -> None:
        """Plan again, at step t, every unit `_replan` was given."""
        for ui in sorted(self.pending):
            if ui in self.wobbles:
                self._rewobble(ui, t)
            else:
                self._install(ui, *self.planner.refresh(ui, t))
        self.pending.clear()

    def _rewobble(self, ui: int, t: int) -> None:
        """A wobbling unit's plan again at step t: as a wobble if it still is one."""
        wb = self.wobbles.pop(ui)
        for ps in wb.pays:
            self.dirty.update(ps)
        if not self.wobble(ui, wb.members, t):
            self._install(ui, *self.planner.refresh(ui, t))

    def set_rates(self, changes: dict[int, int], t: int) -> None:
        """Change some powers' rates at step t, and the plans of the units where it matters."""
        planner = self.planner
        units = range(len(self.plans))
        stale: set[int] = set()
        for p, rate in changes.items():
            assert p not in planner.cum
            joining = rate > planner.rate[p]
            if not planner.volatile[p]:
                stale.update(ui for ui in units if planner.affected(ui, p, t, joining))
            planner.set_rate(p, t, rate)  # a volatile power's plans hold for any rate
        self._replan(stale, t)

    def take(self) -> list[tuple[int, int, int]]:
        """The flips (unit, old decision, new) since the last call."""
        flips = self.flips
        self.flips = []
        return flips

    def set_volatile(self, p: int, volatile: bool, t: int) -> None:
        """Plan the units where p has offers for any (or only for its actual) pattern of rounds."""
        planner = self.planner
        if planner.volatile[p] == volatile:
            return
        planner.volatile[p] = volatile
        self._replan([ui for ui in range(len(self.plans)) if p in self.book.units[ui].paying_of], t)

    def rounds(self, t: int) -> list[int]:
        return [self.planner.rounds(p, t) for p in range(self.n)]
