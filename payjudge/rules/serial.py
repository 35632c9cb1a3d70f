"""Positions as JSON documents (the shapes of judge-json.md), for storage and replay."""

from __future__ import annotations

from typing import Any

from .geography import Location, Map
from .names import PowerName, ProvinceName
from .orders import Unit
from .phase import Phase
from .position import Dislodged, Position


def position_to_json(pos: Position) -> dict[str, Any]:
    return {
        "variant": pos.map.name,
        "phase": str(pos.phase),
        "units": {p: [str(u) for u in us] for p, us in sorted(pos.units.items())},
        "centers": {p: sorted(cs) for p, cs in sorted(pos.centers.items())},
        "dislodged": {
            p: [
                {
                    "unit": str(d.unit),
                    "attacker_from": d.attacker_from,
                    "retreats": [str(r) for r in d.retreats],
                }
                for d in ds
            ]
            for p, ds in sorted(pos.dislodged.items())
        },
    }


def position_from_json(m: Map, doc: dict[str, Any]) -> Position:
    # a stored document: the judge wrote these names, so they become names unchecked
    return Position(
        m,
        Phase.parse(doc["phase"]),
        {PowerName(p): tuple(Unit.parse(u) for u in us) for p, us in doc.get("units", {}).items()},
        {PowerName(p): frozenset(map(ProvinceName, cs)) for p, cs in doc.get("centers", {}).items()},
        {
            PowerName(p): tuple(
                Dislodged(
                    Unit.parse(d["unit"]), d["attacker_from"], tuple(Location.parse(r) for r in d["retreats"])
                )
                for d in ds
            )
            for p, ds in doc.get("dislodged", {}).items()
        },
    )
