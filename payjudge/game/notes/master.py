"""What the Master's commands report: processing, the clock, seats and who acts for whom."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...rules.names import PowerName
from ...rules.phase import Phase
from ...vocabulary import GameStatus, SeatStatus


@dataclass(frozen=True)
class Processed:
    """`templates/notes/processed.txt.j2`: PROCESS and PROCESS!."""

    note: ClassVar[str] = "processed"
    phase: Phase
    next: Phase | None  # the game's phase now (None once it is over)
    late: list[PowerName]  # the powers that got civil-disorder defaults
    state: GameStatus


@dataclass(frozen=True)
class Previewed:
    """`templates/notes/previewed.txt.j2`: PREVIEW."""

    note: ClassVar[str] = "previewed"
    phase: Phase


@dataclass(frozen=True)
class RolledBack:
    """`templates/notes/rolled_back.txt.j2`: ROLLBACK."""

    note: ClassVar[str] = "rolled_back"
    phase: Phase
    restore: bool  # the orders on record were kept


@dataclass(frozen=True)
class DeadlineMoved:
    """`templates/notes/deadline.txt.j2`: SET DEADLINE, or an absence that moved it."""

    note: ClassVar[str] = "deadline"
    deadline: str  # as shown in the game's zone


@dataclass(frozen=True)
class TimingChanged:
    """`templates/notes/timing.txt.j2`: SET TIMING."""

    note: ClassVar[str] = "timing"
    timing: str  # as `Timing.describe` words it


@dataclass(frozen=True)
class StateChanged:
    """`templates/notes/state.txt.j2`: ACTIVATE, PAUSE, TERMINATE."""

    note: ClassVar[str] = "state"
    state: GameStatus
    deadline: str | None  # as shown in the game's zone; None when the clock stopped


@dataclass(frozen=True)
class SeatChanged:
    """`templates/notes/seat.txt.j2`: DUMMY, REVIVE, EJECT."""

    note: ClassVar[str] = "seat"
    power: PowerName
    status: SeatStatus


@dataclass(frozen=True)
class ActingFor:
    """`templates/notes/acting_for.txt.j2`: FOR <power>, or FOR ME (None)."""

    note: ClassVar[str] = "acting_for"
    power: PowerName | None


@dataclass(frozen=True)
class OmniscientChanged:
    """`templates/notes/omniscient.txt.j2`: OMNISCIENT <observer> [OFF]."""

    note: ClassVar[str] = "omniscient"
    observer: str
    on: bool


@dataclass(frozen=True)
class GameStarted:
    """`templates/notes/game_started.txt.j2`: the last JOIN, or ACTIVATE, started the game."""

    note: ClassVar[str] = "game_started"
    game: str
    deadline: str  # as shown in the game's zone
