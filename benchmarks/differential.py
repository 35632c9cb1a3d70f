"""Differential check: payjudge against MILA's engine on random phases and on the DATC.

    .venv/bin/python benchmarks/differential.py [--seed 1] [--games 12] [--years 10] [-v]

Every phase of some random legal standard games (movement, retreats, adjustments) is
played by both engines from the same position: MILA is set to payjudge's position before
the phase (for a retreat phase, with payjudge's retreat options), so a disagreement never
carries over to the next phase. Compared after the phase: the units on the board, the
dislodged units and their retreat options, the supply centres and the next phase.

Each disagreement is classified by the rules that explain it, proved rather than guessed:
payjudge re-plays the phase under the smallest set of MILA's rules (`mila_rules.py`: the
orders rewritten the way MILA reads them, or one function of the resolver swapped for
MILA's behaviour; for adjustments, MILA's choice of civil-disorder removals) that gives
exactly MILA's result. A disagreement no set explains is printed in full, and the script
exits with status 1.

The script also runs the project's own DATC case files (tests/rules/datc) through MILA
and lists the cases where MILA's position differs from DATC v3.1.

payjudge runs here from its sources (`PAYJUDGE_PURE=1`, set below): swapping a function
of the resolver is not possible in a compiled module, whose functions call each other
directly. The compiled engines give the same answers (`make test` runs the rules' tests,
DATC included, on both).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from contextlib import ExitStack
from itertools import combinations
from pathlib import Path

os.environ["PAYJUDGE_PURE"] = "1"  # (before payjudge is imported: see the docstring)
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

# the imports below need the sys.path entries above, hence E402
from mila import new_game, play, set_position, state  # noqa: E402
from mila_rules import CLASSES, ENGINE_RULES, ORDER_RULES  # noqa: E402
from random_games import PhaseRecord, random_games  # noqa: E402

from payjudge.rules.mapfile import load_variant  # noqa: E402
from payjudge.rules.orders import Remove  # noqa: E402
from payjudge.rules.parse import parse_unit  # noqa: E402
from payjudge.rules.position import Position  # noqa: E402
from payjudge.rules.turn import play as pj_play  # noqa: E402
from payjudge.rules.turn import read_orders, winner  # noqa: E402


def pj_state(pos: Position) -> dict:
    # MILA ends the game on a win ("COMPLETED"); payjudge reports the winner and goes on
    ended = pos.phase.is_adjustments or (pos.phase.is_movement and pos.phase.season.name == "SPRING")
    phase = "COMPLETED" if ended and winner(pos) else str(pos.phase)
    return {
        "phase": phase,
        "units": {p: {str(u) for u in us} for p, us in pos.units.items() if us},
        "dislodged": {
            p: {str(d.unit): frozenset(str(r) for r in d.retreats) for d in ds}
            for p, ds in pos.dislodged.items()
            if ds
        },
        "centers": {p: frozenset(cs) for p, cs in pos.centers.items() if cs},
    }


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
        print(f"  disagree: {n:>5}  {key}")
    seen = sorted({k for key in classes for k in key.split(" + ") if k in CLASSES})
    if seen:
        print("\nwhy (each class proved by re-playing the phase under MILA's rule):")
        for k in seen:
            print(f"  {k:<8} {CLASSES[k]}")
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
        centers = (
            case.centers if case.centers is not None else {p: sorted(cs) for p, cs in m.start_centers.items()}
        )
        game = new_game(case.phase, {p: [canon(u) for u in us] for p, us in case.units.items()}, centers)
        for block in case.blocks:
            play(game, block.orders)
        got = state(game)
        if case.position is not None:
            want = {p: {canon(u) for u in us} for p, us in case.position.items() if us}
            if want != got["units"]:
                differ.append(case.id)
                print(
                    f"DATC {case.id} ({case.title}): MILA {_show_units(got['units'])}, "
                    f"DATC v3.1 {_show_units(want)}"
                )
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
