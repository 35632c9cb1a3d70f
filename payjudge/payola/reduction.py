"""Overexpenditure (rule 5.5): how many one-AgP reduction rounds each power goes through.

Every round, each power that would pay more than its balance minus its savings has all
its offers reduced (see `schedule.py`), and every unit decides again. The state of the
whole auction is therefore the vector k of rounds per power.

`reduce_literal` runs the rounds one by one, as the rulebook describes them. Its cost
grows with the amounts of money involved.

`reduce_fast` reaches the same k without visiting every round. While the set S of
overspending powers stays the same, k moves along a straight line (every power of S
gains one round per round), every offer's amount is piecewise linear along it, and so
is every candidate's total. For each unit it plans the longest run of rounds in which
nothing about the unit can change: no offer on it changes slope, the ranking of its
candidates against the winner keeps its signs (so the winner and any tie stay), and
under eBayola the runner-up and the rebate split stay the same. Within such a run
what each power pays for the unit is linear, so each power's spending is linear
between two unit events, and the round at which it crosses its limit is a division.
The procedure jumps from event to event; its cost depends on the number of offers and
of decisions that change, not on the sums of money. Tests compare it with the literal
procedure on many random sheets.
"""

from __future__ import annotations

import heapq
from typing import Sequence

from .book import Book
from .decide import evaluate, spending
from .schedule import INF, piece, plateau_at, value


class ReductionError(RuntimeError):
    """The reduction did not settle (a bug: every round lowers some offer)."""


def reduce_literal(book: Book, limits: Sequence[int], ebayola: bool = False,
                   public_totals: bool = False) -> list[int]:
    """The rounds per power, one round at a time (the reference procedure)."""
    n = len(book.powers)
    k = [0] * n
    bound = sum(e.amount for e in book.entries) + n + 1
    for _ in range(bound + 1):
        spent = spending(book, evaluate(book, k, ebayola, public_totals))
        over = [p for p in range(n) if spent[p] > limits[p]]
        if not over:
            return k
        for p in over:
            k[p] += 1
    raise ReductionError("the reduction rounds did not settle")


