"""What one offer is worth after a power's k-th reduction round (rule 5.5), in closed form.

Each round of overexpenditure takes 1 AgP from every offer of the power that is above
its plateau; once all of the power's offers sit on their plateaus, the plateaus are
dropped and every offer above zero loses 1 AgP per round. With `K` the number of rounds
that bring every offer of the power down to its plateau (the largest amount-plateau),
an offer of amount `A` and plateau `pl` is worth, after k rounds:

    max(A - k, pl)                 for k <= K
    max(pl - (k - K), 0)           for k >  K

and its plateau still counts (for eBayola rebates) only while k <= K. So the whole
state of a power's offers is its number of rounds, which lets the auction jump over
rounds (see `reduction.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

INF: Final = float("inf")
# A number of rounds that may be "never" (INF). Written `int | float` rather than `float`:
# the two are one type to mypy, but mypyc keeps a `float` as a C double, which would round
# a count past 2**53 (balances may be that large); the union keeps Python's exact int.
Rounds = int | float


def value(amount: int, plateau: int, flat: int, k: int) -> int:
    """The offer's amount after k rounds (flat = K of its power)."""
    if k <= flat:
        return max(amount - k, plateau)
    return max(plateau - (k - flat), 0)


def values(rows: Sequence[tuple[int, int, int]], k: Sequence[int], flat: Sequence[int]) -> list[int]:
    """`value` of every (amount, plateau, power) row at once, as one expression:
    max(A - k, pl - max(k - K, 0), 0). For k <= K it is max(A - k, pl); for k > K,
    A - k <= pl - (k - K) (as A - pl <= K), so it is max(pl - (k - K), 0)."""
    drop = [max(kp - f, 0) for kp, f in zip(k, flat)]
    return [max(a - k[p], pl - drop[p], 0) for a, pl, p in rows]


def plateaus(rows: Sequence[tuple[int, int, int]], k: Sequence[int], flat: Sequence[int]) -> list[int]:
    """`plateau_at` of every (amount, plateau, power) row at once."""
    return [pl if k[p] <= flat[p] else 0 for _, pl, p in rows]


def plateau_at(plateau: int, flat: int, k: int) -> int:
    """The plateau still in force after k rounds."""
    return plateau if k <= flat else 0


def piece(amount: int, plateau: int, flat: int, k: int) -> tuple[int, int, Rounds]:
    """(value, slope, end) at round k: `value + slope * (k' - k)` is the exact value for
    every k' with k <= k' < end (slope is 0 or -1 per round; end may be INF)."""
    if k <= flat:
        top = amount - plateau
        if k < top:
            return amount - k, -1, top + 1
        if plateau == 0:
            return 0, 0, INF
        return plateau, 0, flat + 1
    d = k - flat
    if d < plateau:
        return plateau - d, -1, flat + plateau + 1
    return 0, 0, INF
