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

from .flags import Flag
from .geography import Map, UnitType
from .matching import _CONVOY, _HOLD, _MOVE, _SUPPORT, prepare
from .movement_result import MovementResult, movement_result
from .names import PowerName
from .orders import Order, Unit
from .position import Position

# Final: mypyc makes each a constant of the compiled module (a plain module name is a
# dictionary lookup at every use, and the resolver uses these at every step)
_UNRESOLVED: Final = 0
_GUESSING: Final = 1
_RESOLVED: Final = 2
_province_of: Final = attrgetter("province")
# Enum members read once: in Python 3.11 each `Result.X` or `UnitType.X` is a descriptor
# call, and `Flag.X in flags` hashes the member in Python; the loops below do this for
# every unit and every step of the resolver
_ARMY: Final = UnitType.ARMY
_FLEET: Final = UnitType.FLEET


def _touching(m: Map) -> dict[str, frozenset[str]]:
    """Province -> the provinces a fleet there (on any coast) borders (for convoy chains)."""
    touch: dict[str, set[str]] = {}
    for loc, ns in m.fleet_adjacency.items():
        touch.setdefault(loc.province, set()).update(n.province for n in ns)
    return {p: frozenset(ns) for p, ns in touch.items()}


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
        prepare(self)

    def _touches(self, sea: str, province: str) -> bool:
        """Does the convoying unit in `sea` border `province`? (An army carrying a fleet
        under PORTAGE_CONVOY borders what it could walk to.)"""
        j = self.at.get(sea)
        if j is not None and self.units[j].type is _ARMY:
            return province in self.map.army_neighbours(sea)
        return province in self.touch.get(sea, ())

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
    return movement_result(b, position, defaults)
