"""MILA's engine (`pip install diplomacy==1.1.2`, AGPL) driven from a payjudge position.

Only the benchmarks import this; payjudge itself never imports `diplomacy`. MILA's API
quirks handled here:

- A `Game()` starts at S1901M with the opening units; a position is set with
  `clear_units()`, `clear_centers()`, `set_current_phase('F1905M')` (before the units:
  `set_units` computes retreat options only when the phase is already a retreat phase),
  `set_units(power, ['A PAR', 'F STP/SC', '*F NTH'])` (a leading `*` marks a dislodged
  unit) and `set_centers(power, ['PAR', ...])`.
- The retreat options `set_units` computes for a dislodged unit are every adjacent empty
  province (it does not know the attacker or the standoffs), so `set_position` overwrites
  `power.retreats[unit]` with the options payjudge computed.
- Orders: `A LON - NWY VIA` (not `VIA CONVOY`), builds `A PAR B`, removals `A PAR D`;
  the rest (`A PAR H`, `F NTH C A LON - NWY`, `A MAR S A PAR - BUR`, `F MAO R SPA/NC`,
  `A PAR D`, `WAIVE`) as payjudge writes them. Illegal orders are dropped silently (the
  default rule `IGNORE_ERRORS`) and the unit holds.
- Units are named like payjudge's (`F STP/SC`); dislodged units come back from
  `get_units()` with a leading `*`, their options in `game.get_power(p).retreats`.
- `process()` adjudicates and moves to the next phase that has something to do (it
  captures centres on entering the winter phase, even when that phase is skipped).
"""

from __future__ import annotations

from collections.abc import Mapping

from diplomacy import Game

from payjudge.rules.position import Position


def mila_order(text: str) -> str:
    words = text.split()
    if words[0] == "BUILD":
        return f"{words[1]} {words[2]} B"
    if words[0] == "REMOVE":
        return f"{words[1]} {words[2]} D"
    return text.replace(" VIA CONVOY", " VIA")


def new_game(phase: str, units: Mapping[str, list[str]], centers: Mapping[str, list[str]]) -> Game:
    """A MILA game set to a position given as judge-json lists."""
    game = Game()
    game.clear_units()
    game.clear_centers()
    game.set_current_phase(phase)
    for power, us in units.items():
        game.set_units(power, list(us))
    for power, cs in centers.items():
        game.set_centers(power, list(cs))
    return game


def set_position(pos: Position) -> Game:
    """A MILA game set to a payjudge position (dislodged units and their options too)."""
    units = {p: [str(u) for u in us] for p, us in pos.units.items()}
    for p, ds in pos.dislodged.items():
        units.setdefault(p, []).extend(f"*{d.unit}" for d in ds)
    game = new_game(str(pos.phase), units, {p: sorted(cs) for p, cs in pos.centers.items()})
    for p, ds in pos.dislodged.items():
        retreats = game.get_power(p).retreats
        for d in ds:
            retreats[str(d.unit)] = [str(loc) for loc in d.retreats]
    return game


def play(game: Game, orders: Mapping[str, list[str]]) -> None:
    """Give the orders (payjudge canonical text) and process the phase."""
    for power, texts in orders.items():
        game.set_orders(power, [mila_order(t) for t in texts])
    game.process()


def run_case(doc: Mapping) -> Game:
    """A judge-json `payjudge adjudicate` input played by MILA (the benchmark's unit of work)."""
    game = new_game(doc["phase"], doc["units"], doc["centers"])
    for orders in doc["orders"]:
        play(game, orders)
    return game


def state(game: Game) -> dict:
    """Units, dislodged units with their options, centres and phase, payjudge-style."""
    units: dict[str, set[str]] = {}
    dislodged: dict[str, dict[str, frozenset[str]]] = {}
    for name, power in game.powers.items():
        if power.units:
            units[name] = set(power.units)
        if power.retreats:
            dislodged[name] = {u: frozenset(r) for u, r in power.retreats.items()}
    centers = {name: frozenset(p.centers) for name, p in game.powers.items() if p.centers}
    return {"phase": game.get_current_phase(), "units": units, "dislodged": dislodged, "centers": centers}
