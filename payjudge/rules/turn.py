"""Play one phase: read and check the orders, adjudicate, and find the next position.

A phase the rules skip (no retreats to make, no adjustment due) is skipped here too;
centres change hands after the last phase of the fall. Units without orders behave as
the rules say: they hold, a dislodged unit disbands, a required removal is made by the
civil-disorder rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, cast

from .adjustments import adjudicate_adjustments, adjustments_due, mobilized_centers
from .borders import borders
from .convoys import chain_looked_for, fleet_chain
from .errors import OrderError, ProblemKind
from .flags import Flag
from .geography import Map
from .movement import adjudicate_movement
from .names import PowerName, ProvinceName
from .orders import Build, Convoy, Order, SupportHold, SupportMove, Unit, Waive
from .outcome import OrderOutcome
from .parse import ParsedOrder, parse_order
from .phase import Phase, PhaseType
from .position import Dislodged, Position, mobilizing
from .retreats import adjudicate_retreats
from .terrain import adapt_units, phase_map
from .validate import validate
from .vassals import settle


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


_PARSED_CACHE_SIZE: Final = 50_000


def _new_parsed_cache(_map: Map) -> dict[str, ParsedOrder]:
    return {}


def _parsed(text: str, game_map: Map) -> ParsedOrder:
    """`parse_order`, remembered per map: parsing depends only on the text and the map,
    and the same order texts come back phase after phase (parsing is the costly part
    of reading an order)."""
    cache = game_map.derived("turn:parsed", _new_parsed_cache)
    hit = cache.get(text)
    if hit is None:
        hit = parse_order(text, game_map)  # an InvalidOrder is not remembered
        if len(cache) >= _PARSED_CACHE_SIZE:
            cache.clear()
        cache[text] = hit
    return hit


@dataclass(slots=True, unsafe_hash=True)
class _Accepted:
    """A movement order accepted before, with what must still hold for it to be accepted
    again (the provinces are kept beside their units: they are read for every order)."""

    order: Order
    unit: Unit  # the ordered unit
    province: str  # its province
    target: Unit | None  # the unit a support or convoy names
    target_province: str  # "" when there is no target
    chain: tuple[str, str, str | None] | None  # `validate.chain_looked_for`

    def __init__(
        self,
        order: Order,
        unit: Unit,
        province: str,
        target: Unit | None,
        target_province: str,
        chain: tuple[str, str, str | None] | None,
    ) -> None:
        self.order = order
        self.unit = unit
        self.province = province
        self.target = target
        self.target_province = target_province
        self.chain = chain


_Remembered = dict[str, _Accepted]
_NOBODY: Final[tuple[str, Unit | None]] = ("", None)


def _validated(text: str, position: Position, power: PowerName, remembered: _Remembered) -> Order:
    """`validate` of a movement order given by `power`, remembered per map.

    Orders come back phase after phase, and the units they name are often the very same
    `Unit` objects (a case's units come from one cache, and a unit that stays put keeps its
    object). A movement order is legal or not by the map, the units it names and, for a
    convoy, whether a chain of fleets is on the board (`validate.chain_looked_for`); and
    whoever gives it must own its unit. So the order accepted before is the answer again
    when the text is the same, the same unit objects stand in the same places, the unit
    belongs to `power` and the chain of fleets, if one was needed, is still there.
    Refusals are not remembered.
    """
    hit = remembered.get(text)
    if hit is not None:
        at = position._at
        here = at.get(hit.province)
        target, chain = hit.target, hit.chain
        if (
            here is not None
            and here[1] is hit.unit
            and here[0] == power
            and (target is None or at.get(hit.target_province, _NOBODY)[1] is target)
            and (chain is None or fleet_chain(position, chain[0], chain[1], chain[2]))
        ):
            return hit.order
    order = validate(_parsed(text, position.map), position, power)
    if isinstance(order, Waive):  # not a movement order: nothing to remember it by
        return order
    if len(remembered) >= _PARSED_CACHE_SIZE:
        remembered.clear()
    target = (
        order.supported
        if isinstance(order, (SupportHold, SupportMove))
        else order.army
        if isinstance(order, Convoy)
        else None
    )
    remembered[text] = _Accepted(
        order,
        order.unit,
        order.unit.province,
        target,
        "" if target is None else target.province,
        chain_looked_for(order, position.map),
    )
    return order


def read_orders(
    position: Position,
    texts: Mapping[PowerName, Iterable[str]],
    *,
    check_owner: bool = True,
    flags: frozenset[Flag] = frozenset(),
    dummies: frozenset[PowerName] = frozenset(),
) -> tuple[dict[PowerName, list[Order]], list[OrderProblem]]:
    """Parse and check each power's order texts, keeping the order they were given in."""
    accepted: dict[PowerName, list[Order]] = {}
    problems: list[OrderProblem] = []
    game_map = position.map
    remembered: _Remembered | None = None
    # remembered validations hold for the plain rules only: flags and dummies change
    # what is legal (IMMOBILE_DUMMIES, the convoy flags), so they go the long way; so does
    # a map with a border only a centre's owner may cross (the same order, legal or not by
    # who owns the centre, which a remembered order does not check)
    if (
        check_owner
        and position.phase.is_movement
        and not flags
        and not dummies
        and not borders(game_map).restricted
    ):
        remembered = game_map.derived("turn:validated", lambda m: {})
    for power, lines in texts.items():
        mine: list[Order] = []
        for text in lines:
            try:
                if remembered is not None:
                    order = _validated(text, position, power, remembered)
                else:
                    order = validate(
                        _parsed(text, game_map),
                        position,
                        power,
                        check_owner=check_owner,
                        flags=flags,
                        dummies=dummies,
                    )
            except OrderError as exc:
                problems.append(OrderProblem(power, text, str(exc), exc.kind))
                continue
            mine.append(order)
        if mine:
            accepted[power] = mine
    return accepted, problems


