"""HIDE_BUILDS (seed 003 §1.6): the builds of an adjustment phase stay secret until the
next movement phase has been played.

The results of the adjustment phase give each power one `BUILD HIDDEN` line per unit it
built (the number, not the place or the kind; a build that failed is not shown at all);
its picture is not drawn, and the web page draws the board of the movement phase that
follows without those units. The results of that movement phase then name each newly
built unit (DPjudge's FOUND lines). Removals and waived builds are shown as usual.
"""

from __future__ import annotations

from typing import Any

from ..rules.flags import Flag
from ..rules.phase import Phase
from ..vocabulary import TurnStatus
from .state import GameState, turns

HIDDEN = "BUILD HIDDEN"


def hides(rules: Any, phase: Phase) -> bool:
    """Whether the builds of `phase` are kept secret in its results."""
    return Flag.HIDE_BUILDS in rules and phase.is_adjustments


def hide_builds(orders: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A report's orders with each build that succeeded said as `BUILD HIDDEN`, and
    those that failed left out."""
    shown = []
    for o in orders:
        if o["order"].startswith("BUILD "):
            if o["result"] != "succeeds":
                continue
            o = {**o, "order": HIDDEN}
        shown.append(o)
    return shown


def found_units(st: GameState, phase: Phase) -> list[dict[str, str]]:
    """The units built, in secret, in the adjustment phase just before the movement phase
    `phase` (power and unit, as the results name them); none without HIDE_BUILDS."""
    if Flag.HIDE_BUILDS not in st.rules or not phase.is_movement:
        return []
    for turn in reversed(turns(st.session, st.game)):
        report = turn.report
        if turn.status is not TurnStatus.PROCESSED or not report:
            continue
        if report.get("next_phase") != str(phase) or not Phase.parse(report["phase"]).is_adjustments:
            continue
        return [
            {"power": o["power"], "unit": o["order"].removeprefix("BUILD ")}
            for o in report["orders"]
            if o["order"].startswith("BUILD ") and o["result"] == "succeeds"
        ]
    return []
