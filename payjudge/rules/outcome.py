"""What happened to each order: adjudication outcomes are values, not errors."""

from __future__ import annotations

import enum
from typing import NamedTuple

from .names import PowerName
from .orders import Order


class Result(enum.Enum):
    """The result word of one order, as reported in results and by `payjudge adjudicate`."""

    SUCCEEDS = "succeeds"  # the order was carried out (a hold: the unit was not dislodged)
    BOUNCED = "bounced"  # a move or retreat that failed against other units
    NO_CONVOY = "no convoy"  # a move by convoy with no complete chain of convoying fleets
    DISRUPTED = "disrupted"  # a convoy broken by a dislodged fleet, or by the paradox rule
    CUT = "cut"  # a support that was cut (or its unit dislodged)
    VOID = "void"  # a support or convoy that matched no order; a surplus build or removal
    DISLODGED = "dislodged"  # a hold or convoy whose unit was dislodged

    def __str__(self) -> str:
        return self.value

    @property
    def succeeded(self) -> bool:
        return self is Result.SUCCEEDS


class OrderOutcome(NamedTuple):
    """One order and what became of it.

    A NamedTuple rather than a frozen dataclass: it is as immutable and as typed, and an
    adjudication makes one per unit, where a frozen dataclass's `__init__` (one
    `object.__setattr__` per field) cost four times as much as a tuple."""

    power: PowerName
    order: Order
    result: Result
    dislodged: bool = False  # the ordered unit was dislodged
    default: bool = False  # the judge gave this order (no order, or civil disorder)

    def __str__(self) -> str:
        return f"{self.order} ({self.result})"