def _by_unit(orders: Mapping[PowerName, Sequence[Order]], problems: list[OrderProblem]) -> dict[str, Order]:
    """One order per unit. Two different orders to one unit cancel each other: it holds
    (DATC 4.D.3, choice c)."""
    chosen: dict[str, Order] = {}
    clashing: dict[str, Unit] = {}  # a dict, not a set: problems come out in a fixed order
    owner: dict[str, PowerName] = {}
    for power, lst in orders.items():
        for order in lst:
            if isinstance(order, Waive):  # an adjustment order: it names no unit
                continue
            province = order.unit.province
            first = chosen.get(province)
            if first is None:
                chosen[province] = order
            elif first != order:
                clashing[province] = order.unit
                problems.append(
                    OrderProblem(
                        power,
                        str(order),
                        f"{order.unit} was given two different orders",
                        ProblemKind.AMBIGUOUS,
                    )
                )
            owner[province] = power
    for province, unit in clashing.items():
        problems.append(
            OrderProblem(
                owner[province],
                str(chosen[province]),
                f"{unit} was given two different orders",
                ProblemKind.AMBIGUOUS,
            )
        )
        del chosen[province]
    return chosen


def play(
    position: Position,
    orders: Mapping[PowerName, Sequence[Order]],
    problems: Sequence[OrderProblem] = (),
    *,
    flags: frozenset[Flag] = frozenset(),
    dummies: frozenset[PowerName] = frozenset(),
    control: Mapping[PowerName, PowerName] | None = None,
) -> tuple[PhaseReport, Position]:
    """Adjudicate validated orders (per power, in the order given) and advance.

    `flags` are the rule flags in force (all of them, implied ones included), `dummies`
    the dummy powers nobody controls, `control` each controlled power's controller
    (VASSAL_DUMMIES: the vassal states, which are dummies too). A power that gave no order
    at all (none accepted, none refused) is in civil disorder for the retreat and
    adjustment phases."""
    problems = list(problems)
    kind = position.phase.type
    ordered = {p for p, lst in orders.items() if lst} | {e.power for e in problems}
    if kind is PhaseType.MOVEMENT:
        played = _play_movement(position, _by_unit(orders, problems), flags, dummies)
    elif kind is PhaseType.RETREATS:
        played = _play_retreats(position, _by_unit(orders, problems), ordered, flags)
    else:
        played = _play_adjustments(position, orders, ordered, flags)
    outcomes, units, dislodged, reported, destroyed = played
    start = position
    if kind is PhaseType.ADJUSTMENTS and mobilizing(position, flags):
        start = _mobilized(position, outcomes, flags)
    vassals = None
    if Flag.VASSAL_DUMMIES in flags:
        vassals = _Vassals(dummies | frozenset(control or {}), dict(control or {}))
    nxt, changes, stranded = _next_position(start, units, dislodged, flags, vassals)
    # the report is made once, with everything in it (`dataclasses.replace` of a report
    # costs as much as a small adjudication)
    settled = vassals is not None and vassals.settled
    report = PhaseReport(
        position.phase,
        position,
        outcomes,
        tuple(problems),
        reported,
        destroyed,
        changes,
        stranded,
        vassals.control if settled else None,  # type: ignore[union-attr]
        vassals.torn if settled else (),  # type: ignore[union-attr]
    )
    return report, nxt


