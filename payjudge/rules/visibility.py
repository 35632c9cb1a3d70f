"""What one power sees of a phase in a BLIND game (seed 003 §1.6, rulebook 6.3 rule 1.1).

A power always sees its own units and centres. It sees a foreign unit standing where one of
its "viewpoints" can see: each of its own units sees the spaces of the units it could
support and of those that could support it (support reach, by space and not by coast);
each of its home centres (its owned centres under OWN_SCS_SEE) sees the units in it or in a
province next to it. Ownership of a centre is seen when the centre is the power's own, or
stands where a viewpoint can see. The twelve modifiers change who sees what, as the seed
says; those that are shorthands (MYOPIC, VENETIAN, GREEK, TROJAN) are expanded through the
flag registry. Sight is computed twice, on the position before the phase (where each
unit started) and after it (where each ended): a unit seen in both is reported with its
order; in only one, with ARRIVES / DEPARTS (the unit moved) or FOUND / LOST (it stayed, the
viewer's sight moved). Pure: no I/O.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from .flag_registry import closure
from .flags import Flag
from .geography import Map, UnitType
from .names import PowerName, ProvinceName
from .orders import Build, Disband, Move, Order, Remove, Retreat, Unit
from .position import Position


class Seen(enum.Enum):
    """How a unit's order appears in one power's results."""

    FULL = "full"  # seen before and after the phase: the order and its result
    ARRIVES = "ARRIVES"  # came into sight by moving
    DEPARTS = "DEPARTS"  # went out of sight by moving
    FOUND = "FOUND"  # stayed, and came into sight (the viewer's sight moved)
    LOST = "LOST"  # stayed (or vanished), and went out of sight


@dataclass(frozen=True)
class Rules:
    """The visibility switches a game's flags set (after expanding the shorthands)."""

    units_see: bool = True  # NO_UNITS_SEE: own units give no information
    centres_see: bool = True  # NO_SCS_SEE: centres give no information
    centres_see_units: bool = True  # UNITS_SEE_SAME / UNITS_SEE_OTHER: centres see no units
    owned_centres_see: bool = False  # OWN_SCS_SEE: owned, not home, centres see
    foreign_units: bool = True  # SEE_NO_UNITS: no foreign unit is ever seen
    foreign_owners: bool = True  # SEE_NO_SCS: no foreign ownership is ever seen
    all_owners: bool = False  # SEE_ALL_SCS: every centre's owner is seen
    same_type: bool | None = None  # True: UNITS_SEE_SAME; False: UNITS_SEE_OTHER

    @classmethod
    def of(cls, flags: Iterable[Flag]) -> Rules:
        f = closure(flags)
        same: bool | None = None
        if Flag.UNITS_SEE_SAME in f:
            same = True
        elif Flag.UNITS_SEE_OTHER in f:
            same = False
        return cls(
            units_see=Flag.NO_UNITS_SEE not in f,
            centres_see=Flag.NO_SCS_SEE not in f,
            centres_see_units=same is None,
            owned_centres_see=Flag.OWN_SCS_SEE in f,
            foreign_units=Flag.SEE_NO_UNITS not in f,
            foreign_owners=Flag.SEE_NO_SCS not in f,
            all_owners=Flag.SEE_ALL_SCS in f,
            same_type=same,
        )


def neighbours(game_map: Map, province: str) -> frozenset[str]:
    """The provinces next to `province` by any move of any unit (coasts merged)."""

    def compute(m: Map) -> dict[str, frozenset[str]]:
        out: dict[str, set[str]] = {p: set(m.army_neighbours(p)) for p in m.provinces}
        for loc, dests in m.fleet_adjacency.items():
            out.setdefault(loc.province, set()).update(d.province for d in dests)
        return {p: frozenset(ns - {p}) for p, ns in out.items()}

    table: dict[str, frozenset[str]] = game_map.derived("visibility.neighbours", compute)
    return table.get(province, frozenset())


def _support_reach(game_map: Map, a: Unit, b: Unit) -> bool:
    """`a` sees `b`: same space, or one could support the other (by space, not coast)."""
    return (
        a.province == b.province
        or game_map.reaches_province(a.type, a.location, b.province)
        or game_map.reaches_province(b.type, b.location, a.province)
    )


def _board(pos: Position) -> list[tuple[PowerName, Unit]]:
    """Every unit on the board, dislodged ones included (they still stand there)."""
    units = list(pos.all_units())
    units += [(p, d.unit) for p, ds in sorted(pos.dislodged.items()) for d in ds]
    return units


