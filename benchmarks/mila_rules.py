"""MILA's rules where they differ from payjudge's (DATC v3.1), as counterfactuals.

An order rule rewrites the orders the way MILA reads them; an engine rule swaps one small
function of payjudge's resolver for MILA's behaviour while a phase is re-played. Each was
read off MILA's source (`diplomacy/engine/game.py`, version 1.1.2); `differential.py`
counts a disagreement as explained only when a re-play under these rules gives exactly
MILA's result. The engine rules reach into `payjudge.rules.movement`'s private resolver
and must follow its changes.
"""

from __future__ import annotations

from contextlib import contextmanager

from payjudge.rules import movement
from payjudge.rules.geography import UnitType
from payjudge.rules.orders import Convoy, Hold, Move, SupportMove
from payjudge.rules.position import Position

CLASSES = {
    "6.B.9": "support naming a coast the supported fleet does not move to: MILA rewrites the "
    "coast and counts the support (DATC 6.B.9, issue 4.B.4: the support is void)",
    "6.G.8": "army ordered VIA CONVOY to an adjacent province without a complete chain of "
    "fleets ordered to convoy it: MILA falls back to the land route (DATC v3.1 6.G.8 / "
    "4.A.3 no longer prefers the fallback)",
    "4.A.3": "army moving to an adjacent province convoyed by another power's fleet: MILA takes "
    "the convoy route whoever convoys (DATC 4.A.3 v3.1: only the army's own power's "
    "convoy orders, or VIA CONVOY, show the intent to convoy)",
    "6.D.12": "a power's support for a convoyed attack on its own unit: MILA counts it and "
    "the unit is dislodged (DATC 6.D.12 / 6.E.3: no help in dislodging one's own unit; "
    "MILA enforces it for attacks over land only)",
    "6.H.11": "retreat options of a unit dislodged by a convoyed army: MILA offers every "
    "adjacent place, occupied and standoff ones too (an and/or precedence slip in "
    "Game._move_results; DATC 6.H.11 lifts only the ban on the attacker's origin)",
    "5.B-h2h": "head-to-head battle where a power supports the move against its own unit: "
    "MILA leaves that support out of the defence as well (it compares attack with "
    "attack); DATC 5.B compares the attack strength with the defend strength, which "
    "counts every support",
    "6.F.4": "convoying fleet attacked with the support of its own power: MILA counts that "
    "support when it decides the convoy is disrupted (the fleet stays, the army "
    "fails); DATC 6.D.12 / 6.F.4: the fleet is not dislodged, so the convoy holds",
    "6.J": "civil-disorder removal: MILA removes by distance to home centres, fleets first "
    "(pre-2023 rule); payjudge uses the 2023 rule of DATC v3.1 4.D.8 / 6.J",
}


def _convoy_orders(orders: dict) -> list[tuple[str, Convoy]]:
    return [(p, o) for p, os in orders.items() for o in os if isinstance(o, Convoy)]


def _rewrite(orders: dict, change) -> dict | None:
    hit = False
    out = {}
    for power, os in orders.items():
        new = []
        for o in os:
            o2 = change(power, o)
            hit = hit or o2 is not o
            new.append(o2)
        out[power] = new
    return out if hit else None


def rule_support_coast(pos: Position, orders: dict) -> dict | None:
    """6.B.9: the coast named in a support of a fleet move is ignored."""
    return _rewrite(
        orders,
        lambda p, o: (
            SupportMove(o.unit, o.supported, o.dest.bare)
            if isinstance(o, SupportMove) and o.dest.coast is not None
            else o
        ),
    )


def _chain(pos: Position, army, dest: str, fleets: set[str]) -> bool:
    """Is there a chain of seas holding `fleets` from the army to `dest`?"""
    m = pos.map
    goal = set(m.sea_neighbours(dest))
    frontier = [s for s in m.sea_neighbours(army.province) if s in fleets]
    seen = set(frontier)
    while frontier:
        sea = frontier.pop()
        if sea in goal:
            return True
        for nxt in m.sea_neighbours(sea):
            if nxt in fleets and nxt not in seen:
                seen.add(nxt)
                frontier.append(nxt)
    return False


def rule_land_fallback(pos: Position, orders: dict) -> dict | None:
    """6.G.8: an army ordered to an adjacent province by convoy (VIA CONVOY, or its own
    power's fleet convoys it) goes by land when the fleets ordered to convoy it do not
    make a complete chain; those fleets then just hold."""
    m = pos.map
    convoys = _convoy_orders(orders)
    owner = {o.unit.province: p for p, os in orders.items() for o in os}
    by_land: set = set()
    for power, os in orders.items():
        for o in os:
            if not (
                isinstance(o, Move)
                and o.unit.type is UnitType.ARMY
                and o.dest.province in m.army_neighbours(o.unit.province)
            ):
                continue
            mine = [
                c
                for p, c in convoys
                if p == power and c.army == o.unit and c.dest.province == o.dest.province
            ]
            if not (o.via_convoy or mine):
                continue
            fleets = {
                c.unit.province for _, c in convoys if c.army == o.unit and c.dest.province == o.dest.province
            }
            if not _chain(pos, o.unit, o.dest.province, fleets):
                by_land.add(o.unit)

    def change(power, o):
        if isinstance(o, Move) and o.unit in by_land:
            return Move(o.unit, o.dest, via_convoy=False)
        if isinstance(o, Convoy) and o.army in by_land and owner.get(o.army.province) == power:
            return Hold(o.unit)
        return o

    return _rewrite(orders, change) if by_land else None