# what a phase's adjudication gives `play`: the outcomes, the units after it, the units
# that must retreat, the dislodged units reported, and the units destroyed
_Played = tuple[
    tuple[OrderOutcome, ...],
    Mapping[PowerName, tuple[Unit, ...]],
    Mapping[PowerName, tuple[Dislodged, ...]],
    Mapping[PowerName, tuple[Dislodged, ...]],
    tuple[tuple[str, Unit], ...],
]


def _play_movement(
    position: Position, by_unit: dict[str, Order], flags: frozenset[Flag], dummies: frozenset[PowerName]
) -> _Played:
    unordered = frozenset(position._at.keys() - by_unit.keys())  # they hold
    result = adjudicate_movement(position, by_unit, unordered, flags=flags, dummies=dummies)
    keep = Flag.NO_RETREAT not in flags  # NO_RETREAT: every dislodged unit is destroyed
    retreating = {p: tuple(d for d in ds if d.retreats and keep) for p, ds in result.dislodged.items()}
    destroyed = tuple(
        (p, d.unit) for p, ds in result.dislodged.items() for d in ds if not (d.retreats and keep)
    )
    return result.outcomes, result.units, retreating, result.dislodged, destroyed


def _play_retreats(
    position: Position, by_unit: dict[str, Order], ordered: set[PowerName], flags: frozenset[Flag]
) -> _Played:
    in_disorder = frozenset(p for p in position.dislodged if p not in ordered)
    outcomes, units = adjudicate_retreats(position, by_unit, flags=flags, in_disorder=in_disorder)
    return outcomes, units, {}, {}, ()


def _play_adjustments(
    position: Position,
    orders: Mapping[PowerName, Sequence[Order]],
    ordered: set[PowerName],
    flags: frozenset[Flag],
) -> _Played:
    """The adjustments, and any phase but movement and retreats (the dislodged stay)."""
    outcomes, units = adjudicate_adjustments(
        position, {p: list(lst) for p, lst in orders.items() if p in ordered}, flags=flags
    )
    return outcomes, units, position.dislodged, {}, ()


def _mobilized(position: Position, outcomes: tuple[OrderOutcome, ...], flags: frozenset[Flag]) -> Position:
    """MOBILIZE: each power owns the home centre it built in."""
    built: dict[PowerName, list[Unit]] = {}
    for o in outcomes:
        if isinstance(o.order, Build) and o.result.succeeded:
            built.setdefault(o.power, []).append(o.order.unit)
    return position.replace(centers=mobilized_centers(position, built, flags))


def advance(
    position: Position,
    texts: Mapping[PowerName, Iterable[str]],
    *,
    flags: frozenset[Flag] = frozenset(),
    dummies: frozenset[PowerName] = frozenset(),
) -> tuple[PhaseReport, Position]:
    """Read order texts, adjudicate the phase, and return the next position."""
    orders, problems = read_orders(position, texts, flags=flags, dummies=dummies)
    return play(position, orders, problems, flags=flags, dummies=dummies)


def _next_position(
    before: Position,
    units: Mapping[PowerName, tuple[Unit, ...]],
    dislodged: Mapping[PowerName, tuple[Dislodged, ...]],
    flags: frozenset[Flag] = frozenset(),
    vassals: _Vassals | None = None,
) -> tuple[Position, tuple[tuple[str, PowerName | None, PowerName], ...], tuple[tuple[PowerName, Unit], ...]]:
    """Step to the next phase that really happens, from the units after `before`'s phase;
    with the centres that changed hands and the units the terrain of a phase destroyed
    (on a map whose terrain changes by phase, each phase passed has its own board).
    Under VASSAL_DUMMIES (`vassals`) the centres and the control are settled as
    `vassals.settle` says, and `vassals` keeps the outcome."""
    m, centers, phase = before.map, before.centers, before.phase
    changes: tuple[tuple[str, PowerName | None, PowerName], ...] = ()
    stranded: tuple[tuple[PowerName, Unit], ...] = ()
    while True:
        phase = phase.next()
        board = phase_map(m, phase)
        if board is not m:
            m = board
            units, lost = adapt_units(m, units, flags)
            stranded += lost
        if phase.type is PhaseType.RETREATS:
            if any(dislodged.values()):
                return Position(m, phase, units, centers, dislodged), changes, stranded
            continue
        if phase.type is PhaseType.ADJUSTMENTS:
            if vassals is None:
                centers, changes = _captured(m, units, centers)
            else:
                allegiance = settle(
                    m,
                    units,
                    centers,
                    vassals.dummies,
                    vassals.control,
                    torn_allegiance=Flag.TORN_ALLEGIANCE in flags,
                )
                centers, changes, units = allegiance.centers, allegiance.changes, allegiance.units
                vassals.control, vassals.torn, vassals.settled = allegiance.control, allegiance.torn, True
            pos = Position(m, phase, units, centers, dislodged)
            if adjustments_due(pos, flags):
                return pos, changes, stranded
            continue
        return Position(m, phase, units, centers, dislodged), changes, stranded


