"""The three ways an order can be wrong, after python-chess: not understood, not
allowed, or not precise enough."""

from __future__ import annotations

import enum
from typing import ClassVar


class ProblemKind(enum.Enum):
    INVALID = "invalid"  # not understood
    ILLEGAL = "illegal"  # understood, not allowed (the message names the unit and why)
    AMBIGUOUS = "ambiguous"  # understood, but could mean more than one order


class OrderError(ValueError):
    # a class attribute of each kind of error (ClassVar: not an attribute of each instance)
    kind: ClassVar[ProblemKind] = ProblemKind.INVALID

    @property
    def message(self) -> str:
        return str(self)


class InvalidOrder(OrderError):
    kind = ProblemKind.INVALID


class IllegalOrder(OrderError):
    kind = ProblemKind.ILLEGAL


class AmbiguousOrder(OrderError):
    kind = ProblemKind.AMBIGUOUS
