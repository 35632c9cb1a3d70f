"""Play one phase: read and check the orders, adjudicate, and find the next position.

A phase the rules skip (no retreats to make, no adjustment due) is skipped here too;
centres change hands after the last phase of the fall. Units without orders behave as
the rules say: they hold, a dislodged unit disbands, a required removal is made by the
civil-disorder rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from .adjustments import adjudicate_adjustments, mobilized_centers
from .borders import borders
from .convoys import chain_looked_for, fleet_chain
from .errors import OrderError, ProblemKind
from .flags import Flag
from .geography import Map
from .movement import adjudicate_movement
from .names import PowerName
from .nextphase import Vassals, next_position
from .orders import Build, Convoy, Order, SupportHold, SupportMove, Unit, Waive
from .outcome import OrderOutcome
from .parse import ParsedOrder, parse_order
from .phase import PhaseType
from .position import Dislodged, Position, mobilizing
from .report import OrderProblem as OrderProblem
from .report import PhaseReport as PhaseReport
from .retreats import adjudicate_retreats
from .validate import validate
from .victory import home_victory as home_victory
from .victory import victory_scores as victory_scores
from .victory import winner as winner
from .victory import winners as winners

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
    outcomes, units, dislodged = played.outcomes, played.units, played.dislodged
    reported, destroyed = played.reported, played.destroyed
    start = position
    if kind is PhaseType.ADJUSTMENTS and mobilizing(position, flags):
        start = _mobilized(position, outcomes, flags)
    vassals = None
    if Flag.VASSAL_DUMMIES in flags:
        vassals = Vassals(dummies | frozenset(control or {}), dict(control or {}))
    nxt, changes, stranded = next_position(start, units, dislodged, flags, vassals)
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


class _Played:
    """What a phase's adjudication gives `play`: the outcomes, the units after it, the units
    that must retreat, the dislodged units reported, and the units destroyed. (A class, not
    a tuple: compiled, a tuple of attributes read from the movement's result, returned
    from the function that made that result, lost its items' references.)"""

    __slots__ = ("destroyed", "dislodged", "outcomes", "reported", "units")

    outcomes: Final[tuple[OrderOutcome, ...]]
    units: Final[Mapping[PowerName, tuple[Unit, ...]]]
    dislodged: Final[Mapping[PowerName, tuple[Dislodged, ...]]]
    reported: Final[Mapping[PowerName, tuple[Dislodged, ...]]]
    destroyed: Final[tuple[tuple[str, Unit], ...]]

    def __init__(
        self,
        outcomes: tuple[OrderOutcome, ...],
        units: Mapping[PowerName, tuple[Unit, ...]],
        dislodged: Mapping[PowerName, tuple[Dislodged, ...]],
        reported: Mapping[PowerName, tuple[Dislodged, ...]],
        destroyed: tuple[tuple[str, Unit], ...] = (),
    ) -> None:
        self.outcomes = outcomes
        self.units = units
        self.dislodged = dislodged
        self.reported = reported
        self.destroyed = destroyed


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
    return _Played(result.outcomes, result.units, retreating, result.dislodged, destroyed)


def _play_retreats(
    position: Position, by_unit: dict[str, Order], ordered: set[PowerName], flags: frozenset[Flag]
) -> _Played:
    in_disorder = frozenset(p for p in position.dislodged if p not in ordered)
    outcomes, units = adjudicate_retreats(position, by_unit, flags=flags, in_disorder=in_disorder)
    return _Played(outcomes, units, {}, {})


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
    return _Played(outcomes, units, position.dislodged, {})


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