@dataclass
class _Vassals:
    """VASSAL_DUMMIES while a phase is played: the dummies, the control, and what the end
    of the fall made of them."""

    dummies: frozenset[PowerName]
    control: Mapping[PowerName, PowerName]
    torn: tuple[tuple[PowerName, Unit], ...] = ()
    settled: bool = False


def _captured(
    m: Map, units: Mapping[PowerName, Sequence[Unit]], centers: Mapping[PowerName, frozenset[ProvinceName]]
) -> tuple[Mapping[PowerName, frozenset[ProvinceName]], tuple[tuple[str, PowerName | None, PowerName], ...]]:
    """Centre ownership once each supply centre belongs to the power whose unit stands on it.

    Only the owners of the centres taken change: their sets are made anew, the others are
    kept as they are (a fall takes a few centres of the thirty-odd)."""
    changes = []
    supply_centers = m.derived("turn:supply_centers", _supply_centers)
    for power, us in units.items():
        mine = centers.get(power, ())
        for unit in us:
            province = unit.province
            if province in supply_centers and province not in mine:
                changes.append((province, _owner(centers, province), power))
    if not changes:
        return centers, ()
    new = dict(centers)
    for center, old, power in changes:
        # the names of centres taken come from units' locations (`str`): they are `ProvinceName`s
        taken = {cast(ProvinceName, center)}
        if old is not None:
            new[old] = new[old] - taken
        new[power] = new.get(power, frozenset()) | taken
    return new, tuple(sorted(changes))


def _owner(centers: Mapping[PowerName, frozenset[ProvinceName]], center: str) -> PowerName | None:
    for power, owned in centers.items():
        if center in owned:
            return power
    return None


def _supply_centers(m: Map) -> frozenset[str]:
    return m.supply_centers


def winner(pos: Position) -> PowerName | None:
    """The power that holds the victory number of centres, if any (checked after the fall)."""
    won = winners(pos)
    return won[0] if won else None


def home_victory(m: Map) -> int:
    """VICTORY_HOMES: half the home centres of the other powers, on average, plus one
    (10 on the standard map: (22 - 22/7) / 2 + 1, rounded down)."""
    homes = sum(len(power.homes) for power in m.powers)
    others = homes - homes / max(len(m.power_names), 1)
    return int(others / 2 + 1)


def victory_scores(
    pos: Position, *, homes: bool = False, control: Mapping[PowerName, PowerName] | None = None
) -> dict[PowerName, int]:
    """What each power counts towards victory: its centres, or under VICTORY_HOMES the home
    centres of other powers it owns. With `control` (TEAM_VICTORY) a power adds what the
    powers it controls count, and a controlled power counts nothing of its own."""
    if not homes:
        score = {p: len(pos.centers.get(p, ())) for p in pos.map.power_names}
    else:
        home_of = {h: power.name for power in pos.map.powers for h in power.homes}
        score = {
            p: sum(1 for c in pos.centers.get(p, ()) if home_of.get(c, p) != p) for p in pos.map.power_names
        }
    if not control:
        return score
    team = dict(score)
    for controlled, controller in control.items():
        if controlled in team and controller in team:
            team[controller] += score[controlled]
            team[controlled] = 0
    return team


def winners(
    pos: Position,
    *,
    homes: bool = False,
    shared: bool = False,
    control: Mapping[PowerName, PowerName] | None = None,
) -> tuple[PowerName, ...]:
    """The powers that have won: the one that reaches the victory condition with a count
    no other power reaches equals (a tie goes on), or under SHARED_VICTORY every power that
    reaches it. `homes` counts as VICTORY_HOMES does, `control` as TEAM_VICTORY does."""
    score = victory_scores(pos, homes=homes, control=control)
    need = home_victory(pos.map) if homes else pos.map.victory
    reached = [p for p in pos.map.power_names if score[p] >= need]
    if shared or len(reached) < 2:
        return tuple(reached)
    best = max(score[p] for p in reached)
    top = [p for p in reached if score[p] == best]
    return tuple(top) if len(top) == 1 else ()
