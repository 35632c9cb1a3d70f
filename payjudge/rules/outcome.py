"""What happened to each order: adjudication outcomes are values, not errors."""

from __future__ import annotations

import enum
from dataclasses import dataclass

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


@dataclass(slots=True, unsafe_hash=True)
class OrderOutcome:
    """One order and what became of it: a value, never changed once made.

    An adjudication makes one per unit, so it is made by the `__init__` below, which the
    compiled engines run in C. Not `frozen`: a frozen dataclass sets each field through
    `object.__setattr__`, and a NamedTuple's `__new__` is Python code; both cost several
    times as much when compiled (the NamedTuple was a tenth of a movement case)."""

    power: PowerName
    order: Order
    result: Result
    dislodged: bool = False  # the ordered unit was dislodged
    default: bool = False  # the judge gave this order (no order, or civil disorder)

    def __init__(
        self, power: PowerName, order: Order, result: Result, dislodged: bool = False, default: bool = False
    ) -> None:
        self.power = power
        self.order = order
        self.result = result
        self.dislodged = dislodged
        self.default = default

    def __str__(self) -> str:
        return f"{self.order} ({self.result})"
