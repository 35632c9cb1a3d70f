"""Typed orders. `str(order)` is the canonical text, which the parser reads back unchanged.

Units and orders are values (`values.Value`: `Final` attributes set once in `__init__`,
equality, hashing and `repr` from `_key`): they are made for every order read and every
unit moved, and a frozen dataclass is the costliest object to make when compiled.
"""

from __future__ import annotations

from typing import Final

from .geography import Location, UnitType
from .values import Value


class _Text(Value):
    """A value whose `str()` is made once and kept: the text depends only on the key,
    which never changes, and results and reports write the same units and orders many
    times (`read_orders` hands out remembered orders). The kept text is no part of the
    key: equality, hashing and `repr` ignore it."""

    __slots__ = ("_text",)

    _text: str | None

    def _format(self) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        text = self._text
        if text is None:
            text = self._text = self._format()
        return text


class Unit(_Text):
    __slots__ = ("_hold", "location", "province", "type")

    type: Final[UnitType]
    location: Final[Location]
    # the location's province, kept beside it: it is read for nearly every unit of every
    # phase, and as a property each read was a Python call
    province: Final[str]
    # the unit's hold order, made once (like the text): the adjudicator gives it to every
    # unit without an order, and units recur phase after phase
    _hold: Hold | None

    def __init__(self, type: UnitType, location: Location) -> None:
        self.type = type
        self.location = location
        self.province = location.province
        self._hold = None
        self._text = None

    def _key(self) -> tuple[object, ...]:
        return (self.type, self.location)

    @property
    def hold(self) -> Hold:
        """The order to hold."""
        order = self._hold
        if order is None:
            order = self._hold = Hold(self)
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


class _Goes(_Text):
    """An order that takes its unit somewhere (a move, a retreat), with the unit it makes
    there."""

    __slots__ = ("_arrived", "dest", "unit")

    unit: Final[Unit]
    dest: Final[Location]
    # the unit where the order takes it, made once (like the text): the same order objects
    # come back phase after phase, and so do the units they make
    _arrived: Unit | None

    def __init__(self, unit: Unit, dest: Location) -> None:
        self.unit = unit
        self.dest = dest
        self._arrived = None
        self._text = None

    @property
    def arrived(self) -> Unit:
        """The unit in its new place, if the order succeeds."""
        unit = self._arrived
        if unit is None:
            unit = self._arrived = Unit(self.unit.type, self.dest)
        return unit


class Move(_Goes):
    __slots__ = ("via_convoy",)

    via_convoy: Final[bool]

    def __init__(self, unit: Unit, dest: Location, via_convoy: bool = False) -> None:
        super().__init__(unit, dest)
        self.via_convoy = via_convoy

    def _key(self) -> tuple[object, ...]:
        return (self.unit, self.dest, self.via_convoy)

    def _format(self) -> str:
        return f"{self.unit} - {self.dest}" + (" VIA CONVOY" if self.via_convoy else "")


class SupportHold(_Text):
    __slots__ = ("supported", "unit")

    unit: Final[Unit]
    supported: Final[Unit]

    def __init__(self, unit: Unit, supported: Unit) -> None:
        self.unit = unit
        self.supported = supported
        self._text = None

    def _key(self) -> tuple[object, ...]:
        return (self.unit, self.supported)

    def _format(self) -> str:
        return f"{self.unit} S {self.supported}"


class SupportMove(_Text):
    __slots__ = ("dest", "supported", "unit")

    unit: Final[Unit]
    supported: Final[Unit]
    dest: Final[Location]  # the coast is kept only when the order named one

    def __init__(self, unit: Unit, supported: Unit, dest: Location) -> None:
        self.unit = unit
        self.supported = supported
        self.dest = dest
        self._text = None

    def _key(self) -> tuple[object, ...]:
        return (self.unit, self.supported, self.dest)

    def _format(self) -> str:
        return f"{self.unit} S {self.supported} - {self.dest}"


class Convoy(_Text):
    __slots__ = ("army", "dest", "unit")

    unit: Final[Unit]
    army: Final[Unit]
    dest: Final[Location]

    def __init__(self, unit: Unit, army: Unit, dest: Location) -> None:
        self.unit = unit
        self.army = army
        self.dest = dest
        self._text = None

    def _key(self) -> tuple[object, ...]:
        return (self.unit, self.army, self.dest)

    def _format(self) -> str:
        return f"{self.unit} C {self.army} - {self.dest}"


class Retreat(_Goes):
    __slots__ = ()

    def _key(self) -> tuple[object, ...]:
        return (self.unit, self.dest)

    def _format(self) -> str:
        return f"{self.unit} R {self.dest}"


class _UnitOrder(_Text):
    """An order that names only its unit (hold, disband, build, remove): they differ in
    their text alone, and, being of different classes, are never equal to each other."""

    __slots__ = ("unit",)

    unit: Final[Unit]

    def __init__(self, unit: Unit) -> None:
        self.unit = unit
        self._text = None

    def _key(self) -> tuple[object, ...]:
        return (self.unit,)


class Hold(_UnitOrder):
    __slots__ = ()

    def _format(self) -> str:
        return f"{self.unit} H"


class Disband(_UnitOrder):
    __slots__ = ()

    def _format(self) -> str:
        return f"{self.unit} D"


class Build(_UnitOrder):
    __slots__ = ()

    def _format(self) -> str:
        return f"BUILD {self.unit}"


class Remove(_UnitOrder):
    __slots__ = ()

    def _format(self) -> str:
        return f"REMOVE {self.unit}"


class Waive(_Text):
    __slots__ = ()

    def __init__(self) -> None:
        self._text = None

    def _key(self) -> tuple[object, ...]:
        return ()

    def _format(self) -> str:
        return "WAIVE"


MovementOrder = Hold | Move | SupportHold | SupportMove | Convoy
RetreatOrder = Retreat | Disband
AdjustmentOrder = Build | Remove | Waive
Order = MovementOrder | RetreatOrder | AdjustmentOrder


def is_move(order: Order) -> bool:
    """A "move" in the sense of Payola's `>` and `@` offers: anything but hold, support, convoy."""
    return isinstance(order, Move)
