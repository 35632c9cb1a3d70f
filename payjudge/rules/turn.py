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
from .geography import Map
from .movement import adjudicate_movement
from .orders import Order, Unit
from .outcome import OrderOutcome
from .parse import ParsedOrder, parse_order
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


_PARSED_CACHE_SIZE = 50_000


def _parsed(text: str, game_map: Map) -> ParsedOrder:
    """`parse_order`, remembered per map: parsing depends only on the text and the map,
    and the same order texts come back phase after phase (parsing is the costly part
    of reading an order)."""
    cache = game_map.derived("turn:parsed", lambda m: {})
    hit = cache.get(text)
    if hit is None:
        hit = parse_order(text, game_map)  # an InvalidOrder is not remembered
        if len(cache) >= _PARSED_CACHE_SIZE:
            cache.clear()
        cache[text] = hit
    return hit


def read_orders(position: Position, texts: Mapping[str, Iterable[str]],
                *, check_owner: bool = True
                ) -> tuple[dict[str, list[Order]], list[OrderProblem]]:
    """Parse and check each power's order texts, keeping the order they were given in."""
    accepted: dict[str, list[Order]] = {}
    problems: list[OrderProblem] = []
    game_map = position.map
    for power, lines in texts.items():
        for text in lines:
            try:
                order = validate(_parsed(text, game_map), position, power,
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
    clashing: dict[str, None] = {}  # a dict, not a set: problems come out in a fixed order
    owner: dict[str, str] = {}
    for power, lst in orders.items():
        for order in lst:
            province = order.unit.province  # type: ignore[union-attr]
            if province in chosen and chosen[province] != order:
                clashing[province] = None
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
        unordered = frozenset(p for p in position._at if p not in by_unit)  # they hold
        result = adjudicate_movement(position, by_unit, unordered)
        stranded = {p: tuple(d for d in ds if d.retreats) for p, ds in result.dislodged.items()}
        destroyed = tuple((p, d.unit) for p, ds in result.dislodged.items() for d in ds if not d.retreats)
        units, dislodged = result.units, stranded
        report = PhaseReport(position.phase, position, result.outcomes, tuple(problems),
                             result.dislodged, destroyed)
    elif kind is PhaseType.RETREATS:
        by_unit = _by_unit(orders, problems)
        outcomes, units = adjudicate_retreats(position, by_unit)
        dislodged = {}
        report = PhaseReport(position.phase, position, outcomes, tuple(problems))
    else:
        outcomes, units = adjudicate_adjustments(position, dict(orders))
        dislodged = position.dislodged
        report = PhaseReport(position.phase, position, outcomes, tuple(problems))
    nxt, changes = _next_position(position, units, dislodged)
    if changes:
        report = PhaseReport(report.phase, report.before, report.outcomes, report.errors,
                             report.dislodged, report.destroyed, changes)
    return report, nxt


def advance(position: Position, texts: Mapping[str, Iterable[str]]) -> tuple[PhaseReport, Position]:
    """Read order texts, adjudicate the phase, and return the next position."""
    orders, problems = read_orders(position, texts)
    return play(position, orders, problems)


def _next_position(before: Position, units: Mapping[str, Sequence[Unit]],
                   dislodged: Mapping[str, Sequence[Dislodged]]) -> tuple[Position, tuple]:
    """Step to the next phase that really happens, from the units after `before`'s phase."""
    m, centers, phase = before.map, before.centers, before.phase
    changes: tuple = ()
    while True:
        phase = phase.next()
        if phase.type is PhaseType.RETREATS:
            if any(dislodged.values()):
                return Position(m, phase, units, centers, dislodged), changes
            continue
        if phase.type is PhaseType.ADJUSTMENTS:
            centers, changes = _captured(m, units, centers)
            pos = Position(m, phase, units, centers, dislodged)
            if adjustments_due(pos):
                return pos, changes
            continue
        return Position(m, phase, units, centers, dislodged), changes


def _captured(m: Map, units: Mapping[str, Sequence[Unit]], centers: Mapping[str, frozenset[str]]
              ) -> tuple[Mapping[str, frozenset[str]], tuple[tuple[str, str | None, str], ...]]:
    """Centre ownership once each supply centre belongs to the power whose unit stands on it."""
    owner = {c: p for p, cs in centers.items() for c in cs}
    changes = []
    provinces = m.provinces
    for power, us in units.items():
        for unit in us:
            province = unit.location.province
            if provinces[province].supply_center and owner.get(province) != power:
                changes.append((province, owner.get(province), power))
                owner[province] = power
    if not changes:
        return centers, ()
    new: dict[str, set[str]] = {}
    for c, p in owner.items():
        new.setdefault(p, set()).add(c)
    return {p: frozenset(cs) for p, cs in new.items()}, tuple(sorted(changes))


def winner(pos: Position) -> str | None:
    """The power that holds the victory number of centres, if any (checked after the fall)."""
    won = winners(pos)
    return won[0] if won else None


def home_victory(m: Map) -> int:
    """VICTORY_HOMES: half the home centres of the other powers, on average, plus one
    (10 on the standard map: (22 - 22/7) / 2 + 1, rounded down)."""
    homes = sum(len(m.power(p).homes) for p in m.power_names)
    others = homes - homes / max(len(m.power_names), 1)
    return int(others / 2 + 1)


def victory_scores(pos: Position, *, homes: bool = False) -> dict[str, int]:
    """What each power counts towards victory: its centres, or under VICTORY_HOMES the home
    centres of other powers it owns."""
    if not homes:
        return {p: len(pos.centers.get(p, ())) for p in pos.map.power_names}
    home_of = {h: p for p in pos.map.power_names for h in pos.map.power(p).homes}
    return {p: sum(1 for c in pos.centers.get(p, ()) if home_of.get(c, p) != p)
            for p in pos.map.power_names}


def winners(pos: Position, *, homes: bool = False, shared: bool = False) -> tuple[str, ...]:
    """The powers that have won: the one that reaches the victory condition with a count
    no other power reaches equals (a tie goes on), or under SHARED_VICTORY every power that
    reaches it. `homes` counts as VICTORY_HOMES does."""
    score = victory_scores(pos, homes=homes)
    need = home_victory(pos.map) if homes else pos.map.victory
    reached = [p for p in pos.map.power_names if score[p] >= need]
    if shared or len(reached) < 2:
        return tuple(reached)
    best = max(score[p] for p in reached)
    top = [p for p in reached if score[p] == best]
    return tuple(top) if len(top) == 1 else ()

