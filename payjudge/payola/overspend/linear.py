"""Amounts that are linear in the step, for running `decide` on a whole stretch of steps at once.

Along a line of reduction states k(q) = start + q·direction, every offer's amount is, piece
by piece, linear in the step q (`schedule.piece`). A `Lin` is such an amount from a step
q0 on: `v + s·Δ` at step q0 + Δ. Adding and subtracting `Lin`s gives `Lin`s; comparing
two of them answers for step q0 exactly (as integers would) and records, in the
`Window` they share, the first Δ >= 1 at which that comparison would answer differently.

`decide` is a straight-line program over +, - and comparisons. Run on `Lin`s, it takes
the path it would take on the integers of step q0, and as long as every comparison it
made answers the same, it takes the same path and its results are the same linear
expressions: its decision is the decision, and its payments the exact payments, at every
step before the window's end (see docs/overexpenditure.md).
"""

from __future__ import annotations

from typing import final

from ..schedule import INF


class Window:
    """The first step Δ >= 1 at which one of the comparisons made so far would change."""

    __slots__ = ("end",)

    def __init__(self) -> None:
        self.end: float = INF


def _first_le0(d: int, s: int) -> float:
    """The first Δ >= 1 with d + s·Δ <= 0, for d > 0."""
    return INF if s >= 0 else (d - s - 1) // -s


def _first_gt0(d: int, s: int) -> float:
    """The first Δ >= 1 with d + s·Δ > 0, for d <= 0."""
    return INF if s <= 0 else -d // s + 1


@final  # (so that `type(x) is Lin` tells mypy what x is in both branches)
class Lin:
    """`v + s·Δ` (AgP at step q0 + Δ); `win` records how long comparisons hold."""

    __slots__ = ("s", "v", "win")

    def __init__(self, v: int, s: int, win: Window):
        self.v, self.s, self.win = v, s, win

    def __repr__(self) -> str:
        return f"Lin({self.v}, {self.s})"

    def __add__(self, other: Lin | int) -> Lin:
        if type(other) is Lin:
            return Lin(self.v + other.v, self.s + other.s, self.win)
        return Lin(self.v + other, self.s, self.win) if other else self  # (a Lin never changes)

    __radd__ = __add__

    def __sub__(self, other: Lin | int) -> Lin:
        if type(other) is Lin:
            return Lin(self.v - other.v, self.s - other.s, self.win)
        return Lin(self.v - other, self.s, self.win)

    def __rsub__(self, other: int) -> Lin:
        return Lin(other - self.v, -self.s, self.win)

    def _diff(self, other: Lin | int) -> tuple[int, int]:
        if type(other) is Lin:
            return self.v - other.v, self.s - other.s
        return self.v - other, self.s

    def _positive(self, d: int, s: int) -> bool:
        """Is d + s·Δ > 0 at Δ = 0; and until when does the answer stay the same."""
        if d > 0:
            end = _first_le0(d, s)
            result = True
        else:
            end = _first_gt0(d, s)
            result = False
        if end < self.win.end:
            self.win.end = end
        return result

    def __gt__(self, other: Lin | int) -> bool:
        d, s = self._diff(other)
        return self._positive(d, s)

    def __lt__(self, other: Lin | int) -> bool:
        d, s = self._diff(other)
        return self._positive(-d, -s)

    def __ge__(self, other: Lin | int) -> bool:
        d, s = self._diff(other)
        return not self._positive(-d, -s)

    def __le__(self, other: Lin | int) -> bool:
        d, s = self._diff(other)
        return not self._positive(d, s)

    def __eq__(self, other: object) -> bool:
        # `decide` compares Lins only with Lins and ints (object is __eq__'s contract)
        d, s = self._diff(other)  # type: ignore[arg-type]
        if d == 0:
            end: float = INF if s == 0 else 1
        elif d > 0:
            end = _first_le0(d, s)  # it may only cross 0 there: ending early is safe
        else:
            end = _first_le0(-d, -s)
        if end < self.win.end:
            self.win.end = end
        return d == 0

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = None  # type: ignore[assignment]  # (unhashable, as __eq__ is not an equality)
