"""Amounts that are affine in the rounds of every power, for running `decide` on a whole
region of reduction states at once.

An offer's amount after k[p] rounds of its power p is, piece by piece, `v + s·(k[p] − k0[p])`
(`schedule.piece`, s = 0 or −1). An `Affine` is such an amount, or a sum or difference of
them: `v + Σ a[p]·(k[p] − k0[p])`, exact in the region around the state k0 where the plan
is made. Comparing two of them answers for k0 exactly (as integers would) and records, in
the `Region` they share, the condition under which that comparison keeps its answer: an
affine function `d + Σ a[p]·(k[p] − k0[p])` that must stay > 0.

`decide` is a straight-line program over +, −, `max`, `min` and comparisons. Run on
`Affine`s, it takes the path it would take on the integers of k0, and at every state k
(k >= k0) where the recorded conditions hold, it takes the same path, so its results are
the same affine expressions: its decision is the decision, and its payments the exact
payments, at every such k (see docs/overexpenditure.md).
"""

from __future__ import annotations

from typing import final

# A vector of slopes a (AgP per round, per power) is kept packed in one integer,
# Σ a[p]·BASE**p: adding, subtracting and negating vectors are then single integer
# operations, and the zero vector is 0. (Each slope is a sum of at most one -1 per entry:
# far below BASE / 2 in absolute value, so `unpack` recovers it.)
BASE_BITS = 24
BASE = 1 << BASE_BITS
Slopes = dict[int, int]  # unpacked: power -> AgP per round of that power (never 0)
Condition = tuple[int, int]  # d, packed a: d + Σ a[p]·(k[p] − k0[p]) > 0 must hold


def unit_slope(p: int, s: int) -> int:
    """The packed vector with s at power p."""
    return s << (BASE_BITS * p)


def unpack(packed: int) -> Slopes:
    """The nonzero digits of a packed vector (a few, among up to 60 offers: each step goes
    to the lowest one directly)."""
    out: Slopes = {}
    half = BASE >> 1
    while packed:
        p = ((packed & -packed).bit_length() - 1) // BASE_BITS  # (the lowest nonzero digit)
        shift = BASE_BITS * p
        digit = (packed >> shift) & (BASE - 1)
        if digit >= half:
            digit -= BASE
        out[p] = digit
        packed -= digit << shift
    return out


class Region:
    """The conditions under which every comparison made so far answers as at k0: as affine
    functions of the rounds (`conditions`, for the offers' current pieces) and of the
    offers' own amounts (`exact`, whatever their pieces: d + Σ b[i]·(x[i] − x0[i]) > 0,
    b packed per offer i like the slopes)."""

    __slots__ = ("conditions", "exact")

    def __init__(self) -> None:
        self.conditions: list[Condition] = []
        self.exact: list[Condition] = []


@final  # (so that `type(x) is Affine` tells mypy what x is in both branches)
class Affine:
    """`v + Σ a[p]·(k[p] − k0[p])` AgP (a packed); `region` records how far comparisons hold."""

    __slots__ = ("a", "region", "v")

    def __init__(self, v: int, a: int, region: Region):
        self.v, self.a, self.region = v, a, region

    def __repr__(self) -> str:
        return f"Affine({self.v}, {self.a})"

    def __add__(self, other: Affine | int) -> Affine:
        if type(other) is Affine:
            return Affine(self.v + other.v, self.a + other.a, self.region)
        return Affine(self.v + other, self.a, self.region) if other else self  # (immutable)

    def __radd__(self, other: Affine | int) -> Affine:
        return self.__add__(other)

    def __sub__(self, other: Affine | int) -> Affine:
        if type(other) is Affine:
            return Affine(self.v - other.v, self.a - other.a, self.region)
        return Affine(self.v - other, self.a, self.region)

    def __rsub__(self, other: int) -> Affine:
        return Affine(other - self.v, -self.a, self.region)

    def _diff(self, other: Affine | int) -> tuple[int, int]:
        if type(other) is Affine:
            return self.v - other.v, self.a - other.a
        return self.v - other, self.a

    def _positive(self, d: int, a: int) -> bool:
        """Is d > 0 at k0; the condition for the answer to stay (integers: not d > 0 is
        1 − d > 0)."""
        if not a:
            return d > 0
        if d > 0:
            self.region.conditions.append((d, a))
            return True
        self.region.conditions.append((1 - d, -a))
        return False

    def __gt__(self, other: Affine | int) -> bool:
        d, a = self._diff(other)
        return self._positive(d, a)

    def __lt__(self, other: Affine | int) -> bool:
        d, a = self._diff(other)
        return self._positive(-d, -a)

    def __ge__(self, other: Affine | int) -> bool:
        d, a = self._diff(other)
        return not self._positive(-d, -a)

    def __le__(self, other: Affine | int) -> bool:
        d, a = self._diff(other)
        return not self._positive(d, a)

    def __eq__(self, other: object) -> bool:
        # `decide` compares Affines only with Affines and ints (object is __eq__'s contract)
        d, a = self._diff(other)  # type: ignore[arg-type]
        if not a:
            return d == 0
        conditions = self.region.conditions
        if d == 0:  # equal while a·(k − k0) == 0: between −1 and 1
            conditions.append((1, a))
            conditions.append((1, -a))
            return True
        conditions.append((d, a) if d > 0 else (-d, -a))  # (the sign keeps)
        return False

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = None  # type: ignore[assignment]  # (unhashable, as __eq__ is not an equality)


