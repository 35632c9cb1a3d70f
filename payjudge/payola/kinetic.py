"""Following the auction along a line of reduction states, event to event.

Power p has had kb[p] rounds at step tb[p] and gains rate[p] rounds per step from
there. Every offer's amount is piecewise linear in its power's rounds k_p
(`schedule.piece`), so every candidate's total is, within pieces, linear in the vector
of rounds: a value and a gradient (AgP per round of each power).

`Planner` plans one unit at a time: the longest run of steps in which nothing about the
unit can change — no offer on the winner leaves its piece, the winner keeps its sign
against every other candidate (so the winner and any tie stay), and under eBayola the
runner-up and the rebate split stay — and what each power pays for it, as a value and a
gradient. A losing candidate's total never rises, so the winner's lead over it shrinks
no faster than the winner's own total falls: when that bound is long enough, the offers
on the loser may leave their pieces unseen (they are worked out again at the unit's next
plan); otherwise the loser's slopes hold until its next offer leaves its piece. Under
eBayola, which prices on the runner-up, and on dummies' units every piece counts.
A power may be *volatile* (it keeps starting and stopping to overspend): a plan then
holds for any pattern of its rounds (rate 0 or 1 per step: its offers are taken to
reach the ends of their pieces as if it moved all the time), so its switches change no
plan; the other powers' rates are taken as they are, and a change of one of them
re-plans the units where that power has an offer that moves.

`sweep.Sweep` keeps every plan in a heap and follows the powers' spending.
"""

from __future__ import annotations

from typing import Sequence

from .book import Book
from .lines import Grad, keeps_ge0, keeps_le0, steps_positive, sub_grad
from .schedule import INF, piece

