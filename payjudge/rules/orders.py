"""Typed orders. `str(order)` is the canonical text, which the parser reads back unchanged."""

from __future__ import annotations

from dataclasses import dataclass, field

from .geography import Location, UnitType


@dataclass(frozen=True, slots=True)
class _Text:
    """A value whose `str()` is made once and kept: the text depends only on the fields
    of a frozen dataclass, which never change, and results and reports write the same
    units and orders many times (`read_orders` hands out remembered orders). The kept
    text is no compared field: equality, hashing and `repr` ignore it."""

    _text: str | None = field(default=None, init=False, repr=False, compare=False)

    def _format(self) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        text = self._text
        if text is None:
            text = self._format()
            object.__setattr__(self, "_text", text)
        return text


@dataclass(frozen=True, slots=True)
class Unit(_Text):
    type: UnitType
    location: Location
    # the unit's hold order, made once (like the text) and not compared: the adjudicator
    # gives it to every unit without an order, and units recur phase after phase
    _hold: Hold | None = field(default=None, init=False, repr=False, compare=False)
    # the location's province, kept beside it (not compared): it is read for nearly every
    # unit of every phase, and as a property each read was a Python call
    province: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "province", self.location.province)

    @property
    def hold(self) -> Hold:
        """The order to hold."""
        order = self._hold
        if order is None:
            order = Hold(self)
            object.__setattr__(self, "_hold", order)
        return order

    @classmethod
    def parse(cls, text: str) -> Unit:
        """Canonical text only (`A PAR`, `F STP/SC`); the lenient reader is `parse.py`."""
        kind, loc = text.split()
        return cls(UnitType(kind.upper()), Location.parse(loc))

    def _format(self) -> str:
        return f"{self.type.value} {self.location}"

    def __repr__(self) -> str:
        return f"Unit.parse({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Hold(_Text):
    unit: Unit

    def _format(self) -> str:
        return f"{self.unit} H"


@dataclass(frozen=True, slots=True)
class Move(_Text):
    unit: Unit
    dest: Location
    via_convoy: bool = False
    # the unit where the move takes it, made once (like the text) and not compared: the
    # same order objects come back phase after phase, and so do the units they make
    _arrived: Unit | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def arrived(self) -> Unit:
        """The unit in its new place, if the move succeeds."""
        unit = self._arrived
        if unit is None:
            unit = Unit(self.unit.type, self.dest)
            object.__setattr__(self, "_arrived", unit)
        return unit

    def _format(self) -> str:
        return f"{self.unit} - {self.dest}" + (" VIA CONVOY" if self.via_convoy else "")


@dataclass(frozen=True, slots=True)
class SupportHold(_Text):
    unit: Unit
    supported: Unit

    def _format(self) -> str:
        return f"{self.unit} S {self.supported}"


@dataclass(frozen=True, slots=True)
class SupportMove(_Text):
    unit: Unit
    supported: Unit
    dest: Location  # the coast is kept only when the order named one

    def _format(self) -> str:
        return f"{self.unit} S {self.supported} - {self.dest}"


@dataclass(frozen=True, slots=True)
class Convoy(_Text):
    unit: Unit
    army: Unit
    dest: Location

    def _format(self) -> str:
        return f"{self.unit} C {self.army} - {self.dest}"


@dataclass(frozen=True, slots=True)
class Retreat(_Text):
    unit: Unit
    dest: Location
    _arrived: Unit | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def arrived(self) -> Unit:
        """The unit in its new place, if the retreat succeeds (made once, as for `Move`)."""
        unit = self._arrived
        if unit is None:
            unit = Unit(self.unit.type, self.dest)
            object.__setattr__(self, "_arrived", unit)
        return unit

    def _format(self) -> str:
        return f"{self.unit} R {self.dest}"


@dataclass(frozen=True, slots=True)
class Disband(_Text):
    unit: Unit

    def _format(self) -> str:
        return f"{self.unit} D"


@dataclass(frozen=True, slots=True)
class Build(_Text):
    unit: Unit

    def _format(self) -> str:
        return f"BUILD {self.unit}"


@dataclass(frozen=True, slots=True)
class Remove(_Text):
    unit: Unit

    def _format(self) -> str:
        return f"REMOVE {self.unit}"


@dataclass(frozen=True, slots=True)
class Waive(_Text):
    def _format(self) -> str:
        return "WAIVE"


MovementOrder = Hold | Move | SupportHold | SupportMove | Convoy
RetreatOrder = Retreat | Disband
AdjustmentOrder = Build | Remove | Waive
Order = MovementOrder | RetreatOrder | AdjustmentOrder


def is_move(order: Order) -> bool:
    """A "move" in the sense of Payola's `>` and `@` offers: anything but hold, support, convoy."""
    return isinstance(order, Move)
