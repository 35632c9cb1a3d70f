"""Column types that store the judge's typed values as plain text: an enum of
`payjudge.vocabulary` as its value, a `Phase` as its short name (`S1901M`), a seat's
`Vote` in its column form (`concede:FRANCE`).

The database keeps the strings it always kept (no migration of the data), and the rows
the store hands out carry the typed values: `game.state` is a `GameStatus`, `turn.phase` a
`Phase`. A value that is not one of the enum's, or not a phase, is refused on the way in
and on the way out, so a misspelt state cannot be written or read unnoticed.
"""

from __future__ import annotations

import enum
from typing import Any, Generic, TypeVar

from sqlalchemy import String
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator

from ..rules.phase import Phase
from ..text.votes import Vote

E = TypeVar("E", bound=enum.Enum)


class EnumText(TypeDecorator[E], Generic[E]):
    """An enum stored as its value (a string). Members and their values are accepted."""

    impl = String
    cache_ok = True

    def __init__(self, enum_type: type[E], length: int = 16):
        super().__init__(length)
        self.enum_type = enum_type
        self.length = length

    def process_bind_param(self, value: Any, dialect: Dialect) -> str | None:
        if value is None:
            return None
        return str(self.enum_type(value).value)

    def process_result_value(self, value: Any, dialect: Dialect) -> E | None:
        if value is None:
            return None
        return self.enum_type(value)

    def copy(self, **kw: Any) -> EnumText[E]:
        return EnumText(self.enum_type, self.length)

    def __repr__(self) -> str:
        return f"EnumText({self.enum_type.__name__}, {self.length})"


class PhaseText(TypeDecorator[Phase]):
    """A phase stored as its short name (`S1901M`); `Phase.parse` accepts what it is given
    as text, so a long name (`SPRING 1901 MOVEMENT`) is stored short."""

    impl = String(16)
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Dialect) -> str | None:
        if value is None:
            return None
        return str(value if isinstance(value, Phase) else Phase.parse(str(value)))

    def process_result_value(self, value: Any, dialect: Dialect) -> Phase | None:
        if value is None:
            return None
        return Phase.parse(value)

    def __repr__(self) -> str:
        return "PhaseText()"


class VoteText(TypeDecorator[Vote]):
    """A seat's standing vote stored in its column form (`draw:3`, `concede:FRANCE`,
    `propose_draw`: `Vote.stored`); a text that is no vote is refused both ways."""

    impl = String(32)
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Dialect) -> str | None:
        if value is None:
            return None
        if not isinstance(value, Vote):
            raise TypeError(f"{value!r} is not a Vote")
        return value.stored

    def process_result_value(self, value: Any, dialect: Dialect) -> Vote | None:
        if value is None:
            return None
        return Vote.from_stored(value)

    def __repr__(self) -> str:
        return "VoteText()"
