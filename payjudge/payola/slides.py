"""Unit plans while some powers follow a repeating pattern of rounds (see `tugs.py`).

In a tug of war over a unit (whoever holds it overspends, is reduced and loses it, then
wins it back when the others' offers have fallen) the powers involved do not move along
a straight line, but along a known pattern: with the schedule's period L, a power's
rounds after s steps of it are kb + (s // L) * cum[L] + cum[s % L], cum[j] being the
rounds it gains in the first j steps of a period. So from any step t on, at the steps
t + q*L + j, every power's rounds, every candidate's total and every power's spending
for given decisions are, for each j < L, linear in q (`classes`): `SlidingPlanner`
plans every unit along such a pattern exactly, class by class — when the end of an
offer's piece comes (`_first_step`), and how long a lead keeps its sign (`first_fail`).
With no pattern (L = 1) every plan is `kinetic.Planner`'s.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence

from .book import Book
from .kinetic import Pays, Planner
from .lines import Grad
from .schedule import INF


class SlidingPlanner(Planner):
    """`kinetic.Planner`, with powers that may follow a repeating pattern of rounds."""

    def __init__(
        self, book: Book, ebayola: bool, public_totals: bool, k: Sequence[int], t: int, rate: Sequence[int]
    ):
        super().__init__(book, ebayola, public_totals, k, t, rate)
        self.L = 1  # the pattern's period (1: none)
        self.cum: dict[int, list[int]] = {}  # each patterned power's rounds in a period
        self._cls_t: float = -1
        self._skipped = False  # _lead_window went no further than the bound
        self.kkT: list[list[int]] = []
        self.inc: list[int] = []

    # -- the line -----------------------------------------------------------------------
    def rounds(self, p: int, t: int) -> int:
        c = self.cum.get(p)
        if c is None:
            return self.kb[p] + (t - self.tb[p]) * self.rate[p]
        s = t - self.tb[p]
        L = self.L
        return self.kb[p] + (s // L) * c[L] + c[s % L]

    def rounds_all(self, t: int) -> list[int]:
        if not self.cum:
            kb, tb, rate = self.kb, self.tb, self.rate
            return [kb[q] + (t - tb[q]) * rate[q] for q in range(len(rate))]
        return [self.rounds(q, t) for q in range(len(self.rate))]

    def set_rate(self, p: int, t: int, rate: int) -> None:
        self.kb[p] = self.rounds(p, t)
        self.tb[p] = t
        self.rate[p] = rate
        if self.cum.pop(p, None) is not None and not self.cum:
            self.L = 1
        self._cls_t = -1

    def set_pattern(self, p: int, t: int, period: int, cum: list[int]) -> None:
        """From step t on, p gains cum[j] rounds in the first j steps of each period."""
        assert not self.cum or period == self.L
        self.kb[p] = self.rounds(p, t)
        self.tb[p] = t
        self.rate[p] = 0  # (not a straight line: see cum)
        self.L = period
        self.cum[p] = cum
        self._cls_t = -1

    def _first_step(self, groups: Iterable[tuple[int, tuple[int, ...]]], t0: int) -> float:
        if not self.cum:
            return super()._first_step(groups, t0)
        rate, kb, tb, kend, vol, cums = self.rate, self.kb, self.tb, self.kend, self.volatile, self.cum
        L = self.L
        end = INF
        for p, es in groups:
            c = cums.get(p)
            r = rate[p]
            if c is None and not r and not vol[p]:
                continue
            first = min(map(kend.__getitem__, es))
            if first == INF:
                continue
            if vol[p]:
                # planned for any pattern of its rounds: as if it moved from t0 on
                x = t0 + first - self.rounds(p, t0)
            elif c is None:
                x = tb[p] - (-(first - kb[p]) // r)  # first step with k_p >= first
            elif c[L]:
                # the first s (steps since tb) with (s // L)*c[L] + c[s % L] >= first - kb
                need = first - kb[p]
                q = (need - 1) // c[L]
                x = tb[p] + q * L + bisect_left(c, need - q * c[L])
            else:
                continue
            if x < end:
                end = x
        return end

    def _outcome(self, ui: int, t0: int) -> tuple[float, Pays]:
        cums = self.cum
        if not cums or not any(p in cums for p in self.book.units[ui].paying_of):
            return super()._outcome(ui, t0)  # every power here moves in a straight line
        return self._outcome_sliding(ui, t0)

    # -- classes ---------------------------------------------------------------------------
    def classes(self, t: int) -> int:
        """L, and from step t on: `kkT` (per power, its rounds at t + j less those at t, for
        each j < L) and `inc` (the rounds each gains every L steps)."""
        if self._cls_t != t:
            self._cls_t = t
            L = self.L
            kkT, inc = [], []
            for p, r in enumerate(self.rate):
                c = self.cum.get(p)
                if c is None:
                    kkT.append([r * j for j in range(L)])
                    inc.append(r * L)
                else:
                    f = (t - self.tb[p]) % L
                    b = c[f]
                    kkT.append([c[f + j] - b for j in range(L - f)] + [c[L] + c[j] - b for j in range(f)])
                    inc.append(c[L])
            self.kkT, self.inc = kkT, inc
        return self.L

    def first_fail(self, g: Grad, f0: int, strict: bool, t0: int) -> float:
        """The first d >= 1 at which f0 + g.(k(t0 + d) - k(t0)) stops being > 0 (strict) or
        >= 0 (INF: never), class by class; a volatile power counts as moving one round
        every step where that hurts and none where it helps."""
        vol, cums = self.volatile, self.cum
        if not any(q in cums for q in g):
            rate = self.rate
            slope = sum(x * rate[q] if not vol[q] else min(x, 0) for q, x in g.items())
            return first_q(f0, slope, strict, 1)
        L = self.classes(t0)
        inc, kkT = self.inc, self.kkT
        drift = worst = 0
        hs = [f0] * L
        for q, x in g.items():
            if vol[q]:
                if x < 0:
                    worst += x
            elif x:
                drift += x * inc[q]
                hs = [h + x * d for h, d in zip(hs, kkT[q])]
        if worst:
            hs = [h + worst * j for j, h in enumerate(hs)]
            drift += worst * L
        best = first_q(hs[0], drift, strict, 1) * L
        for j in range(1, L):
            h = hs[j]
            if (h <= 0) if strict else (h < 0):
                return j if j < best else best
            if drift < 0:
                q = -(h // drift) if strict else h // -drift + 1
                if q * L + j < best:
                    best = q * L + j
        return best

    def _moves(self, g: Grad) -> bool:
        """Can a linear function with gradient g change from one step to the next?"""
        vol, rate, cums = self.volatile, self.rate, self.cum
        s = 0
        for q, x in g.items():
            if x:
                if vol[q] or q in cums:
                    return True
                s += x * rate[q]
        return s != 0

    # -- plans ----------------------------------------------------------------------------
    def _lead_window(self, ui: int, t0: int, end: float, hold: float, z: int, i: int) -> float:
        """How long candidate z keeps beating candidate i, as in `_outcome` (a window past
        `hold` is not worked out exactly)."""
        T, G = self.T[ui], self.G[ui]
        d0 = T[z] - T[i]
        strict = i < z
        # a loser's total never rises: z's own fall bounds the lead, to any step
        bound = t0 + self.first_fail(G[z], d0, strict, t0)
        self._skipped = bound >= hold
        if self._skipped:
            return bound
        g = dict(G[z])
        for q, x in G[i].items():
            g[q] = g.get(q, 0) - x
        window = t0 + self.first_fail(g, d0, strict, t0)
        if window < INF and bound >= min(window, end):
            return bound
        first = self._first_step(self.book.units[ui].candidates[i].paying_by_power, t0)
        return max(min(window, first), bound)

    def _outcome_sliding(self, ui: int, t0: int) -> tuple[float, Pays]:
        """`_outcome` along a pattern (never under eBayola)."""
        assert not self.ebayola
        ub = self.book.units[ui]
        cands = ub.candidates
        T, G = self.T[ui], self.G[ui]
        top = max(T)
        w = T.index(top)
        if ub.dummy:
            end = self._first_step(ub.paying_of.items(), t0)
            gw = G[w]
            for i in range(len(T)):
                if i == w:
                    continue
                d0 = top - T[i]
                g = dict(gw)
                for q, x in G[i].items():
                    g[q] = g.get(q, 0) - x
                if d0 > 0:
                    window = t0 + self.first_fail(g, d0, True, t0)
                else:
                    window = t0 + 1 if self._moves(g) else INF
                if window < end:
                    end = window
            self.hold[ui] = -INF
        else:
            end = self._first_step(cands[w].paying_by_power, t0)
            hold = INF
            # the closest losers first: the bound on the lead only grows from one to the next
            for i in sorted(range(len(T)), key=T.__getitem__, reverse=True):
                if i != w:
                    window = self._lead_window(ui, t0, end, hold, w, i)
                    if window < hold:
                        hold = window
                    elif self._skipped:
                        break
            self.hold[ui] = hold
            if hold < end:
                end = hold
        chosen = w
        if ub.dummy:
            payers = cands[w].payers
            if any(T[i] == top and cands[i].payers != payers for i in range(len(cands))):
                chosen = ub.hold
        self.end[ui] = end
        self.chosen[ui] = chosen
        return end, self._pays(ui, chosen)

    def plan_group(self, ui: int, t0: int, members: tuple[int, ...]) -> float:
        """The end of the plan of a unit whose decision goes back and forth among `members`
        (`tugs.Wobble`): while no offer on them leaves its piece and each keeps beating
        every other candidate. Which of them wins is the caller's business."""
        self.update(ui, t0)
        cands = self.book.units[ui].candidates
        T = self.T[ui]
        end = min(self._first_step(cands[z].paying_by_power, t0) for z in members)
        for z in members:
            for i in range(len(T)):
                if i not in members:
                    window = self._lead_window(ui, t0, end, end, z, i)
                    if window < end:
                        end = window
        self.end[ui] = end
        self.hold[ui] = -INF
        self.chosen[ui] = -3  # no one decision: see the tug of war
        return end


def first_q(h: int, drift: int, strict: bool, q0: int) -> float:
    """The first q >= q0 at which h + q*drift stops being > 0 (strict) or >= 0 (INF: never)."""
    v = h + q0 * drift
    if (v <= 0) if strict else (v < 0):
        return q0
    if drift >= 0:
        return INF
    q = -(h // drift) if strict else h // -drift + 1
    return q if q > q0 else q0
