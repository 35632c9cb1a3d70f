"""Small helpers on linear functions of the step: when does f0 + slope*Δ change sign?

Used by `kinetic.Planner` to work out how long a unit's plan holds. Every function takes
the value now (f0) and a change per step, and answers with a number of steps Δ >= 1
(INF: never; 0: the condition does not even hold now).
"""

from __future__ import annotations

from .schedule import INF

Grad = dict[int, int]  # AgP per round, by power (only the nonzero ones)


def steps_positive(d0: int, slope: int, strict: bool) -> float:
    """Steps Δ >= 1 for which d0 + slope*Δ stays > 0 (strict) or >= 0, d0 >= 0 (INF: all)."""
    if slope >= 0:
        return INF if d0 > 0 or not strict else 0
    return -(d0 // slope) if strict else d0 // -slope + 1


def keeps_le0(f0: int, best: int) -> float:
    """Steps for which f0 + s*Δ stays <= 0 for every slope s <= best (0: not even now)."""
    if f0 > 0:
        return 0
    return INF if best <= 0 else -f0 // best + 1


def keeps_ge0(f0: int, worst: int) -> float:
    """Steps for which f0 + s*Δ stays >= 0 for every slope s >= worst (0: not even now)."""
    if f0 < 0:
        return 0
    return INF if worst >= 0 else f0 // -worst + 1


def sub_grad(a: Grad, b: Grad) -> Grad:
    out = dict(a)
    for q, g in b.items():
        out[q] = out.get(q, 0) - g
    return out
