"""Adjudicate a movement phase: the DATC's equations solved by its guess algorithm.

The equations are those of DATC v3.1 chapter 5.B (attack, hold, defend and prevent
strength; support cuts; convoy paths). Cycles are found by the guess algorithm of
chapter 5.F and settled by the backup rule of 5.B.9: a cycle of moves only is circular
movement and every move in it succeeds; a cycle with convoys is a convoy paradox and,
by the Szykman rule, the convoys in it fail. As the DATC suggests (5.D), a convoy asks
whether an attacker *would* succeed (adjudicate) rather than resolving it, so that
every cycle stays a clean single cycle.

Convoys to adjacent provinces follow DATC v3.1 (issue 4.A.3): the army goes by convoy
when its order says `VIA CONVOY` or a fleet of its own power is ordered to convoy it,
and then only by convoy (no fall-back to the land route).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from typing import Final

from .borders import crossing_refused
from .flags import Flag
from .geography import Location, Map, UnitType
from .names import PowerName
from .orders import Convoy, Move, Order, SupportHold, SupportMove, Unit
from .outcome import OrderOutcome, Result
from .position import Dislodged, Position

# Final: mypyc makes each a constant of the compiled module (a plain module name is a
# dictionary lookup at every use, and the resolver uses these at every step)
_UNRESOLVED: Final = 0
_GUESSING: Final = 1
_RESOLVED: Final = 2
_province_of: Final = attrgetter("province")
_HOLD: Final = 0
_MOVE: Final = 1
_SUPPORT: Final = 2
_CONVOY: Final = 3
# Enum members read once: in Python 3.11 each `Result.X` or `UnitType.X` is a descriptor
# call, and `Flag.X in flags` hashes the member in Python; the loops below do this for
# every unit and every step of the resolver
_ARMY: Final = UnitType.ARMY
_FLEET: Final = UnitType.FLEET
_SUCCEEDS: Final = Result.SUCCEEDS
_BOUNCED: Final = Result.BOUNCED
_NO_CONVOY: Final = Result.NO_CONVOY
_DISRUPTED: Final = Result.DISRUPTED
_CUT: Final = Result.CUT
_VOID: Final = Result.VOID
_DISLODGED: Final = Result.DISLODGED


def _touching(m: Map) -> dict[str, frozenset[str]]:
    """Province -> the provinces a fleet there (on any coast) borders (for convoy chains)."""
    touch: dict[str, set[str]] = {}
    for loc, ns in m.fleet_adjacency.items():
        touch.setdefault(loc.province, set()).update(n.province for n in ns)
    return {p: frozenset(ns) for p, ns in touch.items()}


class MovementResult:
    """The board once every order is resolved: a value (Final attributes, as turn.PhaseReport)."""

    __slots__ = ("contested", "dislodged", "outcomes", "units")

    outcomes: Final[tuple[OrderOutcome, ...]]
    units: Final[dict[PowerName, tuple[Unit, ...]]]  # after the moves, without the dislodged
    dislodged: Final[dict[PowerName, tuple[Dislodged, ...]]]
    contested: Final[frozenset[str]]  # provinces left empty by a standoff

    def __init__(
        self,
        outcomes: tuple[OrderOutcome, ...],
        units: dict[PowerName, tuple[Unit, ...]],
        dislodged: dict[PowerName, tuple[Dislodged, ...]],
        contested: frozenset[str],
    ) -> None:
        self.outcomes = outcomes
        self.units = units
        self.dislodged = dislodged
        self.contested = contested


class _Board:
    """Index-based working state for one adjudication."""

    # slots: the resolver reads these attributes at every step, and an instance dict with
    # more than 30 keys stops sharing its keys, which makes every such read slower
    __slots__ = (
        "at",
        "by_convoy",
        "coastal_crawl",
        "convoy_target",
        "convoyers",
        "convoys",
        "dep",
        "dest",
        "fire",
        "flags",
        "h2h",
        "hold_support",
        "kind",
        "map",
        "move_support",
        "moves",
        "moves_to",
        "orders",
        "powers",
        "prov",
        "resolution",
        "safe_convoys",
        "state",
        "support_target",
        "supports",
        "szykman",
        "touch",
        "units",
        "weak_bounces",
        "weak_convoys",
    )

    def __init__(
        self,
        position: Position,
        orders: dict[str, Order],
        flags: frozenset[Flag] = frozenset(),
        dummies: frozenset[PowerName] = frozenset(),
    ):
        m = position.map
        self.flags = flags
        # the flags the resolver asks about at each step, looked up once (see above), and
        # not at all in the usual game without any
        self.weak_bounces = bool(flags) and Flag.WEAK_BOUNCES in flags
        self.coastal_crawl = bool(flags) and Flag.COASTAL_CRAWL in flags
        self.weak_convoys = bool(flags) and Flag.WEAK_CONVOYS in flags
        self.safe_convoys = bool(flags) and Flag.SAFE_CONVOYS in flags
        # the powers that may dislodge their own units (FRIENDLY_FIRE; DUMMY_FIRE: dummies)
        self.fire: frozenset[str] = frozenset()
        if flags and Flag.FRIENDLY_FIRE in flags:
            self.fire = frozenset(position.units)
        elif flags and Flag.DUMMY_FIRE in flags:
            self.fire = dummies
        self.map = m
        self.touch: dict[str, frozenset[str]] = m.derived("movement:touch", _touching)
        # the units power by power (`result` relies on it), their powers, provinces and
        # orders, each unit's index by province (one loop: compiled, plain loops are fastest)
        self.units: list[Unit] = []
        self.powers: list[PowerName] = []
        self.prov: list[str] = []
        self.at: dict[str, int] = {}
        self.orders: list[Order] = []
        n = 0
        for power in sorted(position.units):
            for u in position.units[power]:
                province = u.province
                self.at[province] = n
                self.units.append(u)
                self.powers.append(power)
                self.prov.append(province)
                self.orders.append(orders.get(province) or u.hold)
                n += 1
        self.kind = [_HOLD] * n
        # the units of each kind but holds, in the board's order
        self.moves: list[int] = []
        self.supports: list[int] = []
        self.convoys: list[int] = []
        self.dest: list[str | None] = [None] * n  # move destination province
        self.moves_to: dict[str, list[int]] = {}
        self.by_convoy = [False] * n
        self.h2h: list[int | None] = [None] * n
        # unit -> the units supporting its move or its hold, the fleets convoying it
        # (only units that have some: most have none)
        self.move_support: dict[int, list[int]] = {}
        self.hold_support: dict[int, list[int]] = {}
        self.convoyers: dict[int, list[int]] = {}
        self.support_target = [-1] * n  # for a support: the unit it supports (valid only)
        self.convoy_target = [-1] * n  # for a convoy: the move it serves (valid only)
        self.state = [_UNRESOLVED] * n
        self.resolution = [False] * n
        self.dep: list[int] = []
        self.szykman: set[int] = set()
        self._prepare()

    # -- setting up ------------------------------------------------------------------
    # The orders are dispatched on `type(order)` and `kind[i]`, which mypy does not follow:
    # each `type: ignore[union-attr]` below reads a field the dispatched type has.
    def _prepare(self) -> None:
        """Sorts the orders by kind, then matches them: which moves go by convoy, which
        convoys and supports serve a move or hold that was ordered, which moves meet head
        to head."""
        self._sort_orders()
        self._choose_convoyed()
        convoyed = self._match_convoys()
        self._match_supports()
        self._match_head_to_heads()
        self._keep_useful_convoys(convoyed)

    def _sort_orders(self) -> None:
        kind, dest = self.kind, self.dest
        for i, order in enumerate(self.orders):
            cls = type(order)
            if cls is Move:
                kind[i] = _MOVE
                d = order.dest.province  # type: ignore[union-attr]
                dest[i] = d
                # (lists grown by get-or-insert here and below: compiled, `setdefault(k, [])`
                # makes a list at every call and costs several times as much)
                lst = self.moves_to.get(d)
                if lst is None:
                    self.moves_to[d] = [i]
                else:
                    lst.append(i)
                self.moves.append(i)
            elif cls is SupportHold or cls is SupportMove:
                kind[i] = _SUPPORT
                self.supports.append(i)
            elif cls is Convoy:
                kind[i] = _CONVOY
                self.convoys.append(i)

    def _choose_convoyed(self) -> None:
        """Which army moves go by convoy (DATC 4.A.3, v3.1 preference), and, under
        PORTAGE_CONVOY, which fleet moves go overland."""
        m, units, orders, prov, powers = self.map, self.units, self.orders, self.prov, self.powers
        dest, by_convoy = self.dest, self.by_convoy
        own_convoy = {
            (powers[i], orders[i].army.province, orders[i].dest.province)  # type: ignore[union-attr]
            for i in self.convoys
        }
        army = _ARMY
        portage = bool(self.flags) and Flag.PORTAGE_CONVOY in self.flags
        for i in self.moves:
            if units[i].type is army:
                walk = dest[i] in m.army_neighbours(prov[i])
                by_convoy[i] = (
                    not walk
                    or orders[i].via_convoy  # type: ignore[union-attr]
                    or (powers[i], prov[i], dest[i]) in own_convoy
                )
            elif portage:  # a fleet carried overland by armies
                by_convoy[i] = not m.reaches_province(UnitType.FLEET, units[i].location, dest[i])  # type: ignore[arg-type]

    def _match_convoys(self) -> dict[int, None]:
        """Each convoy to the convoyed move it serves; the armies with convoys, in a fixed order."""
        kind, dest, by_convoy = self.kind, self.dest, self.by_convoy
        convoyed: dict[int, None] = {}
        for i in self.convoys:
            order = self.orders[i]
            j = self.at.get(order.army.province)  # type: ignore[union-attr]
            if j is not None and kind[j] == _MOVE and by_convoy[j] and dest[j] == order.dest.province:  # type: ignore[union-attr]
                _add(self.convoyers, j, i)
                convoyed[j] = None
        return convoyed

    def _match_supports(self) -> None:
        """Each support to the hold or move it supports, if that was ordered."""
        kind, dest, orders = self.kind, self.dest, self.orders
        for i in self.supports:
            order = orders[i]
            j = self.at.get(order.supported.province)  # type: ignore[union-attr]
            if j is None:
                continue
            if type(order) is SupportHold:
                if kind[j] != _MOVE:
                    _add(self.hold_support, j, i)
                    self.support_target[i] = j
            elif kind[j] == _MOVE and dest[j] == order.dest.province:  # type: ignore[union-attr]
                move_dest = orders[j].dest  # type: ignore[union-attr]
                if order.dest.coast is None or order.dest.coast == move_dest.coast:  # type: ignore[union-attr]
                    _add(self.move_support, j, i)
                    self.support_target[i] = j

    def _match_head_to_heads(self) -> None:
        kind, dest, by_convoy = self.kind, self.dest, self.by_convoy
        for i in self.moves:
            if not by_convoy[i]:
                j = self.at.get(dest[i])  # type: ignore[arg-type]
                if (
                    j is not None
                    and kind[j] == _MOVE
                    and not by_convoy[j]
                    and dest[j] == self.prov[i]
                    and not self._crawl(i, j)
                ):
                    self.h2h[i] = j

    def _keep_useful_convoys(self, convoyed: dict[int, None]) -> None:
        """A convoy counts only if its fleet can be part of a complete chain of convoying fleets."""
        for j in convoyed:
            useful = self._chain_members(j, self.convoyers[j])
            self.convoyers[j] = [f for f in self.convoyers[j] if f in useful]
            for f in self.convoyers[j]:
                self.convoy_target[f] = j

    def _crawl(self, i: int, j: int) -> bool:
        """COASTAL_CRAWL: two fleets swapping along different coasts of a two-coast province
        pass each other instead of meeting head to head."""
        if not self.coastal_crawl:
            return False
        for a, b in ((i, j), (j, i)):
            here = self.units[a].location
            there = self.orders[b].dest  # type: ignore[union-attr]
            if (
                here.coast is not None
                and there.coast is not None
                and here.coast != there.coast
                and self.units[b].type is _FLEET
            ):
                return True
        return False

    def _touches(self, sea: str, province: str) -> bool:
        """Does the convoying unit in `sea` border `province`? (An army carrying a fleet
        under PORTAGE_CONVOY borders what it could walk to.)"""
        j = self.at.get(sea)
        if j is not None and self.units[j].type is _ARMY:
            return province in self.map.army_neighbours(sea)
        return province in self.touch.get(sea, ())

    def _chain_members(self, j: int, fleets: list[int]) -> set[int]:
        """The fleets lying on some chain from the army to its destination."""
        origin, dest = self.prov[j], self.dest[j]
        seas = {self.prov[f]: f for f in fleets}
        fwd = self._reach(origin, seas)
        back = self._reach(dest, seas)  # type: ignore[arg-type]
        return {f for s, f in seas.items() if s in fwd and s in back}

    def _reach(self, start: str, seas: dict[str, int]) -> set[str]:
        frontier = [s for s in seas if self._touches(s, start)]
        seen = set(frontier)
        while frontier:
            s = frontier.pop()
            for t in seas:
                if t not in seen and self._touches(s, t):
                    seen.add(t)
                    frontier.append(t)
        return seen

    # -- the guess algorithm (DATC 5.F, in the form of "The Math of Adjudication") -------
    def resolve(self, i: int) -> bool:
        state = self.state[i]
        if state == _RESOLVED:
            return self.resolution[i]
        if state == _GUESSING:
            if i not in self.dep:
                self.dep.append(i)
            return self.resolution[i]
        old = len(self.dep)
        self.resolution[i] = False
        self.state[i] = _GUESSING
        first = self.adjudicate(i)
        if len(self.dep) == old:
            if self.state[i] != _RESOLVED:
                self.resolution[i] = first
                self.state[i] = _RESOLVED
            return first
        if self.dep[old] != i:
            # part of a cycle that started further up: report the guess-based result
            self.dep.append(i)
            self.resolution[i] = first
            return first
        # this decision starts the cycle: try the other guess
        for k in self.dep[old:]:
            self.state[k] = _UNRESOLVED
        del self.dep[old:]
        self.resolution[i] = True
        self.state[i] = _GUESSING
        second = self.adjudicate(i)
        if first == second:
            for k in self.dep[old:]:
                self.state[k] = _UNRESOLVED
            del self.dep[old:]
            self.resolution[i] = first
            self.state[i] = _RESOLVED
            return first
        self._backup_rule(old)
        return self.resolve(i)

    def _backup_rule(self, old: int) -> None:
        cycle = self.dep[old:]
        del self.dep[old:]
        convoys = [k for k in cycle if self.kind[k] == _CONVOY]
        for k in cycle:
            self.state[k] = _UNRESOLVED
        if convoys:  # a convoy paradox: the Szykman rule
            for k in convoys:
                self.resolution[k] = False
                self.state[k] = _RESOLVED
                self.szykman.add(k)
        else:  # circular movement (or, on other maps, anything else: it fails)
            moves_only = all(self.kind[k] == _MOVE for k in cycle)
            for k in cycle:
                self.resolution[k] = moves_only
                self.state[k] = _RESOLVED

    def adjudicate(self, i: int) -> bool:
        kind = self.kind[i]
        if kind == _MOVE:
            return self._move_succeeds(i)
        if kind == _SUPPORT:
            return self._support_given(i)
        if kind == _CONVOY:
            return self._convoy_holds(i)
        return True

    # -- the equations (DATC 5.B) ---------------------------------------------------------
    def path(self, i: int) -> bool:
        if not self.by_convoy[i]:
            return True
        fleets = self.convoyers.get(i)
        if not fleets:
            return False
        origin, dest = self.prov[i], self.dest[i]
        seas = {self.prov[f]: f for f in fleets}
        frontier = [s for s in seas if self._touches(s, origin)]
        seen = set(frontier)
        while frontier:
            s = frontier.pop()
            if not self.resolve(seas[s]):
                continue
            if self._touches(s, dest):  # type: ignore[arg-type]
                return True
            for t in seas:
                if t not in seen and self._touches(s, t):
                    seen.add(t)
                    frontier.append(t)
        return False

    def _supports(self, supporters: Sequence[int], exclude_power: PowerName | None = None) -> int:
        n = 1
        for s in supporters:
            if exclude_power is not None and self.powers[s] == exclude_power:
                continue
            if self.resolve(s):
                n += 1
        return n

    # attack_strength and prevent_strength ask `path` only for a move by convoy: a move
    # over land always has its path, and these run at every step of the resolver
    def attack_strength(self, i: int) -> int:
        if self.by_convoy[i] and not self.path(i):
            return 0
        d = self.at.get(self.dest[i])  # type: ignore[arg-type]
        # d == i: a fleet carried between the coasts of its own province (PORTAGE_CONVOY)
        if d is None or d == i or (self.h2h[i] is None and self.kind[d] == _MOVE and self.resolve(d)):
            return self._supports(self.move_support.get(i, ()))
        owner = self.powers[d]
        if owner in self.fire:
            return self._supports(self.move_support.get(i, ()))
        if owner == self.powers[i]:
            return 0
        return self._supports(self.move_support.get(i, ()), exclude_power=owner)

    def defend_strength(self, i: int) -> int:
        return self._supports(self.move_support.get(i, ()))

    def prevent_strength(self, i: int) -> int:
        if self.by_convoy[i] and not self.path(i):
            return 0
        o = self.h2h[i]
        if o is not None and self.resolve(o):
            return 0
        return self._supports(self.move_support.get(i, ()))

    def hold_strength(self, province: str, attacker: int) -> int:
        d = self.at.get(province)
        if d is None:
            return 0
        if self.kind[d] == _MOVE:
            if self.resolve(d):
                return 0
            # WEAK_BOUNCES (Key's rule): a unit whose move failed does not hold against
            # a foreign attack (against any attack, where friendly fire is allowed)
            weak = self.weak_bounces and (
                self.powers[attacker] != self.powers[d] or self.powers[d] in self.fire
            )
            return 0 if weak else 1
        return self._supports(self.hold_support.get(d, ()))

    def _move_succeeds(self, i: int) -> bool:
        attack = self.attack_strength(i)
        if attack == 0:
            return False
        o = self.h2h[i]
        if o is not None:
            if attack <= self.defend_strength(o):
                return False
        elif self.dest[i] != self.prov[i] and attack <= self.hold_strength(self.dest[i], i):  # type: ignore[arg-type]
            return False
        # an explicit loop rather than all(): this is the adjudicator's innermost step
        for c in self.moves_to[self.dest[i]]:  # type: ignore[index]  # noqa: SIM110
            if c != i and attack <= self.prevent_strength(c):
                return False
        return True

    def _support_given(self, i: int) -> bool:
        target = self.support_target[i]
        if target < 0:
            return False  # void: matches no order
        here = self.prov[i]
        aimed_at = self.dest[target] if self.kind[target] == _MOVE else None
        for c in self.moves_to.get(here, ()):
            if self.powers[c] == self.powers[i] and self.powers[i] not in self.fire:
                continue
            if self.prov[c] == aimed_at:
                # an attack from where the support goes cuts only by dislodging (5.B.2)
                if self.resolve(c):
                    return False
                continue
            if self.path(c):
                return False
        return True

    def _convoy_holds(self, i: int) -> bool:
        if self.convoy_target[i] < 0:
            return False
        attackers = self.moves_to.get(self.prov[i], ())
        for c in attackers:
            if self._move_succeeds(c):  # adjudicate, not resolve: DATC 5.D
                return False
        if attackers and (self.weak_convoys or self.safe_convoys):
            return self._convoy_survives(i, attackers)
        return True

    def _convoy_survives(self, i: int, attackers: list[int]) -> bool:
        """WEAK_CONVOYS: the fleet must hold with more strength than the strongest foreign
        attack on it. SAFE_CONVOYS: a beleaguered fleet (one that stays only because the
        strongest attacks on it, stronger than its hold, stand each other off) cannot convoy."""
        hold = self._supports(self.hold_support.get(i, ()))
        strength = {c: self.attack_strength(c) for c in attackers}
        top = max(strength.values())
        strongest = [c for c, s in strength.items() if s == top and s > 0]
        if not any(self.powers[c] != self.powers[i] for c in strongest):
            return True
        if self.weak_convoys and top >= hold:
            return False
        # SAFE_CONVOYS: beleaguered (the strongest attacks stand each other off) fails
        return not (self.safe_convoys and top > hold and len(strongest) > 1)

    # -- the outcome ------------------------------------------------------------------
    def result(self, position: Position, defaults: frozenset[str]) -> MovementResult:
        """Outcomes, units and dislodged units once every order is resolved. Each step
        walks only the orders of its kind: most units hold, and a hold succeeds unless
        its unit is dislodged."""
        resolution, dest, at = self.resolution, self.dest, self.at
        moved = [i for i in self.moves if resolution[i]]
        entered: dict[str, int] = {dest[i]: i for i in moved}  # type: ignore[misc]
        went = set(moved)
        # a unit that did not move, where a move succeeded, is dislodged by it
        dislodged_by: dict[int, int] = {}
        for province, attacker in entered.items():
            j = at.get(province)
            if j is not None and j not in went:
                dislodged_by[j] = attacker
        occupied, contested = self._standoffs(moved, entered)
        gone = [False] * len(self.units)
        for i in dislodged_by:
            gone[i] = True
        results = self._results(gone)
        powers, orders, prov = self.powers, self.orders, self.prov
        outcomes = tuple(
            [
                OrderOutcome(powers[i], orders[i], results[i], gone[i], prov[i] in defaults)
                for i in range(len(results))
            ]
        )
        return MovementResult(
            outcomes,
            self._units_after(position, moved, gone),
            self._dislodged(position, dislodged_by, occupied, contested),
            frozenset(contested),
        )

    def _standoffs(self, moved: list[int], entered: dict[str, int]) -> tuple[set[str], set[str]]:
        """The provinces occupied after the moves, and those left empty by a standoff
        (retreats may not go there); the provinces of dislodged units are among those entered."""
        prov = self.prov
        occupied = set(prov)
        occupied.difference_update([prov[i] for i in moved])
        occupied.update(entered)
        contested = set()
        for province, movers in self.moves_to.items():
            if province in occupied:
                continue
            for c in movers:
                if self.prevent_strength(c) > 0:
                    contested.add(province)
                    break
        return occupied, contested

    def _results(self, gone: list[bool]) -> list[Result]:
        """Each order's result; `gone`: the units dislodged."""
        resolution, by_convoy = self.resolution, self.by_convoy
        results = [_DISLODGED if g else _SUCCEEDS for g in gone]  # holds; the other kinds below
        for i in self.moves:
            if not resolution[i]:
                if by_convoy[i] and not self.convoyers.get(i):
                    results[i] = _NO_CONVOY
                elif by_convoy[i] and not self.path(i):
                    results[i] = _DISRUPTED
                else:
                    results[i] = _BOUNCED
        for i in self.supports:
            results[i] = _VOID if self.support_target[i] < 0 else (_SUCCEEDS if resolution[i] else _CUT)
        for i in self.convoys:
            if self.convoy_target[i] < 0:
                results[i] = _VOID
            elif i in self.szykman:
                results[i] = _DISRUPTED
            elif gone[i]:
                results[i] = _DISLODGED
            else:  # an attack stopped it under WEAK_CONVOYS or SAFE_CONVOYS
                results[i] = _SUCCEEDS if resolution[i] else _DISRUPTED
        return results

    def _units_after(
        self, position: Position, moved: list[int], gone: list[bool]
    ) -> dict[PowerName, tuple[Unit, ...]]:
        """Each power's units where they end the phase, the dislodged ones left out."""
        after: list[Unit] = list(self.units)
        for i in moved:
            after[i] = self.orders[i].arrived  # type: ignore[union-attr]
        new_units: dict[PowerName, tuple[Unit, ...]] = {}
        end = 0
        for power in sorted(position.units):  # each power's units are together on the board
            start, end = end, end + len(position.units[power])
            if True in gone[start:end]:
                mine = tuple(after[k] for k in range(start, end) if not gone[k])
            else:
                mine = tuple(after[start:end])
            if mine:
                new_units[power] = mine
        return new_units

    def _dislodged(
        self, position: Position, dislodged_by: dict[int, int], occupied: set[str], contested: set[str]
    ) -> dict[PowerName, tuple[Dislodged, ...]]:
        """The dislodged units of each power, with where each may retreat."""
        prov = self.prov
        dislodged: dict[PowerName, list[Dislodged]] = {}
        for i in sorted(dislodged_by):
            attacker, power, unit = dislodged_by[i], self.powers[i], self.units[i]
            dislodged.setdefault(power, []).append(
                Dislodged(
                    unit,
                    prov[attacker],
                    _retreats(
                        position, power, unit, prov[attacker], self.by_convoy[attacker], occupied, contested
                    ),
                )
            )
        return {p: tuple(ds) for p, ds in dislodged.items()}


