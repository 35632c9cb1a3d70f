"""What every check of an order begins with: the unit it names on the board, the power
that owns it, and whether the phase takes such an order."""

from __future__ import annotations

from typing import Final

from .errors import IllegalOrder
from .geography import UnitType
from .names import PowerName
from .orders import Unit
from .parse import OrderKind, ParsedOrder, UnitSpec
from .phase import PhaseType
from .position import Position

_KIND_NAMES: Final = {
    OrderKind.HOLD: "hold",
    OrderKind.MOVE: "move",
    OrderKind.SUPPORT: "support",
    OrderKind.CONVOY: "convoy",
    OrderKind.RETREAT: "retreat",
    OrderKind.DISBAND: "disband",
    OrderKind.BUILD: "build",
    OrderKind.REMOVE: "removal",
    OrderKind.WAIVE: "waive",
}


def wrong_phase(parsed: ParsedOrder, position: Position) -> IllegalOrder:
    kind = {
        PhaseType.MOVEMENT: "a movement",
        PhaseType.RETREATS: "a retreat",
        PhaseType.ADJUSTMENTS: "an adjustment",
        PhaseType.EXCHANGE: "an exchange",
    }[position.phase.type]
    return IllegalOrder(f"a {_KIND_NAMES[parsed.kind]} order is not possible in {kind} phase")


def board_unit(spec: UnitSpec, position: Position, what: str = "unit") -> tuple[PowerName, Unit]:
    """The unit on the board that `spec` names (type and coast taken from the board)."""
    hit = position._at.get(spec.location.province)
    if hit is None:
        kind = {UnitType.ARMY: "army", UnitType.FLEET: "fleet", None: "unit"}[spec.type]
        raise IllegalOrder(f"there is no {kind} in {spec.location.province}")
    owner, unit = hit
    if spec.type is not None and spec.type is not unit.type:
        actual = "an army" if unit.type is UnitType.ARMY else "a fleet"
        raise IllegalOrder(f"the {what} in {unit.province} is {actual} ({unit})")
    return owner, unit


def check_owner(owner: PowerName, unit: Unit, power: PowerName | None, check: bool) -> None:
    if check and power is not None and owner != power:
        raise IllegalOrder(f"{unit} belongs to {owner}, not to {power}")