@dataclass(frozen=True)
class Snapshot:
    """What a power sees of one position: the units it sees, its own included, each as
    (owner, province) (a dislodged unit shares its province with the one that dislodged
    it), and the centres whose owner it sees."""

    units: frozenset[tuple[PowerName, str]]
    owners: frozenset[ProvinceName]

    @property
    def provinces(self) -> frozenset[str]:
        return frozenset(province for _, province in self.units)


def snapshot(pos: Position, power: PowerName, rules: Rules) -> Snapshot:
    """What `power` sees of `pos` under `rules`."""
    game_map = pos.map
    board = _board(pos)
    mine = [u for p, u in board if p == power]
    centres = _seeing_centres(pos, power, rules)
    centre_area = set(centres) | {n for c in centres for n in neighbours(game_map, c)}
    seen = {(power, u.province) for u in mine}
    if rules.foreign_units:
        seen |= {
            (owner, unit.province)
            for owner, unit in board
            if owner != power and _sees_unit(game_map, mine, unit, centre_area, rules)
        }
    return Snapshot(frozenset(seen), frozenset(_owners_seen(pos, power, mine, centre_area, rules)))


def _seeing_centres(pos: Position, power: PowerName, rules: Rules) -> frozenset[ProvinceName]:
    """The centres from which `power` sees: none, those it owns, or its homes."""
    if not rules.centres_see:
        return frozenset()
    if rules.owned_centres_see:
        return pos.centers.get(power, frozenset())
    home = pos.map.power(power)
    return frozenset(home.homes) if home else frozenset()


def _sees_unit(game_map: Map, mine: list[Unit], unit: Unit, centre_area: set[str], rules: Rules) -> bool:
    """Whether a foreign unit is seen: from a seeing centre, or by one of `mine` that
    could support into its province (of the same type or another, as the rules say)."""
    if rules.centres_see_units and unit.province in centre_area:
        return True
    if not rules.units_see:
        return False
    for own in mine:
        if rules.same_type is not None and (own.type is unit.type) is not rules.same_type:
            continue
        if _support_reach(game_map, own, unit):
            return True
    return False


def _owners_seen(
    pos: Position, power: PowerName, mine: list[Unit], centre_area: set[str], rules: Rules
) -> set[ProvinceName]:
    """The centres whose owner `power` sees: its own, and those the rules show."""
    game_map = pos.map
    owners = set(pos.centers.get(power, frozenset()))
    if rules.all_owners:
        return owners | game_map.supply_centers
    if rules.foreign_owners:
        area = set(centre_area)
        if rules.units_see:
            for own in mine:
                area.add(own.province)
                area |= {
                    c for c in game_map.supply_centers if game_map.reaches_province(own.type, own.location, c)
                }
        owners |= {c for c in game_map.supply_centers if c in area}
    return owners


def unit_path(order: Order, moved: bool) -> tuple[Unit, str | None, str | None] | None:
    """The ordered unit, where it stood before the phase and where after (None: not on the
    board); None for a WAIVE. `moved` says whether a move or retreat succeeded."""
    unit = getattr(order, "unit", None)
    if not isinstance(unit, Unit):
        return None
    if isinstance(order, Build):
        return unit, None, unit.province
    if isinstance(order, (Disband, Remove)):
        return unit, unit.province, None
    if isinstance(order, (Move, Retreat)) and moved:
        return unit, unit.province, order.dest.province
    if isinstance(order, Retreat):
        return unit, unit.province, None  # a failed retreat disbands the unit
    return unit, unit.province, unit.province


def seen(
    before: Snapshot, after: Snapshot, owner: PowerName, start: str | None, end: str | None
) -> Seen | None:
    """How a unit of `owner` that went from `start` to `end` appears (None: not at all)."""
    was = start is not None and (owner, start) in before.units
    now = end is not None and (owner, end) in after.units
    if was and now:
        return Seen.FULL
    if was:
        return Seen.DEPARTS if end is not None and end != start else Seen.LOST
    if now:
        return Seen.ARRIVES if start is not None and start != end else Seen.FOUND
    return None


def unit_word(unit: Unit, province: str | None = None) -> str:
    """`Army PAR` / `Fleet STP/SC`: how an ARRIVES-style line names the unit."""
    where = province if province is not None and province != unit.province else str(unit.location)
    return f"{'Army' if unit.type is UnitType.ARMY else 'Fleet'} {where}"


__all__ = ["Rules", "Seen", "Snapshot", "neighbours", "seen", "snapshot", "unit_path", "unit_word"]
