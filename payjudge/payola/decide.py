"""One unit's decision for given offer amounts (rules 4.4, 5.1-5.4, 6.4), and the money it moves.

`evaluate` decides every unit at a given reduction state; the literal reduction
(`reduction.py`) calls it to learn who would overspend. `decide` is the one decision rule:
`overspend/` runs it unchanged on amounts that are affine in the rounds (`overspend.affine`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic, NamedTuple, Protocol, TypeVar

from .book import Book, UnitBook
from .schedule import plateau_at, plateaus, value, values


class Linear(Protocol):
    """An amount affine in the reduction rounds (`overspend.affine`), on which `decide`
    computes as on an int: with ints and with amounts of its own kind."""

    def __add__(self, other: Any, /) -> Linear: ...
    def __radd__(self, other: int, /) -> Linear: ...
    def __sub__(self, other: Any, /) -> Linear: ...
    def __rsub__(self, other: int, /) -> Linear: ...
    def __lt__(self, other: Any, /) -> bool: ...
    def __gt__(self, other: Any, /) -> bool: ...
    def __le__(self, other: Any, /) -> bool: ...
    def __ge__(self, other: Any, /) -> bool: ...


Amount = int | Linear
# What `decide` computes with: ints (the auction, the literal reduction) or ints and linear
# amounts (the fast reduction). mypy checks `decide` for each; compiled, the amounts are
# objects, so the one decision rule runs unchanged on both.
A = TypeVar("A", int, Amount)
_A_co = TypeVar("_A_co", covariant=True)


class Amounts(Protocol[_A_co]):
    """Entries' amounts by entry index: a list, or a dict of the entries of one unit."""

    def __getitem__(self, entry: int, /) -> _A_co: ...


class Decision(Generic[A]):
    """What a unit does: `chosen` indexes its candidates (-1: a HOLD nobody offered). A
    value, made by its own `__init__` (every round of the literal reduction makes one per
    unit: see book.Entry). A plain class: mypyc compiles no generic dataclass."""

    __slots__ = ("best", "chosen", "dummy_hold", "payments", "total")

    chosen: int
    best: int  # the candidate that won on money and tie-breaks
    total: A  # the total reported to the owner (rule 5.7 item 2)
    # (power index, AgP) for the issued order: one per payer of its candidate, as in `by_power`
    payments: tuple[tuple[int, A], ...]
    dummy_hold: bool  # rule 4.4: a tie at the top made it HOLD

    def __init__(
        self, chosen: int, best: int, total: A, payments: tuple[tuple[int, A], ...], dummy_hold: bool = False
    ) -> None:
        self.chosen = chosen
        self.best = best
        self.total = total
        self.payments = payments
        self.dummy_hold = dummy_hold

    def _fields(self) -> tuple[object, ...]:
        return (self.chosen, self.best, self.total, self.payments, self.dummy_hold)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Decision) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return "Decision(chosen={}, best={}, total={}, payments={}, dummy_hold={})".format(*self._fields())


def decide(
    ub: UnitBook, amount: Amounts[A], plateau: Amounts[int], ebayola: bool, public_totals: bool
) -> Decision[A]:
    """Decide one unit, given each entry's current amount and plateau."""
    cands = ub.candidates
    at = amount.__getitem__
    totals = [sum(map(at, c.paying)) for c in cands]  # (the other entries are 0 AgP for good)
    best_total = max(totals)
    w = totals.index(best_total)  # candidates are in tie-break order
    # rule 4.4: any monetary tie at the top on a dummy's unit ends in its default HOLD,
    # whoever paid for the tied orders (even one and the same power)
    if ub.dummy and any(t == best_total for i, t in enumerate(totals) if i != w):
        h = ub.hold
        pay = () if h < 0 else tuple((p, sum(map(at, es))) for p, es in cands[h].by_power)
        return Decision(h, w, best_total + 1, pay, True)
    costs = [(p, sum(map(at, es))) for p, es in cands[w].by_power]
    total = best_total
    if ebayola:
        second = max((t for i, t in enumerate(totals) if i != w), default=0)
        over = best_total - 1 - second  # on a tie: nothing to save (rule 6.4)
        if over > 0:
            rebated = []
            for (p, cost), (_, es) in zip(costs, cands[w].by_power):
                floor = 0 if public_totals else sum(plateau[e] for e in es)
                rebate = min(cost - floor, over)
                over -= rebate
                total -= rebate
                rebated.append((p, cost - rebate))
            costs = rebated
    return Decision(w, w, total, tuple(costs))


def amounts_at(book: Book, k: Sequence[int]) -> list[int]:
    """Every entry's amount after k[p] reduction rounds of its power p (those of the
    book's last evaluation, when it was made at k: the auction reads them there)."""
    for last in book.memo.values():
        if last.k == tuple(k):
            return list(last.amount)
    return values(book.rows, k, book.flat)


class _Evaluation(NamedTuple):
    """An evaluation of the whole book at state k, as `Book.memo` keeps it."""

    k: tuple[int, ...]
    amount: list[int]
    plateau: list[int]  # empty when no decision reads plateaus
    decisions: list[Decision[int]]


def evaluate(book: Book, k: Sequence[int], ebayola: bool, public_totals: bool) -> list[Decision[int]]:
    """Every unit's decision after k[p] reduction rounds of each power p.

    The book remembers the last evaluation (per eBayola setting): one reduction round
    changes the rounds of the overspending powers only, and the auction reads the
    decisions once more at the state the reduction ended with. A unit's decision depends
    on nothing but the amounts (and plateaus in force) of its entries, so only the units
    with an entry whose amount changed are decided again (an offer already on its plateau
    or at 0 keeps its amount); the other decisions are those of the last evaluation."""
    keep = ebayola and not public_totals  # only eBayola's rebate reads the plateaus in force
    last: _Evaluation | None = book.memo.get((ebayola, public_totals))
    if last is None or len(last.k) != len(k):
        amount = values(book.rows, k, book.flat)
        plateau = plateaus(book.rows, k, book.flat) if keep else []
        decisions = [decide(ub, amount, plateau, ebayola, public_totals) for ub in book.units]
    else:
        changed = [p for p, (now, then) in enumerate(zip(k, last.k)) if now != then]
        if not changed:
            return list(last.decisions)
        amount, plateau, decisions = last.amount.copy(), last.plateau.copy(), last.decisions.copy()
        again: set[int] = set()  # the units with an entry whose amount changed
        for p in changed:
            kp, flat = k[p], book.flat[p]
            for e in book.paying_of[p]:
                top, pl, _ = book.rows[e]
                now = value(top, pl, flat, kp)
                # (the plateau in force changes only with the amount: past K, an offer on
                # its plateau pl > 0 is worth pl - 1)
                if now != amount[e]:
                    amount[e] = now
                    if keep:
                        plateau[e] = plateau_at(pl, flat, kp)
                    again.add(book.unit_of[e])
        again.discard(-1)
        for u in again:
            decisions[u] = decide(book.units[u], amount, plateau, ebayola, public_totals)
    book.memo[ebayola, public_totals] = _Evaluation(tuple(k), amount, plateau, decisions)
    return list(decisions)


def spending(book: Book, decisions: Sequence[Decision[int]]) -> list[int]:
    out = [0] * len(book.powers)
    for d in decisions:
        for p, amount in d.payments:
            out[p] += amount
    return out