Pays = list[tuple[int, int, Grad]]     # (payer, AgP at the plan's step, gradient)


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
        kb, tb, rate = self.kb, self.tb, self.rate
        ks = [kb[q] + (t0 - tb[q]) * rate[q] for q in range(len(rate))]
        A, PL, EP, flat = self.A, self.PL, self.EP, self.book.flat
        amt, sig, kref, kend, plat = self.amt, self.sig, self.kref, self.kend, self.plat
        for e in ub.paying:
            p = EP[e]
            k, K, a, pl = ks[p], flat[p], A[e], PL[e]
            kref[e] = k
            # schedule.piece, inlined: a sweep starts with every entry of the book
            if k <= K:
                plat[e] = pl
                if k < a - pl:
                    amt[e], sig[e], kend[e] = a - k, -1, a - pl + 1
                elif pl:
                    amt[e], sig[e], kend[e] = pl, 0, K + 1
                else:
                    amt[e], sig[e], kend[e] = 0, 0, INF
            else:
                plat[e] = 0
                d = k - K
                if d < pl:
                    amt[e], sig[e], kend[e] = pl - d, -1, K + pl + 1
                else:
                    amt[e], sig[e], kend[e] = 0, 0, INF
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

    def refresh(self, ui: int, t: int) -> tuple[float, Pays]:
        """The plan again at step t (which the last plan reached, or a rate changed at): the
        totals move along their gradients, and every entry whose piece has ended — on a
        losing candidate that may have been a while ago — is worked out again."""
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

    def _first_step(self, groups, t0: int) -> float:
        """The first step at which one of these entries (by power) may leave its piece: a
        volatile power is taken to move from t0 on, whether it does or not."""
        rate, kb, tb, kend, vol = self.rate, self.kb, self.tb, self.kend, self.volatile
        end = INF
        for p, es in groups:
            r = rate[p]
            if r or vol[p]:
                first = min(map(kend.__getitem__, es))
                if first != INF:
                    if vol[p]:
                        x = t0 + first - (kb[p] + (t0 - tb[p]) * r)
                    else:
                        x = tb[p] - (-(first - kb[p]) // r)    # first step with k_p >= first
                    if x < end:
                        end = x
        return end

    def _outcome(self, ui: int, t0: int) -> tuple[float, Pays]:
        """Decide the unit from its totals at t0; how long that holds; who pays what."""
        ub = self.book.units[ui]
        rate, vol = self.rate, self.volatile
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
        # Offers on a losing candidate only matter while the winner's own fall could catch
        # up with it (its total never rises), and under eBayola while the runner-up's fall
        # could let it by: their breakpoints need not end the plan. (On dummies' units,
        # where ties decide, every piece counts.)
        exact = ub.dummy
        sec = -1
        if self.ebayola and len(T) > 1:
            sec = max((i for i in range(len(T)) if i != w), key=lambda i: (T[i], S[i]))
        if exact:
            end = self._first_step(ub.paying_of.items(), t0)
        else:
            end = self._first_step(cands[w].paying_by_power, t0)
            if sec >= 0:
                end = min(end, self._first_step(cands[sec].paying_by_power, t0))
            fall = sw + sum(min(gw.get(q, 0), 0) for q in moving)   # the winner's fastest fall
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
            loose = not exact and i != sec
            if exact:
                # a dummy's unit: a tie decides, so every sign must stay as it is
                if d0 > 0:
                    ds += lo
                    window = t0 - (d0 // ds) if ds < 0 else INF      # t0 + ceil(d0 / -ds)
                else:
                    window = t0 + 1 if (ds or lo or hi) else INF
            else:
                # w keeps winning while its lead stays > 0, or >= 0 over a candidate it
                # beats on a tie (one after it in tie-break order)
                window = t0 + steps_positive(d0, ds + lo, strict=i < w)
                if loose and window < INF:
                    # the slopes hold until one of i's offers leaves its piece; the
                    # winner's fall holds until the end of the plan anyway
                    bound = t0 + steps_positive(d0, fall, strict=i < w)
                    if bound >= min(window, end):
                        window = bound
                    else:
                        first = self._first_step(cands[i].paying_by_power, t0)
                        window = max(min(window, first), bound)
                elif loose:
                    window = self._first_step(cands[i].paying_by_power, t0)
            if window < end:
                end = window
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
            end, pays = self._ebayola(ui, t0, end, w, sec, pays, S, moving, exact)
        self.end[ui] = end
        return end, pays

    def _ebayola(self, ui: int, t0: int, end: float, w: int, sec: int, pays: Pays, S: list[int],
                 moving: list[int], exact: bool) -> tuple[float, Pays]:
        """Rule 6.4: the winner costs the runner-up's total + 1; the saving is split among the
        payers in the owner's list order, down to their plateaus. (sec: the runner-up; S: each
        candidate's exact change per step; moving: the volatile powers.)"""
        cands = self.book.units[ui].candidates
        T, G = self.T[ui], self.G[ui]
        if sec >= 0:
            t2, g2, s2 = T[sec], G[sec], S[sec]
            fall = s2 + sum(min(g2.get(q, 0), 0) for q in moving)   # its fastest fall
            for i in range(len(T)):
                if i != w and i != sec:
                    # the runner-up must stay the highest of the others
                    d0, ds = t2 - T[i], s2 - S[i]
                    for q in moving:
                        x = g2.get(q, 0) - G[i].get(q, 0)
                        if x < 0:
                            ds += x
                    window = t0 + d0 // -ds + 1 if ds < 0 else INF
                    if not exact:
                        # as for the winner's lead: the slopes hold until one of i's offers
                        # leaves its piece, the runner-up's fall to the end of the plan
                        bound = t0 + d0 // -fall + 1 if fall < 0 else INF
                        if bound >= min(window, end):
                            window = bound
                        else:
                            window = max(min(window, self._first_step(cands[i].paying_by_power, t0)),
                                         bound)
                    if window < end:
                        end = window
        else:
            t2, g2 = 0, {}
        # the saving, then its split: at a boundary the regimes on either side agree, so
        # take the one that lasts longer
        over0, over_g = T[w] - 1 - t2, sub_grad(G[w], g2)
        s, lo, hi = self._slopes(over_g)
        none, some = keeps_le0(over0, s + hi), keeps_ge0(over0, s + lo)
        if none >= some:
            return min(end, t0 + none), pays
        end = min(end, t0 + some)
        out = []
        given0, given_g = 0, {}
        for (p, v, g), (_, es) in zip(pays, cands[w].paying_by_power):
            floor = 0 if self.public else sum(self.plat[e] for e in es)
            cap0, cap_g = v - floor, g
            left0, left_g = over0 - given0, sub_grad(over_g, given_g)      # still to give back
            beyond0, beyond_g = left0 - cap0, sub_grad(left_g, cap_g)
            s1, lo1, hi1 = self._slopes(left_g)
            s2, lo2, hi2 = self._slopes(beyond_g)
            regimes = (
                (keeps_le0(left0, s1 + hi1), 0),                                    # nothing
                (min(keeps_ge0(left0, s1 + lo1), keeps_le0(beyond0, s2 + hi2)), 1),  # part
                (keeps_ge0(beyond0, s2 + lo2), 2),                                  # all of it
            )
            window, regime = max(regimes)
            end = min(end, t0 + window)
            if regime == 0:
                out.append((p, v, g))
            elif regime == 2:
                out.append((p, v - cap0, sub_grad(g, cap_g)))
            else:
                out.append((p, v - left0, sub_grad(g, left_g)))
            given0 += cap0
            given_g = sub_grad(given_g, {q: -x for q, x in cap_g.items()})
        return end, out
