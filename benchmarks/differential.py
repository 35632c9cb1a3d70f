"""Differential check: payjudge against MILA's engine on random phases and on the DATC.

    .venv/bin/python benchmarks/differential.py [--seed 1] [--games 12] [--years 10] [-v]

Every phase of some random legal standard games (movement, retreats, adjustments) is
played by both engines from the same position: MILA is set to payjudge's position before
the phase (for a retreat phase, with payjudge's retreat options), so a disagreement never
carries over to the next phase. Compared after the phase: the units on the board, the
dislodged units and their retreat options, the supply centres and the next phase.

Each disagreement is classified by the rule that explains it. A class is proved, not
guessed, where a counterfactual exists: payjudge re-plays the phase with the orders
changed the way MILA reads them (e.g. the coast of a support ignored) or with MILA's
removal rule, and the class holds only if the results then agree. What is left is
printed in full (and `unexplained` is non-zero).

The script also runs the project's own DATC case files (tests/rules/datc) through MILA
and lists the cases where MILA's position differs from DATC v3.1.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from contextlib import ExitStack, contextmanager
from dataclasses import replace
from itertools import combinations
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from mila import new_game, play, set_position, state  # noqa: E402
from random_games import PhaseRecord, random_games  # noqa: E402

from payjudge.rules import movement  # noqa: E402
from payjudge.rules.geography import UnitType  # noqa: E402
from payjudge.rules.mapfile import load_variant  # noqa: E402
from payjudge.rules.orders import Convoy, Hold, Move, Remove, SupportMove  # noqa: E402
from payjudge.rules.parse import parse_unit  # noqa: E402
from payjudge.rules.position import Position  # noqa: E402
from payjudge.rules.turn import play as pj_play, read_orders  # noqa: E402

CLASSES = {
    "6.B.9": "support naming a coast the supported fleet does not move to: MILA rewrites the "
             "coast and counts the support (DATC 6.B.9, issue 4.B.4: the support is void)",
    "6.G.8": "army ordered VIA CONVOY to an adjacent province without a complete chain of "
             "fleets ordered to convoy it: MILA falls back to the land route (DATC v3.1 6.G.8 / 4.A.3 no longer prefers the fallback)",
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


def pj_state(pos: Position) -> dict:
    return {"phase": str(pos.phase),
            "units": {p: {str(u) for u in us} for p, us in pos.units.items() if us},
            "dislodged": {p: {str(d.unit): frozenset(str(r) for r in d.retreats) for d in ds}
                          for p, ds in pos.dislodged.items() if ds},
            "centers": {p: frozenset(cs) for p, cs in pos.centers.items() if cs}}


def differences(ours: dict, theirs: dict) -> list[str]:
    out = []
    for key in ("phase", "units", "dislodged", "centers"):
        a, b = ours[key], theirs[key]
        if a == b:
            continue
        if key == "phase":
            out.append(f"phase: payjudge {a}, MILA {b}")
            continue
        for power in sorted(set(a) | set(b)):
            x, y = a.get(power, {}), b.get(power, {})
            if x != y:
                out.append(f"{key} {power}: payjudge {_show(x)}, MILA {_show(y)}")
    return out


def _show(v) -> str:
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {sorted(r)}" for k, r in sorted(v.items())) + "}"
    return str(sorted(v))


# -- counterfactuals: payjudge re-played under one of MILA's rules ----------------------
# An order rule rewrites the orders the way MILA reads them; an engine rule swaps one
# small function of payjudge's resolver for MILA's behaviour while the phase is re-played.
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
    return _rewrite(orders, lambda p, o: replace(o, dest=o.dest.bare)
                    if isinstance(o, SupportMove) and o.dest.coast is not None else o)


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
            if not (isinstance(o, Move) and o.unit.type is UnitType.ARMY
                    and o.dest.province in m.army_neighbours(o.unit.province)):
                continue
            mine = [c for p, c in convoys if p == power and c.army == o.unit
                    and c.dest.province == o.dest.province]
            if not (o.via_convoy or mine):
                continue
            fleets = {c.unit.province for _, c in convoys
                      if c.army == o.unit and c.dest.province == o.dest.province}
            if not _chain(pos, o.unit, o.dest.province, fleets):
                by_land.add(o.unit)

    def change(power, o):
        if isinstance(o, Move) and o.unit in by_land:
            return replace(o, via_convoy=False)
        if isinstance(o, Convoy) and o.army in by_land and owner.get(o.army.province) == power:
            return Hold(o.unit)
        return o
    return _rewrite(orders, change) if by_land else None


def rule_foreign_convoy(pos: Position, orders: dict) -> dict | None:
    """4.A.3: an adjacent move that any power's fleet convoys goes by convoy."""
    m = pos.map
    convoys = _convoy_orders(orders)

    def change(power, o):
        if isinstance(o, Move) and not o.via_convoy and o.unit.type is UnitType.ARMY \
                and o.dest.province in m.army_neighbours(o.unit.province) \
                and any(c.army == o.unit and c.dest.province == o.dest.province and p != power
                        for p, c in convoys):
            return replace(o, via_convoy=True)
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
        if self.by_convoy[i] and d is not None and self.powers[d] != self.powers[i] \
                and self.path(i) and not (self.h2h[i] is None and self.kind[d] == movement._MOVE
                                          and self.resolve(d)):
            return self._supports(self.move_support[i])
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

    def retreats(m, unit, attacker_from, by_convoy, occupied, contested):
        if by_convoy:
            return original(m, unit, attacker_from, by_convoy, set(), set())
        return original(m, unit, attacker_from, by_convoy, occupied, contested)
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
        return self._supports(self.move_support[i], exclude_power=self.powers[other])
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

    def attack_strength(self, i):
        d = self.at.get(self.dest[i])
        if getattr(self, "_mila_all_supports", False) and d is not None \
                and self.powers[d] != self.powers[i] and self.path(i):
            return self._supports(self.move_support[i])
        return original_attack(self, i)

    def convoy_holds(self, i):
        self._mila_all_supports = True
        try:
            return original_convoy(self, i)
        finally:
            self._mila_all_supports = False
    board._convoy_holds, board.attack_strength = convoy_holds, attack_strength
    try:
        yield
    finally:
        board._convoy_holds, board.attack_strength = original_convoy, original_attack