def _add(table: dict[int, list[int]], key: int, i: int) -> None:
    """`i` added to the list of `key`, made if need be (cheaper compiled than `setdefault`)."""
    lst = table.get(key)
    if lst is None:
        table[key] = [i]
    else:
        lst.append(i)


def adjudicate_movement(
    position: Position,
    orders: dict[str, Order],
    defaults: frozenset[str] = frozenset(),
    *,
    flags: frozenset[Flag] = frozenset(),
    dummies: frozenset[PowerName] = frozenset(),
) -> MovementResult:
    """Adjudicate validated orders, keyed by the province of the ordered unit.

    Units without an order hold. `defaults` are provinces whose order was given by the
    judge (reported as such). `flags` are the rule flags in force (those of the movement
    phase: FRIENDLY_FIRE, DUMMY_FIRE, WEAK_BOUNCES, COASTAL_CRAWL, WEAK_CONVOYS,
    SAFE_CONVOYS), `dummies` the dummy powers.
    """
    b = _Board(position, orders, flags, dummies)
    kinds = b.kind
    for i in range(len(kinds)):
        if kinds[i] != _HOLD:
            b.resolve(i)
    return b.result(position, defaults)


def _retreats(
    position: Position,
    power: PowerName,
    unit: Unit,
    attacker_from: str,
    by_convoy: bool,
    occupied: set[str],
    contested: set[str],
) -> tuple[Location, ...]:
    m = position.map
    if unit.type is _ARMY:
        options = [Location(p) for p in m.army_neighbours(unit.province)]
    else:
        options = list(m.fleet_neighbours(unit.location))
    allowed = []
    for loc in options:
        p = loc.province
        if p in occupied or p in contested:
            continue
        if p == attacker_from and not by_convoy:  # DATC 4.A.5: allowed after a convoyed attack
            continue
        if crossing_refused(position, power, unit.province, p):  # the map's `X(CEN)`, `R:X`
            continue
        allowed.append(loc)
    return tuple(sorted(allowed))
