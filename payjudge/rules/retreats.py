"""Adjudicate a retreat phase: two retreats to one province both fail; the unordered disband."""

from __future__ import annotations

from collections import Counter

from .orders import Disband, Order, Retreat, Unit
from .outcome import OrderOutcome, Result
from .position import Position


def adjudicate_retreats(position: Position, orders: dict[str, Order],
                        defaults: frozenset[str] = frozenset()
                        ) -> tuple[tuple[OrderOutcome, ...], dict[str, tuple[Unit, ...]]]:
    """Validated retreat orders keyed by the dislodged unit's province -> outcomes, units."""
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
                    outcomes.append(OrderOutcome(power, order, Result.SUCCEEDS))
                    units.setdefault(power, []).append(order.arrived)
            else:
                # a disband, or no order at all: the unit is disbanded
                outcomes.append(OrderOutcome(power, Disband(d.unit), Result.SUCCEEDS,
                                             default=order is None or d.unit.province in defaults))
    return tuple(outcomes), {p: tuple(us) for p, us in units.items()}