ORDER_RULES = {"6.B.9": rule_support_coast, "6.G.8": rule_land_fallback,
               "4.A.3": rule_foreign_convoy}
ENGINE_RULES = {"6.D.12": rule_own_support_by_convoy, "6.H.11": rule_retreats_after_convoy,
                "5.B-h2h": rule_h2h_defence, "6.F.4": rule_convoy_disruption}


def _replay(record: PhaseRecord, rules: tuple[str, ...]) -> dict | None:
    orders, problems = read_orders(record.position, record.orders)
    for name in rules:
        if name in ORDER_RULES:
            changed = ORDER_RULES[name](record.position, orders)
            if changed is None:
                return None  # the rule has nothing to act on here
            orders = changed
    with ExitStack() as stack:
        for name in rules:
            if name in ENGINE_RULES:
                stack.enter_context(ENGINE_RULES[name]())
        _, nxt = pj_play(record.position, orders, problems)
    return pj_state(nxt)


def mila_removals(record: PhaseRecord, theirs: dict) -> dict | None:
    """6.J: payjudge's removals with MILA's choice of the civil-disorder ones."""
    pos = record.position
    orders, problems = read_orders(pos, record.orders)
    report, _ = pj_play(pos, orders, problems)
    defaults = [o for o in report.outcomes if o.default and isinstance(o.order, Remove)]
    if not defaults:
        return None
    forced: dict[str, list] = {p: list(os) for p, os in orders.items()}
    for power in {o.power for o in defaults}:
        kept = theirs["units"].get(power, set())
        gone = [u for u in pos.units.get(power, ()) if str(u) not in kept]
        forced[power] = [Remove(u) for u in gone]
    _, nxt = pj_play(pos, forced, problems)
    return pj_state(nxt)