def rule_foreign_convoy(pos: Position, orders: dict) -> dict | None:
    """4.A.3: an adjacent move that any power's fleet convoys goes by convoy."""
    m = pos.map
    convoys = _convoy_orders(orders)

    def change(power, o):
        if (
            isinstance(o, Move)
            and not o.via_convoy
            and o.unit.type is UnitType.ARMY
            and o.dest.province in m.army_neighbours(o.unit.province)
            and any(
                c.army == o.unit and c.dest.province == o.dest.province and p != power for p, c in convoys
            )
        ):
            return Move(o.unit, o.dest, via_convoy=True)
        return o

    return _rewrite(orders, change)


@contextmanager
def rule_own_support_by_convoy():
    """MILA counts a power's support for a convoyed attack on its own unit (6.D.12 and
    6.E.3 forbid it; MILA applies them to attacks over land only)."""
    board = movement._Board
    original = board.attack_strength

    def attack_strength(self, i):
        d = self.at.get(self.dest[i])
        if (
            self.by_convoy[i]
            and d is not None
            and self.powers[d] != self.powers[i]
            and self.path(i)
            and not (self.h2h[i] is None and self.kind[d] == movement._MOVE and self.resolve(d))
        ):
            return self._supports(self.move_support.get(i, ()))
        return original(self, i)

    board.attack_strength = attack_strength
    try:
        yield
    finally:
        board.attack_strength = original


@contextmanager
def rule_retreats_after_convoy():
    """MILA lets a unit dislodged by a convoyed army retreat to every adjacent place, even
    an occupied or a standoff one (`Game._move_results` tests
    `not combat and where != attacker or via_convoy`: the `or` escapes every condition;
    DATC 6.H.11 lifts only the ban on the attacker's origin)."""
    original = movement._retreats

    def retreats(position, power, unit, attacker_from, by_convoy, occupied, contested):
        if by_convoy:
            return original(position, power, unit, attacker_from, by_convoy, set(), set())
        return original(position, power, unit, attacker_from, by_convoy, occupied, contested)

    movement._retreats = retreats
    try:
        yield
    finally:
        movement._retreats = original


@contextmanager
def rule_h2h_defence():
    """MILA's head-to-head battle compares the two attack strengths: a support a power
    gives to the move against its own unit counts on neither side. DATC 5.B compares the
    attack strength with the defend strength, which counts every support."""
    board = movement._Board
    original = board.defend_strength

    def defend_strength(self, i):
        other = self.h2h[i]
        if other is None:
            return original(self, i)
        return self._supports(self.move_support.get(i, ()), exclude_power=self.powers[other])

    board.defend_strength = defend_strength
    try:
        yield
    finally:
        board.defend_strength = original


@contextmanager
def rule_convoy_disruption():
    """MILA decides whether a convoying fleet is dislodged (and the convoy disrupted) with
    every support counted, before it applies the rule that a power's support cannot
    dislodge its own unit: the fleet stays, the convoy still fails. DATC 6.D.12 and 6.F.4:
    only a fleet really dislodged breaks the convoy."""
    board = movement._Board
    original_convoy, original_attack = board._convoy_holds, board.attack_strength
    deciding = set()  # the boards deciding a convoy (a board has slots: no flag on it)

    def attack_strength(self, i):
        d = self.at.get(self.dest[i])
        if id(self) in deciding and d is not None and self.powers[d] != self.powers[i] and self.path(i):
            return self._supports(self.move_support.get(i, ()))
        return original_attack(self, i)

    def convoy_holds(self, i):
        deciding.add(id(self))
        try:
            return original_convoy(self, i)
        finally:
            deciding.discard(id(self))

    board._convoy_holds, board.attack_strength = convoy_holds, attack_strength
    try:
        yield
    finally:
        board._convoy_holds, board.attack_strength = original_convoy, original_attack


ORDER_RULES = {"6.B.9": rule_support_coast, "6.G.8": rule_land_fallback, "4.A.3": rule_foreign_convoy}
ENGINE_RULES = {
    "6.D.12": rule_own_support_by_convoy,
    "6.H.11": rule_retreats_after_convoy,
    "5.B-h2h": rule_h2h_defence,
    "6.F.4": rule_convoy_disruption,
}
