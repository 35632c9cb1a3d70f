"""Play one phase: read and check the orders, adjudicate, and find the next position.

A phase the rules skip (no retreats to make, no adjustment due) is skipped here too;
centres change hands after the last phase of the fall. Units without orders behave as
the rules say: they hold, a dislodged unit disbands, a required removal is made by the
civil-disorder rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

from .adjustments import adjudicate_adjustments, adjustments_due
from .errors import OrderError, ProblemKind
from .movement import adjudicate_movement
from .orders import Order, Unit
from .outcome import OrderOutcome
from .parse import parse_order
from .phase import Phase, PhaseType, Season
from .position import Dislodged, Position
from .retreats import adjudicate_retreats
from .validate import validate


@dataclass(frozen=True, slots=True)
class OrderProblem:
    """An order that was not accepted: who gave it, its text, and why."""

    power: str
    text: str
    message: str
    kind: ProblemKind

    def __str__(self) -> str:
        return f"{self.power}: {self.text}: {self.message}"


@dataclass(frozen=True)
class PhaseReport:
    """Everything that happened in one phase."""

    phase: Phase
    before: Position
    outcomes: tuple[OrderOutcome, ...]
    errors: tuple[OrderProblem, ...] = ()
    dislodged: Mapping[str, tuple[Dislodged, ...]] = field(default_factory=dict)
    destroyed: tuple[tuple[str, Unit], ...] = ()       # dislodged with nowhere to go
    center_changes: tuple[tuple[str, str | None, str], ...] = ()  # (centre, from, to)


def read_orders(position: Position, texts: Mapping[str, Iterable[str]],
                *, check_owner: bool = True
                ) -> tuple[dict[str, list[Order]], list[OrderProblem]]:
    """Parse and check each power's order texts, keeping the order they were given in."""
    accepted: dict[str, list[Order]] = {}
    problems: list[OrderProblem] = []
    for power, lines in texts.items():
        for text in lines:
            try:
                order = validate(parse_order(text, position.map), position, power,
                                 check_owner=check_owner)
            except OrderError as exc:
                problems.append(OrderProblem(power, text, str(exc), exc.kind))
                continue
            accepted.setdefault(power, []).append(order)
    return accepted, problems


def _by_unit(orders: Mapping[str, Sequence[Order]], problems: list[OrderProblem]) -> dict[str, Order]:
    """One order per unit. Two different orders to one unit cancel each other: it holds
    (DATC 4.D.3, choice c)."""
    chosen: dict[str, Order] = {}
    clashing: set[str] = set()
    owner: dict[str, str] = {}
    for power, lst in orders.items():
        for order in lst:
            province = order.unit.province  # type: ignore[union-attr]
            if province in chosen and chosen[province] != order:
                clashing.add(province)
                problems.append(OrderProblem(power, str(order),
                                             f"{order.unit} was given two different orders",  # type: ignore[union-attr]
                                             ProblemKind.AMBIGUOUS))
            chosen.setdefault(province, order)
            owner[province] = power
    for province in clashing:
        problems.append(OrderProblem(owner[province], str(chosen[province]),
                                     f"{chosen[province].unit} was given two different orders",  # type: ignore[union-attr]
                                     ProblemKind.AMBIGUOUS))
        del chosen[province]
    return chosen


def play(position: Position, orders: Mapping[str, Sequence[Order]],
         problems: Sequence[OrderProblem] = ()) -> tuple[PhaseReport, Position]:
    """Adjudicate validated orders (per power, in the order given) and advance."""
    problems = list(problems)
    kind = position.phase.type
    if kind is PhaseType.MOVEMENT:
        by_unit = _by_unit(orders, problems)
        result = adjudicate_movement(position, by_unit)
        stranded = {p: tuple(d for d in ds if d.retreats) for p, ds in result.dislodged.items()}
        destroyed = tuple((p, d.unit) for p, ds in result.dislodged.items() for d in ds if not d.retreats)
        after = position.replace(units=result.units, dislodged=stranded)
        report = PhaseReport(position.phase, position, result.outcomes, tuple(problems),
                             result.dislodged, destroyed)
    elif kind is PhaseType.RETREATS:
        by_unit = _by_unit(orders, problems)
        outcomes, units = adjudicate_retreats(position, by_unit)
        after = position.replace(units=units, dislodged={})
        report = PhaseReport(position.phase, position, outcomes, tuple(problems))
    else:
        outcomes, units = adjudicate_adjustments(position, dict(orders))
        after = position.replace(units=units)
        report = PhaseReport(position.phase, position, outcomes, tuple(problems))
    nxt, changes = _next_position(after)
    if changes:
        report = PhaseReport(report.phase, report.before, report.outcomes, report.errors,
                             report.dislodged, report.destroyed, changes)
    return report, nxt


def advance(position: Position, texts: Mapping[str, Iterable[str]]) -> tuple[PhaseReport, Position]:
    """Read order texts, adjudicate the phase, and return the next position."""
    orders, problems = read_orders(position, texts)
    return play(position, orders, problems)


def _next_position(pos: Position) -> tuple[Position, tuple]:
    """Step to the next phase that really happens."""
    changes: tuple = ()
    phase = pos.phase
    while True:
        phase = phase.next()
        if phase.type is PhaseType.RETREATS:
            if pos.dislodged:
                return pos.replace(phase=phase), changes
            continue
        if phase.type is PhaseType.ADJUSTMENTS:
            pos, changes = update_centers(pos)
            if adjustments_due(pos.replace(phase=phase)):
                return pos.replace(phase=phase), changes
            continue
        return pos.replace(phase=phase), changes


def update_centers(pos: Position) -> tuple[Position, tuple[tuple[str, str | None, str], ...]]:
    """After the fall: each supply centre belongs to the power whose unit stands on it."""
    owner = {c: p for p, cs in pos.centers.items() for c in cs}
    changes = []
    for power, unit in pos.all_units():
        province = unit.province
        if pos.map.provinces[province].supply_center and owner.get(province) != power:
            changes.append((province, owner.get(province), power))
            owner[province] = power
    if not changes:
        return pos, ()
    centers: dict[str, set[str]] = {}
    for c, p in owner.items():
        centers.setdefault(p, set()).add(c)
    return pos.replace(centers={p: frozenset(cs) for p, cs in centers.items()}), tuple(sorted(changes))


def winner(pos: Position) -> str | None:
    """The power that holds the victory number of centres, if any (checked after the fall)."""
    best = max(pos.map.power_names, key=lambda p: len(pos.centers.get(p, ())))
    return best if len(pos.centers.get(best, ())) >= pos.map.victory else None


def is_fall_end(phase: Phase) -> bool:
    return phase.season is Season.WINTER
