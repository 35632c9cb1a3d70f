"""Following the auction along a line of reduction states, event to event.

Power p has had kb[p] rounds at step tb[p] and gains rate[p] rounds per step from
there. Every offer's amount is piecewise linear in its power's rounds k_p
(`schedule.piece`), so every candidate's total is, within pieces, linear in the vector
of rounds: a value and a gradient (AgP per round of each power).

`Planner` plans one unit at a time: the longest run of steps in which nothing about the
unit can change — no offer on it leaves its piece, the winner keeps its sign against
every other candidate (so the winner and any tie stay), and under eBayola the runner-up
and the rebate split stay — and what each power pays for it, as a value and a gradient.
A power may be *volatile* (it keeps starting and stopping to overspend): a plan then
holds for any pattern of its rounds (rate 0 or 1 per step), so its switches change no
plan; the other powers' rates are taken as they are, and a change of one of them
re-plans the units where that power has an offer that moves.

`sweep.Sweep` keeps every plan in a heap and follows the powers' spending.
"""

from __future__ import annotations

from typing import Sequence

from .book import Book
from .schedule import INF, piece

Grad = dict[int, int]                  # AgP per round, by power (only the nonzero ones)
Pays = list[tuple[int, int, Grad]]     # (payer, AgP at the plan's step, gradient)


