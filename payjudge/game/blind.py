"""BLIND results (seed 003 §1.6, rulebook 6.3): each power's share of a phase's report.

When a phase is processed, `sight_json` records in the stored report what each power saw
(computed by rules/visibility from the positions before and after the phase); `tailor`
cuts the public results view down to one power's share whenever it is shown (the results
mail, HISTORY). Only the Master and the OMNISCIENT observers get the full results; other
observers are told only that the game moved on.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..rules.flags import Flag
from ..rules.names import PowerName, ProvinceName
from ..rules.outcome import Result
from ..rules.phase import Phase
from ..rules.position import Position
from ..rules.turn import PhaseReport
from ..rules.visibility import Rules, Seen, seen, snapshot, unit_path, unit_word
from ..store.models import Game

OMNISCIENT = "omniscient"  # game.settings key: the observers' names the Master made omniscient
NOBODY = "-"  # a viewer with no share of a BLIND game (an observer, a stranger)


def is_blind(flags: Iterable[Flag]) -> bool:
    return Flag.BLIND in set(flags)


def is_omniscient(game: Game, observer: str) -> bool:
    return observer.lower() in {n.lower() for n in (game.settings or {}).get(OMNISCIENT, [])}


def set_omniscient(game: Game, flags: Iterable[Flag], observers: Iterable[str], name: str, on: bool) -> str:
    """Make the observer `name` omniscient (or no longer); its name as stored. Raises
    ValueError when the game has no such observer or is not BLIND."""
    if not is_blind(flags):
        raise ValueError(f"{game.name} is not a BLIND game: every observer already sees everything")
    found = next((o for o in observers if o.lower() == name.lower()), None)
    if found is None:
        raise ValueError(f"{game.name} has no observer named {name!r}")
    settings = dict(game.settings or {})
    names = [n for n in settings.get(OMNISCIENT, []) if n.lower() != found.lower()]
    if on:
        names.append(found)
    settings[OMNISCIENT] = sorted(names)
    if not names:
        del settings[OMNISCIENT]
    game.settings = settings
    return found


def sight_json(report: PhaseReport, after: Position, flags: Iterable[Flag]) -> dict[str, Any]:
    """For each power of the map: how each order of the report appears to it (None: not at
    all), which units it sees before and after the phase, and whose centres it sees."""
    rules = Rules.of(flags)
    out: dict[str, Any] = {}
    for power in report.before.map.power_names:
        before = snapshot(report.before, power, rules)
        now = snapshot(after, power, rules)
        orders: list[str | None] = []
        for o in report.outcomes:
            path = unit_path(o.order, o.result is Result.SUCCEEDS)
            if o.power == power:
                orders.append(Seen.FULL.value)
                continue
            if path is None:  # a foreign WAIVE
                orders.append(None)
                continue
            unit, start, end = path
            how = seen(before, now, o.power, start, end)
            if how is None:
                orders.append(None)
            elif how is Seen.FULL:
                orders.append(how.value)
            else:
                where = end if how in (Seen.ARRIVES, Seen.FOUND) else start
                orders.append(f"{unit_word(unit, where)} {how.value}.")
        out[power] = {
            "orders": orders,
            "before": sorted(f"{p} {province}" for p, province in before.units),
            "after": sorted(f"{p} {province}" for p, province in now.units),
            "owners": sorted(now.owners),
        }
    return out


def tailor(view: dict[str, Any], report: dict[str, Any], power: str) -> dict[str, Any]:
    """The results view `view` (of `report`) cut down to what `power` sees: its orders and
    those it saw, void annotations suppressed (a void convoyed move reads `no convoy`), the
    ARRIVES / DEPARTS / FOUND / LOST lines, its own centres and the owners it saw. Its own
    void builds, removals and waives are shown void: it knows its own adjustment status."""
    sight = report.get("sight", {}).get(power)
    out = dict(view)
    if sight is None:  # a phase stored before the game was BLIND, or an unknown power
        sight = {"orders": [None] * len(report["orders"]), "before": [], "after": [], "owners": []}
    by_power, glimpses = _seen_orders(report, sight["orders"], power)
    out["powers"] = [
        {**p, "orders": sorted(by_power[p["name"]], key=lambda x: x["order"])}
        for p in view["powers"]
        if p["name"] in by_power
    ]
    out["glimpses"] = glimpses
    out.update(_seen_units(view, power, after=set(sight["after"]), before=set(sight["before"])))
    out.update(_seen_centres(view, power, owners=set(sight["owners"])))
    out["viewer"] = power
    return out


def _seen_orders(
    report: dict[str, Any], seen: list[str | None], power: str
) -> tuple[dict[str, list[dict[str, Any]]], list[str]]:
    """The orders `power` saw whole, by power, and the glimpses of the others."""
    by_power: dict[str, list[dict[str, Any]]] = {}
    glimpses: list[str] = []
    adjustments = "phase" in report and Phase.parse(report["phase"]).is_adjustments
    for o, how in zip(report["orders"], seen, strict=True):
        if how is None:
            continue
        if how != Seen.FULL.value:
            glimpses.append(how)
            continue
        # void is never told of another power's order; of its own adjustment orders a
        # power knows it, as it knows its own adjustment status (seed 003 §1.6)
        own_adjustment = o["power"] == power and adjustments
        notes = [n for n in _notes(o) if n != "void" or own_adjustment]
        if o["result"] == "void" and o["order"].split()[2:3] == ["-"]:
            notes.insert(0, "no convoy")  # a convoyed army whose move would read (*void*)
        by_power.setdefault(o["power"], []).append(
            {"order": o["order"], "notes": notes, "default": o["default"]}
        )
    return by_power, glimpses


def _seen_units(view: dict[str, Any], power: str, *, after: set[str], before: set[str]) -> dict[str, Any]:
    """The dislodged units `power` sees after the phase (the retreats of its own only), and
    the destroyed and torn units it saw before."""
    return {
        "dislodged": [
            {**d, "retreats": d["retreats"] if d["power"] == power else []}
            for d in view["dislodged"]
            if d["power"] == power or _key(d) in after
        ],
        "destroyed": [d for d in view["destroyed"] if d["power"] == power or _key(d) in before],
        "torn": [d for d in view.get("torn", ()) if d["power"] == power or _key(d) in before],
    }


def _seen_centres(view: dict[str, Any], power: str, *, owners: set[str]) -> dict[str, Any]:
    """The centre changes and holdings `power` sees: its own, and the owners it saw."""

    def shown(owner: str, centre: str) -> str:
        return owner if owner == power or centre in owners else "?"

    return {
        "center_changes": [
            {"center": c["center"], "from": shown(c["from"], c["center"]), "to": shown(c["to"], c["center"])}
            for c in view["center_changes"]
            if power in (c["from"], c["to"]) or c["center"] in owners
        ],
        "centers": [
            {**c, "centers": kept, "count": len(kept) if c["power"] == power else None}
            for c in view["centers"]
            for kept in [c["centers"] if c["power"] == power else [x for x in c["centers"] if x in owners]]
            if kept
        ],
    }


def _notes(order: dict[str, Any]) -> list[str]:
    notes = [order["result"]] if order["result"] not in ("succeeds", "dislodged") else []
    notes = ["bounce" if n == "bounced" else n for n in notes]
    if order["dislodged"] or order["result"] == "dislodged":
        notes.append("dislodged")
    return notes


def _key(entry: dict[str, Any]) -> str:
    """`GERMANY MUN`: how `sight_json` names a seen unit (owner and province)."""
    return f"{entry['power']} {entry['unit'].split()[-1].split('/')[0]}"


def sight_board(
    before: Position, report: dict[str, Any], power: PowerName
) -> tuple[Position, dict[str, Any]]:
    """What `power`'s picture of a phase is drawn from: the position before the phase with
    only the units it saw then (its own among them) and the owners of the centres it sees,
    and the report with only the orders it saw whole and only its own retreats. The picture
    is drawn from these alone, so it can show nothing the power's results do not tell."""
    sight = report.get("sight", {}).get(power)
    if sight is None:  # a phase stored before the game was BLIND: its own units only
        sight = {"orders": [None] * len(report.get("orders", [])), "before": [], "owners": []}
    saw = set(sight["before"])
    owners = set(sight["owners"])
    units = {
        p: tuple(u for u in us if p == power or f"{p} {u.province}" in saw) for p, us in before.units.items()
    }
    centres = {
        p: frozenset(ProvinceName(c) for c in cs if p == power or c in owners)
        for p, cs in before.centers.items()
    }
    dislodged = {power: before.dislodged[power]} if power in before.dislodged else {}
    board = Position(before.map, before.phase, units, centres, dislodged)
    orders = [
        o
        for o, how in zip(report.get("orders", []), sight["orders"], strict=True)
        if how == Seen.FULL.value or o["power"] == power
    ]
    retreats = dict(report.get("dislodged") or {})
    mine = {power: retreats[power]} if power in retreats else {}
    return board, {**report, "orders": orders, "dislodged": mine, "sight": {}}


def next_phase_title(report: dict[str, Any]) -> str:
    return Phase.parse(report["next_phase"]).title