@final  # (so that `type(x) is Traced` tells mypy what x is in both branches)
class Traced:
    """An `Affine` that is also `v + Σ b[i]·(x[i] − x0[i])` in the offers' own amounts x (b
    packed per offer i of the unit), and records its comparisons both ways (`Region.exact`):
    for a plan to be followed past its offers' piece ends (`line.Line`). A class of its
    own, so that plain plans pay nothing for it."""

    __slots__ = ("a", "b", "region", "v")

    def __init__(self, v: int, a: int, region: Region, b: int):
        self.v, self.a, self.region, self.b = v, a, region, b

    def __repr__(self) -> str:
        return f"Traced({self.v}, {self.a})"

    def __add__(self, other: Traced | int) -> Traced:
        if type(other) is Traced:
            return Traced(self.v + other.v, self.a + other.a, self.region, self.b + other.b)
        return Traced(self.v + other, self.a, self.region, self.b) if other else self  # (immutable)

    def __radd__(self, other: Traced | int) -> Traced:
        return self.__add__(other)

    def __sub__(self, other: Traced | int) -> Traced:
        if type(other) is Traced:
            return Traced(self.v - other.v, self.a - other.a, self.region, self.b - other.b)
        return Traced(self.v - other, self.a, self.region, self.b)

    def __rsub__(self, other: int) -> Traced:
        return Traced(other - self.v, -self.a, self.region, -self.b)

    def _diff(self, other: Traced | int) -> tuple[int, int, int]:
        if type(other) is Traced:
            return self.v - other.v, self.a - other.a, self.b - other.b
        return self.v - other, self.a, self.b

    def _positive(self, d: int, a: int, b: int) -> bool:
        """Is d > 0 at k0; the condition for the answer to stay (integers: not d > 0 is
        1 − d > 0)."""
        if not a and not b:
            return d > 0
        region = self.region
        if d > 0:
            region.conditions.append((d, a))
            region.exact.append((d, b))
            return True
        region.conditions.append((1 - d, -a))
        region.exact.append((1 - d, -b))
        return False

    def __gt__(self, other: Traced | int) -> bool:
        d, a, b = self._diff(other)
        return self._positive(d, a, b)

    def __lt__(self, other: Traced | int) -> bool:
        d, a, b = self._diff(other)
        return self._positive(-d, -a, -b)

    def __ge__(self, other: Traced | int) -> bool:
        d, a, b = self._diff(other)
        return not self._positive(-d, -a, -b)

    def __le__(self, other: Traced | int) -> bool:
        d, a, b = self._diff(other)
        return not self._positive(d, a, b)

    def __eq__(self, other: object) -> bool:
        # `decide` compares Affines only with Affines and ints (object is __eq__'s contract)
        d, a, b = self._diff(other)  # type: ignore[arg-type]
        if not a and not b:
            return d == 0
        region = self.region
        if d == 0:  # equal while a·(k − k0) == 0: between −1 and 1
            region.conditions += ((1, a), (1, -a))
            region.exact += ((1, b), (1, -b))
            return True
        region.conditions.append((d, a) if d > 0 else (-d, -a))  # (the sign keeps)
        region.exact.append((d, b) if d > 0 else (-d, -b))
        return False

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = None  # type: ignore[assignment]  # (unhashable, as __eq__ is not an equality)
