"""`payjudge adjudicate`: positions and order sets in, results and the new position out."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import repeat
from operator import itemgetter
from pathlib import Path
from typing import Any, Final

from ..rules.names import PowerName
from ..rules.position import Dislodged
from ..rules.turn import PhaseReport, advance, winner
from . import BadInput
from .common import centers_json, position, power_name, units_json


def run(doc: Mapping[str, Any], maps_dir: Path | None = None, paths: bool = False) -> dict[str, Any]:
    """`maps_dir`: installed maps; `paths`: the variant may be a .map file (command line)."""
    if not isinstance(doc, dict):
        raise BadInput("the input must be a JSON object")
    pos = position(doc, maps_dir, paths)
    order_sets = doc.get("orders", [])
    if not isinstance(order_sets, list):
        raise BadInput("orders must be a list of order sets, one per phase")
    history = []
    for number, order_set in enumerate(order_sets, 1):
        if not isinstance(order_set, dict):
            raise BadInput(f"order set {number} must map each power to its orders")
        texts = {}
        for p, lines in order_set.items():
            if not isinstance(lines, list) or not all(map(isinstance, lines, repeat(str))):
                raise BadInput(f"order set {number}: the orders of {p} must be a list of strings")
            texts[power_name(pos.map, p)] = lines
        report, pos = advance(pos, texts)
        history.append(_history(report))
    out = {
        "phase": str(pos.phase),
        "units": units_json(pos),
        "dislodged": _dislodged(pos.dislodged),
        "centers": centers_json(pos),
        "history": history,
    }
    # no power holds the victory number of centres in most positions: `winner` need not ask
    if max(map(len, pos.centers.values()), default=0) >= pos.map.victory:
        won = winner(pos)
        if won:
            out["winner"] = won
    return out


def _dislodged(dislodged: Mapping[PowerName, tuple[Dislodged, ...]]) -> dict[str, list[dict[str, Any]]]:
    if not dislodged:  # most phases (in Python 3.11 a comprehension is a call, even an empty one)
        return {}
    return {
        p: [{"unit": str(d.unit), "retreats": [str(r) for r in d.retreats]} for d in ds]
        for p, ds in sorted(dislodged.items())
    }


_by_text: Final = itemgetter("order")


def _history(report: PhaseReport) -> dict[str, Any]:
    orders: dict[str, list[dict[str, Any]]] = {}
    for o in report.outcomes:
        # the text an order keeps once made (as in `units_json`) and the member's value
        # (`_value_`), read without the Python-level calls of `str()` and `value`
        order = o.order
        text = order._text or str(order)
        entry: dict[str, Any] = {"order": text, "result": o.result._value_}
        if o.dislodged:
            entry["dislodged"] = True
        if o.default:
            entry["default"] = True
        lst = orders.get(o.power)
        if lst is None:
            lst = orders[o.power] = []
        lst.append(entry)
    for lst in orders.values():
        lst.sort(key=_by_text)
    entry = {
        "phase": str(report.phase),
        "orders": dict(sorted(orders.items())),
        "errors": [
            {"power": e.power, "order": e.text, "error": e.message, "kind": e.kind.value}
            for e in report.errors
        ]
        if report.errors
        else [],
    }
    if report.dislodged:
        entry["dislodged"] = _dislodged(report.dislodged)
    if report.center_changes:
        entry["center_changes"] = [{"center": c, "from": f, "to": t} for c, f, t in report.center_changes]
    return entry