def _first_change(d0: int, ds: int) -> float:
    """The first step Δ >= 1 at which d0 + ds*Δ no longer has the sign of d0."""
    if d0 > 0:
        return -(-d0 // -ds) if ds < 0 else INF
    if d0 < 0:
        return -(d0 // ds) if ds > 0 else INF
    return 1 if ds else INF


class _Kinetic:
    """The state of `reduce_fast` along one straight stretch (S fixed)."""

    def __init__(self, book: Book, ebayola: bool, public_totals: bool):
        self.book = book
        self.ebayola = ebayola
        self.public = public_totals
        es = book.entries
        self.A = [e.amount for e in es]
        self.PL = [e.plateau for e in es]
        self.EP = [e.power for e in es]
        self.amt = [0] * len(es)
        self.slp = [0] * len(es)
        self.plat = [0] * len(es)
        n = len(book.powers)
        self.base = [0] * n
        self.ins = [False] * n

    def plan(self, ui: int, j0: int) -> tuple[float, list[tuple[int, int, int]]]:
        """(end, [(power, pay at j0, pay per round)]): exact for rounds j0 <= j < end."""
        ub = self.book.units[ui]
        A, PL, EP, amt, slp, plat = self.A, self.PL, self.EP, self.amt, self.slp, self.plat
        flat, base, ins = self.book.flat, self.base, self.ins
        end = INF
        for e in ub.entries:
            p = EP[e]
            if ins[p]:
                k = base[p] + j0
                v, s, until = piece(A[e], PL[e], flat[p], k)
                amt[e] = v
                slp[e] = s
                if until != INF and until - base[p] < end:
                    end = until - base[p]
            else:
                k = base[p]
                amt[e] = value(A[e], PL[e], flat[p], k)
                slp[e] = 0
            plat[e] = plateau_at(PL[e], flat[p], k)
        cands = ub.candidates
        T = [sum(amt[e] for e in c.entries) for c in cands]
        TS = [sum(slp[e] for e in c.entries) for c in cands]
        top = max(T)
        w = T.index(top)
        tw, sw = T[w], TS[w]
        for i in range(len(cands)):
            if i != w:
                d = _first_change(tw - T[i], sw - TS[i])
                if d != INF and j0 + d < end:
                    end = j0 + d
        if ub.dummy:
            payers = cands[w].payers
            if any(T[i] == top and cands[i].payers != payers for i in range(len(cands))):
                h = ub.hold
                if h < 0:
                    return end, []
                return end, [(p, sum(amt[e] for e in es), sum(slp[e] for e in es))
                             for p, es in cands[h].by_power]
        pays = [(p, sum(amt[e] for e in es), sum(slp[e] for e in es)) for p, es in cands[w].by_power]
        if not self.ebayola:
            return end, pays
        # eBayola: the runner-up's total, the saving, and how it is split (rule 6.4)
        if len(cands) > 1:
            sec = max((i for i in range(len(cands)) if i != w), key=lambda i: (T[i], TS[i]))
            t2, s2 = T[sec], TS[sec]
            for i in range(len(cands)):
                if i != w and i != sec and TS[i] > s2:
                    d = (t2 - T[i]) // (TS[i] - s2) + 1    # first round with T[i] > T[sec]
                    if j0 + d < end:
                        end = j0 + d
        else:
            t2, s2 = 0, 0
        o0, os = tw - 1 - t2, sw - s2
        d = _first_change(o0, os)
        if d != INF and j0 + d < end:
            end = j0 + d
        if o0 <= 0:
            return end, pays
        out = []
        c0 = cs = 0
        for (p, v, s), (_, es) in zip(pays, cands[w].by_power):
            floor = 0 if self.public else sum(plat[e] for e in es)
            cap0, caps = v - floor, s
            r0, rs = o0 - c0, os - cs                  # what is left to give back
            for d0, ds in ((r0, rs), (r0 - cap0, rs - caps)):
                d = _first_change(d0, ds)
                if d != INF and j0 + d < end:
                    end = j0 + d
            if r0 <= 0:
                out.append((p, v, s))
            elif r0 >= cap0:
                out.append((p, v - cap0, s - caps))
            else:
                out.append((p, v - r0, s - rs))
            c0 += cap0
            cs += caps
        return end, out


def reduce_fast(book: Book, limits: Sequence[int], ebayola: bool = False,
                public_totals: bool = False) -> list[int]:
    """The same rounds per power as `reduce_literal`, jumping from event to event."""
    n = len(book.powers)
    k = [0] * n
    spent = spending(book, evaluate(book, k, ebayola, public_totals))
    over = [spent[p] > limits[p] for p in range(n)]
    kin = _Kinetic(book, ebayola, public_totals)
    units = range(len(book.units))
    # a safety net only: every event moves some offer, decision or power along
    guard = (sum(e.amount for e in book.entries) + n + 2) * (len(book.units) + 2) + 1000
    while any(over):
        kin.base = list(k)
        kin.ins = list(over)
        acc_a = [0] * n            # spending of p at round j: acc_a[p] + acc_b[p] * j
        acc_b = [0] * n
        plans: list[list[tuple[int, int, int]]] = []   # per unit: (power, intercept, slope)
        version = [0] * len(book.units)
        heap: list[tuple[float, int, int]] = []
        for ui in units:
            end, pays = kin.plan(ui, 0)
            plans.append(pays)
            for p, v, s in pays:
                acc_a[p] += v
                acc_b[p] += s
            heap.append((end, 0, ui))
        heapq.heapify(heap)
        j = 0
        while True:
            guard -= 1
            if guard < 0:
                raise ReductionError("the fast reduction did not settle")
            t = heap[0][0]
            for p in range(n):
                b = acc_b[p]
                if over[p] and b < 0:
                    d = -(-(acc_a[p] + b * j - limits[p]) // -b)
                elif not over[p] and b > 0:
                    d = (limits[p] - acc_a[p] - b * j) // b + 1
                else:
                    continue
                if j + d < t:
                    t = j + d
            if t == INF:
                raise ReductionError("overspending that no round can cure")
            j = int(t)
            while heap and heap[0][0] <= j:
                _, ver, ui = heapq.heappop(heap)
                if ver != version[ui]:
                    continue
                for p, a, s in plans[ui]:
                    acc_a[p] -= a
                    acc_b[p] -= s
                end, pays = kin.plan(ui, j)
                pays = [(p, v - s * j, s) for p, v, s in pays]
                for p, a, s in pays:
                    acc_a[p] += a
                    acc_b[p] += s
                plans[ui] = pays
                version[ui] += 1
                heapq.heappush(heap, (end, version[ui], ui))
            now = [acc_a[p] + acc_b[p] * j > limits[p] for p in range(n)]
            if now != over:
                k = [k[p] + (j if over[p] else 0) for p in range(n)]
                over = now
                break
    return k
