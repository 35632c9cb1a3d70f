"""Rule 6.4 (eBayola) in a unit's plan (`kinetic.Planner`): how long the runner-up and the
split of the saving stay as they are, and what each payer pays meanwhile.

The winner costs the runner-up's total + 1; the saving goes back to the payers in the
owner's list order, none below its plateaus. At an exact boundary (a saving split
exactly at a plateau) the regimes on either side agree, so the plan takes the one that
lasts longer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .lines import Grad, keeps_ge0, keeps_le0, sub_grad
from .schedule import INF

if TYPE_CHECKING:
    from .kinetic import Pays, Planner


def ebayola_plan(
    self: Planner,
    ui: int,
    t0: int,
    end: float,
    w: int,
    sec: int,
    pays: Pays,
    S: list[int],
    moving: list[int],
    exact: bool,
) -> tuple[float, Pays]:
    """Rule 6.4: the winner costs the runner-up's total + 1; the saving is split among the
    payers in the owner's list order, down to their plateaus. (sec: the runner-up; S: each
    candidate's exact change per step; moving: the volatile powers.)"""
    cands = self.book.units[ui].candidates
    T, G = self.T[ui], self.G[ui]
    if sec >= 0:
        t2, g2, s2 = T[sec], G[sec], S[sec]
        fall = s2 + sum(min(g2.get(q, 0), 0) for q in moving)  # its fastest fall
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
                        window = max(min(window, self._first_step(cands[i].paying_by_power, t0)), bound)
                if window < end:
                    end = window
    else:
        t2, g2 = 0, {}
    # the saving, then its split: at a boundary the regimes on either side agree, so
    # take the one that lasts longer
    over0, over_g = T[w] - 1 - t2, sub_grad(G[w], g2)
    s, lo, hi = _slopes(self, over_g)
    none, some = keeps_le0(over0, s + hi), keeps_ge0(over0, s + lo)
    if none >= some:
        return min(end, t0 + none), pays
    end = min(end, t0 + some)
    out = []
    given0 = 0
    given_g: Grad = {}
    for (p, v, g), (_, es) in zip(pays, cands[w].paying_by_power):
        floor = 0 if self.public else sum(self.plat[e] for e in es)
        cap0, cap_g = v - floor, g
        left0, left_g = over0 - given0, sub_grad(over_g, given_g)  # still to give back
        beyond0, beyond_g = left0 - cap0, sub_grad(left_g, cap_g)
        s1, lo1, hi1 = _slopes(self, left_g)
        s2, lo2, hi2 = _slopes(self, beyond_g)
        regimes = (
            (keeps_le0(left0, s1 + hi1), 0),  # nothing
            (min(keeps_ge0(left0, s1 + lo1), keeps_le0(beyond0, s2 + hi2)), 1),  # part
            (keeps_ge0(beyond0, s2 + lo2), 2),  # all of it
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


def _slopes(self: Planner, grad: Grad) -> tuple[int, int, int]:
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
