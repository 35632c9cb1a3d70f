"""Offer sheets as values (rule 3): offers, savings requests and comments, in sheet order.

`payjudge.text.sheet` turns mail text into a `Sheet`; `str()` of every item is the
normalised text the judge echoes, which parses back to an equal item.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Final

from ..rules.orders import Hold, Move, Order, Unit, Waive


class OfferKind(enum.Enum):
    """The five offer types of rule 3.1 item 5, by their mark."""

    DIRECT = ":"  # pays if the unit issues one of the orders
    NEGATIVE = "!"  # a 0 AgP HOLD offer, and pays if the unit issues none of the orders
    MOVE = ">"  # as direct, and pays for any move
    HOLD = "@"  # as direct, and pays for any hold, support or convoy
    GIFT = "&"  # as direct, and pays whatever the unit does

    @property
    def mark(self) -> str:
        return self.value


SAVINGS_MARK: Final = "$"


@dataclass(frozen=True, slots=True)
class SignalSupport:
    """A void support given only as a signal (rules SIGNAL_SUPPORT / RESTRICT_SIGNAL).

    It may name any unit and any destination; the unit that issues it does nothing
    (it is adjudicated as a HOLD: `as_hold()`).
    """

    unit: Unit
    text: str  # the support as written, normalised: "S A VEN - SWI"

    def as_hold(self) -> Hold:
        return Hold(self.unit)

    def __str__(self) -> str:
        return f"{self.unit} {self.text} ?"


OfferOrder = Order | SignalSupport


def is_move(order: OfferOrder) -> bool:
    """A move in the sense of `>` and `@` offers: anything but hold, support and convoy."""
    return isinstance(order, Move)


def order_body(order: OfferOrder) -> str:
    """The order without its unit, as written after a `|`: `- PIC`, `S F BRE - GAS`, `H`."""
    if isinstance(order, Waive):  # (names no unit)
        return str(order)
    return str(order)[len(str(order.unit)) + 1 :]


@dataclass(frozen=True, slots=True)
class Term:
    """One amount of an offer: `[repeat*]amount[#plateau]` (rule 3.1 items 1-4)."""

    amount: int
    repeat: int = 1
    plateau: int = 0  # 0: reduces to zero; == amount: `8#`

    def __str__(self) -> str:
        if self.repeat == 1 and not self.plateau:  # most amounts
            return str(self.amount)
        text = f"{self.repeat}*" if self.repeat != 1 else ""
        text += str(self.amount)
        if self.plateau and self.plateau == self.amount:
            text += "#"
        elif self.plateau:
            text += f"#{self.plateau}"
        return text

    def expand(self) -> Iterator[tuple[int, int]]:
        """The separate offers this term stands for, as (amount, plateau) pairs."""
        for _ in range(self.repeat):
            yield self.amount, self.plateau


def terms_text(terms: tuple[Term, ...]) -> str:
    return str(terms[0]) if len(terms) == 1 else "+".join(map(str, terms))  # (most: one term)


def _with_comment(text: str, comment: str | None) -> str:
    if comment is None:
        return text
    return f"{text} % {comment}" if comment else f"{text} %"


@dataclass(frozen=True, slots=True)
class Offer:
    """One offer line: its amounts, its type, the unit and the orders it names."""

    kind: OfferKind
    unit: Unit
    orders: tuple[OfferOrder, ...]
    terms: tuple[Term, ...] = (Term(0),)
    comment: str | None = None
    line: int = field(default=0, compare=False)

    def amounts(self) -> Iterator[tuple[int, int]]:
        """Every separate offer of the line in sheet order (`2*4+3` is 4, 4, 3)."""
        for term in self.terms:
            yield from term.expand()

    @property
    def total(self) -> int:
        return sum(a for a, _ in self.amounts())

    @property
    def is_zero(self) -> bool:
        return any(t.amount == 0 for t in self.terms)

    def __str__(self) -> str:
        # (made for every line read: the usual line, one term and one order, joins nothing)
        first, *rest = self.orders
        text = f"{terms_text(self.terms)} {self.kind.value} {first}"  # (the value is the mark)
        if rest:
            text += "".join(f" | {order_body(o)}" for o in rest)
        return _with_comment(text, self.comment)


@dataclass(frozen=True, slots=True)
class Savings:
    """A savings request, `n $` (rule 3.4); `5+3 $` saves 8."""

    terms: tuple[Term, ...]
    comment: str | None = None
    line: int = field(default=0, compare=False)

    @property
    def amount(self) -> int:
        return sum(t.amount for t in self.terms)

    def __str__(self) -> str:
        return _with_comment(f"{terms_text(self.terms)} {SAVINGS_MARK}", self.comment)


@dataclass(frozen=True, slots=True)
class Comment:
    """A line that is only a comment (rule 3.5); kept, since sheets are published at the end."""

    text: str
    line: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return f"% {self.text}" if self.text else "%"


SheetItem = Offer | Savings | Comment


@dataclass(frozen=True, slots=True)
class Sheet:
    """A power's offer sheet for one movement phase, in the order it was written."""

    items: tuple[SheetItem, ...] = ()

    @property
    def offers(self) -> tuple[Offer, ...]:
        return tuple(i for i in self.items if isinstance(i, Offer))

    @property
    def savings(self) -> int:
        """The total of the savings requests (they add up)."""
        return sum(i.amount for i in self.items if isinstance(i, Savings))

    @property
    def offered_total(self) -> int:
        return sum(o.total for o in self.offers)

    def __bool__(self) -> bool:
        return bool(self.offers)

    def __str__(self) -> str:
        return "\n".join(str(i) for i in self.items)
