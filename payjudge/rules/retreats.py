"""Adjudicate a retreat phase: two retreats to one province both fail; the unordered disband."""

from __future__ import annotations

from collections import Counter

from .flags import Flag
from .names import PowerName
from .orders import Disband, Order, Retreat, Unit
from .outcome import OrderOutcome, Result
from .position import Position


def _disorder_retreats(
    position: Position, orders: dict[str, Order], in_disorder: frozenset[PowerName]
) -> dict[str, Order]:
    """CD_RETREATS: a retreat for each dislodged unit of a power in civil disorder. The
    judge's choice is fixed, not random: a supply centre first, then any place, each in
    alphabetical order, and never where another retreat already goes (so that the judge's
    retreats do not bounce each other)."""
    m = position.map
    taken = {o.dest.province for o in orders.values() if isinstance(o, Retreat)}
    chosen: dict[str, Order] = {}
    for power in sorted(in_disorder):
        for d in position.dislodged.get(power, ()):
            options = [o for o in d.retreats if o.province not in taken]
            options.sort(key=lambda o: (not m.provinces[o.province].supply_center, str(o)))
            if options:
                taken.add(options[0].province)
                chosen[d.unit.province] = Retreat(d.unit, options[0])
    return chosen


def adjudicate_retreats(
    position: Position,
    orders: dict[str, Order],
    defaults: frozenset[str] = frozenset(),
    *,
    flags: frozenset[Flag] = frozenset(),
    in_disorder: frozenset[PowerName] = frozenset(),
) -> tuple[tuple[OrderOutcome, ...], dict[PowerName, tuple[Unit, ...]]]:
    """Validated retreat orders keyed by the dislodged unit's province -> outcomes, units.

    The units of the powers `in_disorder` (they gave no order) disband, or retreat by
    `_disorder_retreats` under CD_RETREATS."""
    if Flag.CD_RETREATS in flags and in_disorder:
        judged = _disorder_retreats(position, orders, in_disorder)
        orders = {**orders, **judged}
        defaults = defaults | frozenset(judged)
    targets = Counter(o.dest.province for o in orders.values() if isinstance(o, Retreat))
    outcomes = []
    units = {p: list(us) for p, us in position.units.items()}
    for power in sorted(position.dislodged):
        for d in position.dislodged[power]:
            order = orders.get(d.unit.province)
            if isinstance(order, Retreat):
                if targets[order.dest.province] > 1:
                    outcomes.append(OrderOutcome(power, order, Result.BOUNCED))
                else:
                    outcomes.append(
                        OrderOutcome(power, order, Result.SUCCEEDS, default=d.unit.province in defaults)
                    )
                    units.setdefault(power, []).append(order.arrived)
            else:
                # a disband, or no order at all: the unit is disbanded
                outcomes.append(
                    OrderOutcome(
                        power,
                        Disband(d.unit),
                        Result.SUCCEEDS,
                        default=order is None or d.unit.province in defaults,
                    )
                )
    return tuple(outcomes), {p: tuple(us) for p, us in units.items()}
