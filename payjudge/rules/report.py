"""What playing a phase gives beside the next position: its report (`PhaseReport`), and
the orders that were not accepted (`OrderProblem`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from .errors import ProblemKind
from .names import PowerName
from .orders import Unit
from .outcome import OrderOutcome
from .phase import Phase
from .position import Dislodged, Position


@dataclass(frozen=True, slots=True)
class OrderProblem:
    """An order that was not accepted: who gave it, its text, and why."""

    power: PowerName
    text: str
    message: str
    kind: ProblemKind

    def __str__(self) -> str:
        return f"{self.power}: {self.text}: {self.message}"


class PhaseReport:
    """Everything that happened in one phase: a value, whose attributes never change.

    A plain class with `Final` attributes (mypy refuses any assignment after `__init__`,
    and the compiled class's attributes are read-only): made once per phase, where a
    frozen dataclass set each of its ten fields through `object.__setattr__`."""

    __slots__ = (
        "before",
        "center_changes",
        "control",
        "destroyed",
        "dislodged",
        "errors",
        "outcomes",
        "phase",
        "stranded",
        "torn",
    )

    phase: Final[Phase]
    before: Final[Position]
    outcomes: Final[tuple[OrderOutcome, ...]]
    errors: Final[tuple[OrderProblem, ...]]
    dislodged: Final[Mapping[PowerName, tuple[Dislodged, ...]]]
    destroyed: Final[tuple[tuple[str, Unit], ...]]  # dislodged with nowhere to go
    center_changes: Final[tuple[tuple[str, PowerName | None, PowerName], ...]]  # (centre, from, to)
    # units destroyed by the terrain of the phases that follow (a map's `IN` lines): on a
    # space their kind cannot stand on, where UNITS_ADAPT and HIBERNATE do not save them
    stranded: Final[tuple[tuple[PowerName, Unit], ...]]
    control: Final[Mapping[PowerName, PowerName] | None]  # VASSAL_DUMMIES: the control after the fall
    torn: Final[tuple[tuple[PowerName, Unit], ...]]  # TORN_ALLEGIANCE: vassal units destroyed

    def __init__(
        self,
        phase: Phase,
        before: Position,
        outcomes: tuple[OrderOutcome, ...],
        errors: tuple[OrderProblem, ...] = (),
        dislodged: Mapping[PowerName, tuple[Dislodged, ...]] | None = None,
        destroyed: tuple[tuple[str, Unit], ...] = (),
        center_changes: tuple[tuple[str, PowerName | None, PowerName], ...] = (),
        stranded: tuple[tuple[PowerName, Unit], ...] = (),
        control: Mapping[PowerName, PowerName] | None = None,
        torn: tuple[tuple[PowerName, Unit], ...] = (),
    ) -> None:
        self.phase = phase
        self.before = before
        self.outcomes = outcomes
        self.errors = errors
        self.dislodged = {} if dislodged is None else dislodged
        self.destroyed = destroyed
        self.center_changes = center_changes
        self.stranded = stranded
        self.control = control
        self.torn = torn

    def __repr__(self) -> str:
        return f"PhaseReport({self.phase}, {len(self.outcomes)} outcomes, {len(self.errors)} errors)"
