"""How long a unit's winner stays ahead of one losing candidate (`kinetic.Planner`'s plans):
the loser's offers fall with their powers' rounds, each until the end of its piece."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from .lines import steps_positive
from .schedule import INF

if TYPE_CHECKING:
    from .kinetic import Planner


def loser_window(
    self: Planner,
    groups: Iterable[tuple[int, tuple[int, ...]]],
    t0: int,
    d0: int,
    fall: int,
    strict: bool,
    hold: float,
) -> float:
    """The first step at which the winner's lead d0 over a losing candidate (its
    offers: groups) may stop being > 0 (>= 0 if not strict), the winner falling by
    `fall` per step. Each of the loser's offers that slopes falls with its power until
    the end of its piece and is taken to stay there (a total never rises): so the lead
    is at least a concave broken line, walked here up to `hold`."""
    rate, kb, tb, kend, sig, vol = self.rate, self.kb, self.tb, self.kend, self.sig, self.volatile
    slope = fall
    stops: list[tuple[int, int]] = []
    for q, es in groups:
        r = rate[q]
        if r and not vol[q]:
            kq = kb[q] + (t0 - tb[q]) * r
            for e in es:
                if sig[e]:
                    slope += r
                    # the last step at which it still falls at the full rate (a whole number)
                    stops.append((t0 + (int(kend[e]) - 1 - kq) // r, r))
    stops.sort()
    t, lead = t0, d0
    for stop, r in stops:
        if t >= hold:
            return t
        if stop > t:
            if slope < 0:
                x = t + steps_positive(lead, slope, strict)
                if x <= stop:
                    return x
            lead += slope * (stop - t)
            t = stop
        slope -= r
    if slope < 0:
        return t + steps_positive(lead, slope, strict)
    return INF if lead > 0 or not strict else t
