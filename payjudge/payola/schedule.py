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

INF = float("inf")


def value(amount: int, plateau: int, flat: int, k: int) -> int:
    """The offer's amount after k rounds (flat = K of its power)."""
    if k <= flat:
        return max(amount - k, plateau)
    return max(plateau - (k - flat), 0)


def plateau_at(plateau: int, flat: int, k: int) -> int:
    """The plateau still in force after k rounds."""
    return plateau if k <= flat else 0


def piece(amount: int, plateau: int, flat: int, k: int) -> tuple[int, int, float]:
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