def classify(record: PhaseRecord, ours: dict, theirs: dict) -> list[str]:
    """The smallest set of MILA's rules under which payjudge agrees with MILA."""
    kind = record.position.phase.type.name
    if kind == "ADJUSTMENTS":
        alt = mila_removals(record, theirs)
        return ["6.J"] if alt is not None and not differences(alt, theirs) else []
    if kind != "MOVEMENT":
        return []
    names = [*ORDER_RULES, *ENGINE_RULES]
    for size in (1, 2, 3):
        for rules in combinations(names, size):
            alt = _replay(record, rules)
            if alt is not None and not differences(alt, theirs):
                return list(rules)
    return []


def run_random(seed: int, games: int, years: int, verbose: bool) -> int:
    records = list(random_games(seed, games, years))
    kinds = Counter()
    agree = Counter()
    classes: Counter = Counter()
    unexplained = []
    for record in records:
        kind = record.position.phase.type.name.lower()
        kinds[kind] += 1
        orders, problems = read_orders(record.position, record.orders)
        _, nxt = pj_play(record.position, orders, problems)
        ours = pj_state(nxt)
        game = set_position(record.position)
        play(game, record.orders)
        theirs = state(game)
        diff = differences(ours, theirs)
        if not diff:
            agree[kind] += 1
            continue
        found = classify(record, ours, theirs)
        key = " + ".join(found) if found else "unexplained"
        classes[key] += 1
        if not found:
            unexplained.append((record, diff))
        if verbose or not found:
            print(f"game {record.game} {record.phase} [{key}]")
            for line in diff:
                print("   ", line)
            if not found:
                for power, texts in record.orders.items():
                    print(f"    {power}: {'; '.join(texts)}")
    total = sum(kinds.values())
    print(f"\nrandom phases: {total} ({games} games from seed {seed}, up to {years} years)")
    for kind in ("movement", "retreats", "adjustments"):
        print(f"  {kind:<12} {kinds[kind]:>5} phases, {agree[kind]:>5} agree")
    print(f"  agree: {sum(agree.values())}/{total}")
    for key, n in classes.most_common():
        text = " + ".join(CLASSES.get(k, k) for k in key.split(" + "))
        print(f"  disagree {n:>4}  [{key}] {text if key != 'unexplained' else ''}")
    return len(unexplained)


def run_datc() -> list[str]:
    """The DATC cases (project's files) where MILA's final position differs."""
    from tests.rules.datc_format import read_cases

    m = load_variant("standard")

    def canon(text: str) -> str:
        spec = parse_unit(text, m)
        return f"{spec.type.value} {spec.location}"

    differ = []
    for case in read_cases():
        centers = case.centers if case.centers is not None else \
            {p: sorted(cs) for p, cs in m.start_centers.items()}
        game = new_game(case.phase, {p: [canon(u) for u in us] for p, us in case.units.items()},
                        centers)
        for block in case.blocks:
            play(game, block.orders)
        got = state(game)
        if case.position is not None:
            want = {p: {canon(u) for u in us} for p, us in case.position.items() if us}
            if want != got["units"]:
                differ.append(case.id)
                print(f"DATC {case.id} ({case.title}): MILA {_show_units(got['units'])}, "
                      f"DATC v3.1 {_show_units(want)}")
    return differ


def _show_units(units: dict) -> str:
    return "; ".join(f"{p}: {', '.join(sorted(us))}" for p, us in sorted(units.items()))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--years", type=int, default=10)
    ap.add_argument("-v", "--verbose", action="store_true", help="print every disagreement")
    args = ap.parse_args()
    differ = run_datc()
    print(f"DATC cases where MILA's position differs: {len(differ)}: {', '.join(differ)}\n")
    unexplained = run_random(args.seed, args.games, args.years, args.verbose)
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
