"""Who has won: the victory number of centres (or, under VICTORY_HOMES, of other powers'
home centres), shared or not, counted by teams under TEAM_VICTORY."""

from __future__ import annotations

from collections.abc import Mapping

from .geography import Map
from .names import PowerName
from .position import Position


def winner(pos: Position) -> PowerName | None:
    """The power that holds the victory number of centres, if any (checked after the fall)."""
    won = winners(pos)
    return won[0] if won else None


def home_victory(m: Map) -> int:
    """VICTORY_HOMES: half the home centres of the other powers, on average, plus one
    (10 on the standard map: (22 - 22/7) / 2 + 1, rounded down)."""
    homes = sum(len(power.homes) for power in m.powers)
    others = homes - homes / max(len(m.power_names), 1)
    return int(others / 2 + 1)


def victory_scores(
    pos: Position, *, homes: bool = False, control: Mapping[PowerName, PowerName] | None = None
) -> dict[PowerName, int]:
    """What each power counts towards victory: its centres, or under VICTORY_HOMES the home
    centres of other powers it owns. With `control` (TEAM_VICTORY) a power adds what the
    powers it controls count, and a controlled power counts nothing of its own."""
    if not homes:
        score = {p: len(pos.centers.get(p, ())) for p in pos.map.power_names}
    else:
        home_of = {h: power.name for power in pos.map.powers for h in power.homes}
        score = {
            p: sum(1 for c in pos.centers.get(p, ()) if home_of.get(c, p) != p) for p in pos.map.power_names
        }
    if not control:
        return score
    team = dict(score)
    for controlled, controller in control.items():
        if controlled in team and controller in team:
            team[controller] += score[controlled]
            team[controlled] = 0
    return team


def winners(
    pos: Position,
    *,
    homes: bool = False,
    shared: bool = False,
    control: Mapping[PowerName, PowerName] | None = None,
) -> tuple[PowerName, ...]:
    """The powers that have won: the one that reaches the victory condition with a count
    no other power reaches equals (a tie goes on), or under SHARED_VICTORY every power that
    reaches it. `homes` counts as VICTORY_HOMES does, `control` as TEAM_VICTORY does."""
    score = victory_scores(pos, homes=homes, control=control)
    need = home_victory(pos.map) if homes else pos.map.victory
    reached = [p for p in pos.map.power_names if score[p] >= need]
    if shared or len(reached) < 2:
        return tuple(reached)
    best = max(score[p] for p in reached)
    top = [p for p in reached if score[p] == best]
    return tuple(top) if len(top) == 1 else ()
