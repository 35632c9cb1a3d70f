"""A phase's picture from its stored record: the position and the public report (JSON)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..rules.errors import OrderError
from ..rules.geography import Location, Map
from ..rules.names import PowerName
from ..rules.orders import Unit
from ..rules.outcome import OrderOutcome, Result
from ..rules.parse import parse_order
from ..rules.position import Dislodged, Position
from ..rules.serial import position_from_json
from ..rules.validate import validate


def outcomes_from_report(before: Position, report: Mapping[str, Any]) -> tuple[OrderOutcome, ...]:
    """The typed outcomes of a stored report; its order texts are canonical and were valid
    in `before`, so each reads back as the order that was played."""
    out = []
    for entry in report.get("orders", []):
        power = PowerName(entry["power"])  # written by the judge: a name already
        try:
            order = validate(parse_order(entry["order"], before.map), before, power, check_owner=False)
        except (OrderError, KeyError, ValueError):
            continue  # a record this version cannot read: the picture shows the rest
        out.append(
            OrderOutcome(
                power,
                order,
                Result(entry["result"]),
                bool(entry.get("dislodged")),
                bool(entry.get("default")),
            )
        )
    return tuple(out)


def retreats_from_report(report: Mapping[str, Any]) -> dict[PowerName, tuple[Dislodged, ...]]:
    return {
        PowerName(power): tuple(
            Dislodged(Unit.parse(d["unit"]), "", tuple(Location.parse(r) for r in d["retreats"])) for d in ds
        )
        for power, ds in dict(report.get("dislodged") or {}).items()
    }


def stored_picture(
    game_map: Map, position: Mapping[str, Any], report: Mapping[str, Any] | None
) -> tuple[Position, tuple[OrderOutcome, ...], dict[PowerName, tuple[Dislodged, ...]]]:
    """Position, outcomes and retreat options of a stored turn (no report: not played yet)."""
    before = position_from_json(game_map, dict(position))
    if not report:
        return before, (), {}
    return before, outcomes_from_report(before, report), retreats_from_report(report)
