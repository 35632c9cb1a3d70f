"""Typed orders. `str(order)` is the canonical text, which the parser reads back unchanged."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from .geography import Location, UnitType


@dataclass(frozen=True, slots=True)
class Unit:
    type: UnitType
    location: Location
    # str(unit), kept once asked for: reports and results write each unit many times, and
    # the text depends only on the two fields above, which never change (not compared)
    _text: str | None = field(default=None, init=False, repr=False, compare=False)

    @classmethod
    def parse(cls, text: str) -> Unit:
        """Canonical text only (`A PAR`, `F STP/SC`); the lenient reader is `parse.py`."""
        kind, loc = text.split()
        return cls(UnitType(kind.upper()), Location.parse(loc))

    @property
    def province(self) -> str:
        return self.location.province

    def __str__(self) -> str:
        text = self._text
        if text is None:
            text = f"{self.type.value} {self.location}"
            object.__setattr__(self, "_text", text)
        return text

    def __repr__(self) -> str:
        return f"Unit.parse({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Hold:
    unit: Unit

    def __str__(self) -> str:
        return f"{self.unit} H"


@dataclass(frozen=True, slots=True)
class Move:
    unit: Unit
    dest: Location
    via_convoy: bool = False

    def __str__(self) -> str:
        return f"{self.unit} - {self.dest}" + (" VIA CONVOY" if self.via_convoy else "")


@dataclass(frozen=True, slots=True)
class SupportHold:
    unit: Unit
    supported: Unit

    def __str__(self) -> str:
        return f"{self.unit} S {self.supported}"


@dataclass(frozen=True, slots=True)
class SupportMove:
    unit: Unit
    supported: Unit
    dest: Location  # the coast is kept only when the order named one

    def __str__(self) -> str:
        return f"{self.unit} S {self.supported} - {self.dest}"


@dataclass(frozen=True, slots=True)
class Convoy:
    unit: Unit
    army: Unit
    dest: Location

    def __str__(self) -> str:
        return f"{self.unit} C {self.army} - {self.dest}"


@dataclass(frozen=True, slots=True)
class Retreat:
    unit: Unit
    dest: Location

    def __str__(self) -> str:
        return f"{self.unit} R {self.dest}"


@dataclass(frozen=True, slots=True)
class Disband:
    unit: Unit

    def __str__(self) -> str:
        return f"{self.unit} D"


@dataclass(frozen=True, slots=True)
class Build:
    unit: Unit

    def __str__(self) -> str:
        return f"BUILD {self.unit}"


@dataclass(frozen=True, slots=True)
class Remove:
    unit: Unit

    def __str__(self) -> str:
        return f"REMOVE {self.unit}"


@dataclass(frozen=True, slots=True)
class Waive:
    def __str__(self) -> str:
        return "WAIVE"


MovementOrder = Union[Hold, Move, SupportHold, SupportMove, Convoy]
RetreatOrder = Union[Retreat, Disband]
AdjustmentOrder = Union[Build, Remove, Waive]
Order = Union[MovementOrder, RetreatOrder, AdjustmentOrder]

MOVEMENT_ORDERS = (Hold, Move, SupportHold, SupportMove, Convoy)


def is_move(order: Order) -> bool:
    """A "move" in the sense of Payola's `>` and `@` offers: anything but hold, support, convoy."""
    return isinstance(order, Move)
