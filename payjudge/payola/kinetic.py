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
no faster than the winner's own total falls, and each of the loser's falling offers
falls at most until the end of its piece: the lead is at least a concave broken line
(`losers.loser_window`), and the offers on the loser may leave their pieces unseen (they are
worked out again at the unit's next plan). Under eBayola, which prices on the
runner-up, and on dummies' units every piece counts.

The decision holds until `hold`; the plan ends earlier if an offer on the winner leaves
its piece. When such an offer only stops falling (or falls slower), the winner's leads
are at least what the plan counted on: `advance` then works out only the winner's
pieces and payments, and the decision still holds until `hold`.

The same monotony decides which plans a change of a power's rate touches (`affected`):
if it moves more than the plan counted on, only its offers on the winner matter (the
losers fall faster); if it moves less, only those on the losers (the winner falls
slower). A power may be *volatile* (it keeps starting and stopping to overspend): a plan
then holds for any pattern of its rounds (rate 0 or 1 per step: its offers are taken to
reach the ends of their pieces as if it moved all the time), so its switches change no
plan.

`sweep.Sweep` keeps every plan in a heap and follows the powers' spending;
`slides.SlidingPlanner` plans along a repeating pattern of rounds (`tugs.py`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .book import Book
from .lines import Grad, steps_positive
from .losers import loser_window
from .rebates import ebayola_plan
from .schedule import INF, piece

Pays = list[tuple[int, int, Grad]]  # (payer, AgP at the plan's step, gradient)


class Planner:
    """Unit plans (see the module docstring)."""

    def __init__(
        self, book: Book, ebayola: bool, public_totals: bool, k: Sequence[int], t: int, rate: Sequence[int]
    ):
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
        self.t0 = [0] * nunits  # step of each unit's last plan
        self.k0: list[list[int]] = [[] for _ in range(nunits)]  # everyone's rounds then
        self.T: list[list[int]] = [[] for _ in range(nunits)]  # candidate totals then
        self.G: list[list[Grad]] = [[] for _ in range(nunits)]  # and their gradients
        self.end: list[float] = [INF] * nunits
        self.mk: list[dict[int, float]] = [{} for _ in range(nunits)]
        n = len(book.powers)
        self.kb = list(k)
        self.tb = [t] * n
        self.rate = list(rate)
        self.volatile = [False] * n
        self.chosen = [-2] * nunits  # each unit's decision in its last plan
        self.hold: list[float] = [-INF] * nunits  # and until when its winner keeps winning

    # -- the line -----------------------------------------------------------------------
    def rounds(self, p: int, t: int) -> int:
        return self.kb[p] + (t - self.tb[p]) * self.rate[p]

    def rounds_all(self, t: int) -> list[int]:
        kb, tb, rate = self.kb, self.tb, self.rate
        return [kb[q] + (t - tb[q]) * rate[q] for q in range(len(rate))]

    def set_rate(self, p: int, t: int, rate: int) -> None:
        self.kb[p] = self.rounds(p, t)
        self.tb[p] = t
        self.rate[p] = rate

    def value(self, e: int, k: int) -> int:
        return self.amt[e] + self.sig[e] * (k - self.kref[e])

    def affected(self, ui: int, p: int, t: int, joining: bool) -> bool:
        """Does a change of p's rate at step t matter to the unit's plan? Only if p has an
        offer there on a sloping piece (or, when p starts moving, one above 0 AgP). And as
        a candidate's total never rises with anyone's rounds, when p moves more than the
        plan counted on (`joining`) only its offers on the winner matter (the losers fall
        faster), and when it moves less only those on the losers (the winner falls
        slower): either way the winner's leads are at least what the plan counted on.
        Not so on dummies' units, where ties decide, nor under eBayola."""
        ub = self.book.units[ui]
        es = ub.paying_of.get(p)
        if not es:
            return False
        sig = self.sig
        w = self.chosen[ui]
        if ub.dummy or self.ebayola or w < 0:
            if joining:
                k = self.rounds(p, t)
                return any(sig[e] or self.value(e, k) > 0 for e in es)
            return any(sig[e] for e in es)
        cands_of = self.book.candidates_of
        if joining:
            k = self.rounds(p, t)
            return any((sig[e] or self.value(e, k) > 0) and w in cands_of[e] for e in es)
        return any(sig[e] and w not in cands_of[e] for e in es)

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
        ks = self.rounds_all(t0)
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
        self.mk[ui] = {q: min(map(kend.__getitem__, es)) for q, es in ub.paying_of.items()}
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
        self.update(ui, t)
        return self._outcome(ui, t)

    def advance(self, ui: int, t: int) -> tuple[float, Pays]:
        """The plan again at step t, which the last plan reached. If the winner's offers
        only stopped falling (or fell slower), its leads are at least what the last plan
        counted on, so the decision holds as long as it said (`hold`): only the winner's
        pieces and payments are worked out again."""
        if t < self.hold[ui]:
            w = self.chosen[ui]
            if not self.update(ui, t, w):
                end = min(
                    self.hold[ui], self._first_step(self.book.units[ui].candidates[w].paying_by_power, t)
                )
                self.end[ui] = end
                return end, self._pays(ui, w)
            return self._outcome(ui, t)
        return self.refresh(ui, t)

    def update(self, ui: int, t: int, watch: int = -1) -> bool:
        """Bring the unit's totals and gradients to step t; True if an offer on candidate
        `watch` has started to fall faster."""
        ub = self.book.units[ui]
        ks = self.rounds_all(t)
        old = self.k0[ui]
        T, G = self.T[ui], self.G[ui]
        if ks != old:
            dk = [a - b for a, b in zip(ks, old)]
            for i, grad in enumerate(G):
                if grad:
                    d = 0
                    for q, g in grad.items():
                        d += g * dk[q]
                    T[i] += d
        kend = self.kend
        cands_of = self.book.candidates_of
        steeper = False
        mk = self.mk[ui]  # per power, the first end of a piece of its offers here
        for p, es in ub.paying_of.items():
            k = ks[p]
            if mk[p] > k:
                continue
            for e in es:
                if kend[e] <= k:
                    # the totals were carried along the old piece: correct them
                    old_v, old_s = self.value(e, k), self.sig[e]
                    self._work_out(e, k)
                    dv, ds = self.amt[e] - old_v, self.sig[e] - old_s
                    if (ds < 0 or dv < 0) and watch in cands_of[e]:
                        steeper = True
                    for i in cands_of[e]:
                        T[i] += dv
                        if ds:
                            g = G[i].get(p, 0) + ds
                            if g:
                                G[i][p] = g
                            else:
                                G[i].pop(p, None)
            mk[p] = min(map(kend.__getitem__, es))
        self.t0[ui], self.k0[ui] = t, ks
        return steeper

    def _first_step(self, groups: Iterable[tuple[int, tuple[int, ...]]], t0: int) -> float:
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
                        x = tb[p] - (-(first - kb[p]) // r)  # first step with k_p >= first
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
        # Offers on a losing candidate only matter while the winner's own fall could catch
        # up with it (its total never rises), and under eBayola while the runner-up's fall
        # could let it by: their breakpoints need not end the plan. (On dummies' units,
        # where ties decide, every piece counts.)
        exact = ub.dummy
        if exact or self.ebayola:
            # each candidate's exact change per step
            S = [sum(x * rate[q] for q, x in g.items() if not vol[q]) for g in G]
            sw = S[w]
        else:
            S = []
            sw = sum(x * rate[q] for q, x in gw.items() if not vol[q])
        sec = -1
        if self.ebayola and len(T) > 1:
            sec = max((i for i in range(len(T)) if i != w), key=lambda i: (T[i], S[i]))
        fall = 0  # (read only for a loser's loose bound: never when exact)
        if exact:
            end = self._first_step(ub.paying_of.items(), t0)
        else:
            end = self._first_step(cands[w].paying_by_power, t0)
            if sec >= 0:
                end = min(end, self._first_step(cands[sec].paying_by_power, t0))
            fall = sw + sum(min(gw.get(q, 0), 0) for q in moving)  # the winner's fastest fall
        hold = INF  # how long the decision holds (the winner's pieces aside)
        # the closest losers first: the bound below only grows from one to the next
        for i in sorted(range(len(T)), key=T.__getitem__, reverse=True):
            if i == w:
                continue
            # the winner's lead over candidate i (never negative) must keep its sign
            d0 = tw - T[i]
            strict = i < w  # w beats on a tie the candidates after it (tie-break order)
            loose = not exact and i != sec
            if loose:
                # a loser's total never rises: the winner's fall bounds the lead (and holds
                # until the end of the plan anyway), so the window is at least this
                bound = t0 + steps_positive(d0, fall, strict)
                if bound >= hold:
                    if sec < 0:
                        break  # and so for every loser after this one
                    continue
                # w keeps winning while its lead stays > 0 (>= 0 if not strict)
                window = loser_window(self, cands[i].paying_by_power, t0, d0, fall, strict, hold)
                if window < hold:
                    hold = window
                continue
            ds = sw - S[i]
            lo = hi = 0
            if moving:
                gi = G[i]
                for q in moving:
                    x = gw.get(q, 0) - gi.get(q, 0)
                    if x < 0:
                        lo += x
                    else:
                        hi += x
            if exact:
                # a dummy's unit: a tie decides, so every sign must stay as it is
                if d0 > 0:
                    ds += lo
                    window = t0 - (d0 // ds) if ds < 0 else INF  # t0 + ceil(d0 / -ds)
                else:
                    window = t0 + 1 if (ds or lo or hi) else INF
            else:
                window = t0 + steps_positive(d0, ds + lo, strict)  # the runner-up
            if window < hold:
                hold = window
        if hold < end:
            end = hold
        self.hold[ui] = -INF if exact or self.ebayola else hold
        chosen = w
        if ub.dummy:
            payers = cands[w].payers
            if any(T[i] == top and cands[i].payers != payers for i in range(len(cands))):
                chosen = ub.hold
        pays = self._pays(ui, chosen)
        if chosen == w and self.ebayola:
            end, pays = ebayola_plan(self, ui, t0, end, w, sec, pays, S, moving, exact)
        self.end[ui] = end
        self.chosen[ui] = chosen
        return end, pays

    def _pays(self, ui: int, chosen: int) -> Pays:
        """What each payer of the candidate pays at the unit's last plan, and its gradient."""
        pays: Pays = []
        if chosen >= 0:
            ks = self.k0[ui]
            amt, sig, kref = self.amt, self.sig, self.kref
            for p, es in self.book.units[ui].candidates[chosen].paying_by_power:
                k = ks[p]
                v = s = 0
                for e in es:
                    se = sig[e]
                    v += amt[e] + se * (k - kref[e])
                    s += se
                pays.append((p, v, {p: s} if s else {}))
        return pays