def first_change(d0: int, ds: int) -> float:
    """The first step Δ >= 1 at which d0 + ds*Δ no longer has the sign of d0."""
    if d0 > 0:
        return -(-d0 // -ds) if ds < 0 else INF
    if d0 < 0:
        return -(d0 // ds) if ds > 0 else INF
    return 1 if ds else INF


def _sub(a: Grad, b: Grad) -> Grad:
    out = dict(a)
    for q, g in b.items():
        out[q] = out.get(q, 0) - g
    return out


class Planner:
    """Unit plans (see the module docstring)."""

    def __init__(self, book: Book, ebayola: bool, public_totals: bool,
                 k: Sequence[int], t: int, rate: Sequence[int]):
        self.book = book
        self.ebayola = ebayola
        self.public = public_totals
        es = book.entries
        self.A = [e.amount for e in es]
        self.PL = [e.plateau for e in es]
        self.EP = [e.power for e in es]
        # each entry as of its power's rounds kref: value, change per round, piece end, plateau
        self.amt = [0] * len(es)
        self.sig = [0] * len(es)
        self.kref = [0] * len(es)
        self.kend: list[float] = [INF] * len(es)
        self.plat = [0] * len(es)
        nunits = len(book.units)
        self.t0 = [0] * nunits                          # step of each unit's last plan
        self.k0: list[list[int]] = [[] for _ in range(nunits)]   # everyone's rounds then
        self.T: list[list[int]] = [[] for _ in range(nunits)]    # candidate totals then
        self.G: list[list[Grad]] = [[] for _ in range(nunits)]   # and their gradients
        self.end: list[float] = [INF] * nunits
        n = len(book.powers)
        self.kb = list(k)
        self.tb = [t] * n
        self.rate = list(rate)
        self.volatile = [False] * n

    # -- the line -----------------------------------------------------------------------
    def rounds(self, p: int, t: int) -> int:
        return self.kb[p] + (t - self.tb[p]) * self.rate[p]

    def set_rate(self, p: int, t: int, rate: int) -> None:
        self.kb[p] = self.rounds(p, t)
        self.tb[p] = t
        self.rate[p] = rate

    def _step_of(self, p: int, kend: float) -> float:
        """The first step at which p's rounds reach kend (INF if p does not move)."""
        r = self.rate[p]
        if not r or kend == INF:
            return INF
        return self.tb[p] - (-(kend - self.kb[p]) // r)

    def value(self, e: int, k: int) -> int:
        return self.amt[e] + self.sig[e] * (k - self.kref[e])

    def affected(self, ui: int, p: int, t: int, joining: bool) -> bool:
        """Does a change of p's rate at step t matter to the unit's plan? Only if p has an
        offer there on a sloping piece (or, when p starts moving, one above 0 AgP)."""
        es = self.book.units[ui].paying_of.get(p)
        if not es:
            return False
        sig = self.sig
        if joining:
            k = self.rounds(p, t)
            return any(sig[e] or self.value(e, k) > 0 for e in es)
        return any(sig[e] for e in es)

    # -- planning -----------------------------------------------------------------------
    def _work_out(self, e: int, k: int) -> None:
        v, s, until = piece(self.A[e], self.PL[e], self.book.flat[self.EP[e]], k)
        self.amt[e] = v
        self.sig[e] = s
        self.kref[e] = k
        self.kend[e] = until
        self.plat[e] = self.PL[e] if k <= self.book.flat[self.EP[e]] else 0

    def plan(self, ui: int, t0: int) -> tuple[float, Pays]:
        """(end, pays): exact for steps t0 <= t < end."""
        ub = self.book.units[ui]
        n = len(self.rate)
        ks = [self.rounds(q, t0) for q in range(n)]
        for e in ub.paying:
            self._work_out(e, ks[self.EP[e]])
        amt, sig = self.amt, self.sig
        T, G = [], []
        for c in ub.candidates:
            total = 0
            grad: Grad = {}
            for q, es in c.paying_by_power:
                v = s = 0
                for e in es:
                    v += amt[e]
                    s += sig[e]
                total += v
                if s:
                    grad[q] = s
            T.append(total)
            G.append(grad)
        self.t0[ui], self.k0[ui], self.T[ui], self.G[ui] = t0, ks, T, G
        return self._outcome(ui, t0)

    def refresh(self, ui: int, t: int, entries: bool = True) -> tuple[float, Pays]:
        """The plan again at step t (which the last plan reached): the totals move along
        their gradients, and the entries whose piece ended are worked out again."""
        ub = self.book.units[ui]
        kb, tb, rate = self.kb, self.tb, self.rate
        ks = [kb[q] + (t - tb[q]) * rate[q] for q in range(len(rate))]
        old = self.k0[ui]
        dk = {q: ks[q] - old[q] for q in range(len(ks)) if ks[q] != old[q]}
        T, G = self.T[ui], self.G[ui]
        if dk:
            for i, grad in enumerate(G):
                for q, g in grad.items():
                    d = dk.get(q)
                    if d:
                        T[i] += g * d
        if entries:
            kend, EP = self.kend, self.EP
            cands_of = self.book.candidates_of
            for e in ub.paying:
                p = EP[e]
                if kend[e] <= ks[p]:
                    # the totals were carried along the old piece: correct them
                    old_v, old_s = self.value(e, ks[p]), self.sig[e]
                    self._work_out(e, ks[p])
                    dv, ds = self.amt[e] - old_v, self.sig[e] - old_s
                    for i in cands_of[e]:
                        T[i] += dv
                        if ds:
                            g = G[i].get(p, 0) + ds
                            if g:
                                G[i][p] = g
                            else:
                                G[i].pop(p, None)
        self.t0[ui], self.k0[ui] = t, ks
        return self._outcome(ui, t)

    def join(self, ui: int, p: int, t: int) -> float:
        """A volatile power starts moving: the unit's plan holds, but p's offers on it now
        reach the ends of their pieces. The plan's new end."""
        end = self.end[ui]
        for e in self.book.units[ui].paying_of.get(p, ()):
            end = min(end, self._step_of(p, self.kend[e]))
        self.end[ui] = end
        return end

    def _slopes(self, grad: Grad) -> tuple[int, int, int]:
        """(exact change per step, and the least and most the volatile powers add)."""
        rate, vol = self.rate, self.volatile
        s = lo = hi = 0
        for q, g in grad.items():
            if vol[q]:
                if g < 0:
                    lo += g
                else:
                    hi += g
            else:
                s += g * rate[q]
        return s, lo, hi

    def _keeps_sign(self, f0: int, grad: Grad) -> float:
        """Steps for which f0 + grad·Δk keeps the sign of f0, whatever the volatile do."""
        s, lo, hi = self._slopes(grad)
        if f0 > 0:
            return first_change(f0, s + lo)
        if f0 < 0:
            return first_change(f0, s + hi)
        return 1 if (s or lo or hi) else INF

    def _outcome(self, ui: int, t0: int) -> tuple[float, Pays]:
        """Decide the unit from its totals at t0; how long that holds; who pays what."""
        ub = self.book.units[ui]
        rate, vol, kb, tb = self.rate, self.volatile, self.kb, self.tb
        kend = self.kend
        end = INF
        for p, es in ub.paying_of.items():
            r = rate[p]
            if r:
                first = min(map(kend.__getitem__, es))
                if first != INF:
                    x = tb[p] - (-(first - kb[p]) // r)      # first step with k_p >= first
                    if x < end:
                        end = x
        cands = ub.candidates
        T, G = self.T[ui], self.G[ui]
        top = max(T)
        w = T.index(top)
        tw, gw = T[w], G[w]
        moving = [q for q in range(len(rate)) if vol[q]]
        S = []
        for g in G:
            s = 0
            for q, x in g.items():
                if not vol[q]:
                    s += x * rate[q]
            S.append(s)
        sw = S[w]
        for i in range(len(T)):
            if i == w:
                continue
            # the winner's lead over candidate i (never negative) must keep its sign
            d0, ds = tw - T[i], sw - S[i]
            lo = hi = 0
            for q in moving:
                x = gw.get(q, 0) - G[i].get(q, 0)
                if x < 0:
                    lo += x
                else:
                    hi += x
            if d0 > 0:
                ds += lo
                if ds < 0:
                    x = t0 - (d0 // ds)                # t0 + ceil(d0 / -ds)
                    if x < end:
                        end = x
            elif (ds or lo or hi) and t0 + 1 < end:
                end = t0 + 1
        chosen = w
        if ub.dummy:
            payers = cands[w].payers
            if any(T[i] == top and cands[i].payers != payers for i in range(len(cands))):
                chosen = ub.hold
        pays: Pays = []
        if chosen >= 0:
            ks = self.k0[ui]
            amt, sig, kref = self.amt, self.sig, self.kref
            for p, es in cands[chosen].paying_by_power:
                k = ks[p]
                v = s = 0
                for e in es:
                    se = sig[e]
                    v += amt[e] + se * (k - kref[e])
                    s += se
                pays.append((p, v, {p: s} if s else {}))
        if chosen == w and self.ebayola:
            end, pays = self._ebayola(ui, t0, end, w, pays, S, moving)
        self.end[ui] = end
        return end, pays

    def _ebayola(self, ui: int, t0: int, end: float, w: int, pays: Pays, S: list[int],
                 moving: list[int]) -> tuple[float, Pays]:
        """Rule 6.4: the winner costs the runner-up's total + 1; the saving is split among the
        payers in the owner's list order, down to their plateaus. (S: each candidate's exact
        change per step; moving: the volatile powers.)"""
        cands = self.book.units[ui].candidates
        T, G = self.T[ui], self.G[ui]
        if len(T) > 1:
            sec = max((i for i in range(len(T)) if i != w), key=lambda i: (T[i], S[i]))
            t2, g2, s2 = T[sec], G[sec], S[sec]
            for i in range(len(T)):
                if i != w and i != sec:
                    # the runner-up must stay the highest of the others
                    ds = s2 - S[i]
                    for q in moving:
                        x = g2.get(q, 0) - G[i].get(q, 0)
                        if x < 0:
                            ds += x
                    if ds < 0:
                        x = t0 + (t2 - T[i]) // -ds + 1
                        if x < end:
                            end = x
        else:
            t2, g2 = 0, {}
        over0, over_g = T[w] - 1 - t2, _sub(G[w], g2)
        d = self._keeps_sign(over0, over_g)
        if t0 + d < end:
            end = t0 + d
        if over0 <= 0:
            return end, pays
        out: Pays = []
        given0, given_g = 0, {}
        for (p, v, g), (_, es) in zip(pays, cands[w].paying_by_power):
            floor = 0 if self.public else sum(self.plat[e] for e in es)
            cap0, cap_g = v - floor, g
            left0, left_g = over0 - given0, _sub(over_g, given_g)
            for f0, fg in ((left0, left_g), (left0 - cap0, _sub(left_g, cap_g))):
                d = self._keeps_sign(f0, fg)
                if t0 + d < end:
                    end = t0 + d
            if left0 <= 0:
                out.append((p, v, g))
            elif left0 >= cap0:
                out.append((p, v - cap0, _sub(g, cap_g)))
            else:
                out.append((p, v - left0, _sub(g, left_g)))
            given0 += cap0
            given_g = _sub(given_g, {q: -x for q, x in cap_g.items()})
        return end, out
