"""Speed: `payjudge adjudicate --jsonl` against MILA's engine on the same random phases.

    .venv/bin/python benchmarks/adjudicate.py [--seed 1] [--games 40] [--years 10] [--repeat 5]
        [--baseline OTHER/.venv/bin/payjudge | --baseline pure]

The random games of `random_games.py` are cut into `payjudge adjudicate` cases: one per
movement phase (with the retreat phase after it, if any: the input cannot describe
dislodged units) and one per adjustment phase. For each kind of case:

- payjudge: the real console script runs as a subprocess on a long JSONL file (every
  case) and on a short one (the first few cases); the marginal cost of a phase is
  (t_long - t_short) / (phases_long - phases_short), so interpreter start-up, imports
  and map loading do not count. Best of `--repeat` runs each.
- MILA: in this process, on the very same cases, best of `--repeat` runs. Two figures:
  `process()` alone (the game already built and its orders set), and MILA's whole work
  per case: `Game()`, setting phase, units and centres, setting the orders and
  `process()` for each phase.

`--baseline` times another build's console script (another checkout's, before a change)
the same way in the same run, each run of one alternating with a run of the other, so that
the machine's load weighs on both alike: its figure and this build's speed-up over it are
printed beside the table. `--baseline pure` is this build with `PAYJUDGE_PURE=1`: the
engines run from their sources instead of compiled (payjudge/native.py).

The headline ratio is the strict one: payjudge's whole marginal cost (JSON in, parsing,
validation, adjudication, JSON out) against MILA's `process()` alone. The ratio against
MILA with its set-up is printed beside it.

All times are CPU times (user + system; the subprocess's from `getrusage`), which other
work on a shared machine disturbs much less than wall-clock time.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import cli_timing  # noqa: E402
from mila import mila_order, new_game  # noqa: E402
from random_games import phase_cases, random_games  # noqa: E402

KINDS = ("movement", "movement+retreats", "adjustments")


def run_jsonl(path: Path, expect: int, script: str | None = None) -> float:
    """CPU time (user + system) of one `payjudge adjudicate --jsonl` run."""
    return cli_timing.run_jsonl("adjudicate", path, expect, script)


def time_mila(cases: list[dict], repeat: int) -> tuple[float, float]:
    """Best total CPU time of MILA's set-up + processing, and of its process() calls alone."""
    clock = time.process_time
    best_total = best_process = float("inf")
    for _ in range(repeat):
        total = processing = 0.0
        for doc in cases:
            start = clock()
            game = new_game(doc["phase"], doc["units"], doc["centers"])
            for orders in doc["orders"]:
                for power, texts in orders.items():
                    game.set_orders(power, [mila_order(t) for t in texts])
                before = clock()
                game.process()
                processing += clock() - before
            total += clock() - start
        best_total = min(best_total, total)
        best_process = min(best_process, processing)
    return best_total, best_process


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--years", type=int, default=10)
    ap.add_argument("--short", type=int, default=20, help="cases in the short run")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument(
        "--baseline", help="another payjudge console script, or 'pure' (this one from source), alongside"
    )
    args = ap.parse_args()

    records = list(random_games(args.seed, args.games, args.years))
    by_kind: dict[str, list[tuple[dict, int]]] = {k: [] for k in KINDS}
    for doc, group in phase_cases(records):
        kind = (
            "adjustments"
            if group[0].position.phase.is_adjustments
            else ("movement+retreats" if len(group) == 2 else "movement")
        )
        by_kind[kind].append((doc, len(group)))
    print(
        f"{len(records)} phases of {args.games} random games (seed {args.seed}, "
        f"up to {args.years} years); best of {args.repeat} runs"
    )
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs\n")
    header = (
        f"{'cases':<19}{'cases':>6}{'phases':>7}{'payjudge':>10}"
        f"{'MILA process()':>16}{'ratio':>7}{'MILA with set-up':>18}{'ratio':>7}"
    )
    print("ms per phase; ratio = MILA's time / payjudge's (the strict one: process() only)")
    print(header)
    print("-" * len(header))

    def row(label: str, cases: str, phases: str, pj: float, proc: float, mila: float) -> None:
        print(
            f"{label:<19}{cases:>6}{phases:>7}{pj * 1000:>10.3f}{proc * 1000:>16.3f}"
            f"{proc / pj:>6.1f}x{mila * 1000:>18.3f}{mila / pj:>6.1f}x"
        )

    totals = {"phases": 0, "pj": 0.0, "mila": 0.0, "proc": 0.0, "base": 0.0}
    baseline_rows: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        for kind in KINDS:
            items = by_kind[kind]
            if len(items) <= args.short:
                continue
            long_path, short_path = Path(tmp, f"{kind}-long.jsonl"), Path(tmp, f"{kind}-short.jsonl")
            long_path.write_text("".join(json.dumps(d) + "\n" for d, _ in items))
            short_path.write_text("".join(json.dumps(d) + "\n" for d, _ in items[: args.short]))
            phases_long = sum(n for _, n in items)
            phases_short = sum(n for _, n in items[: args.short])
            scripts: list[str | None] = [None, args.baseline] if args.baseline else [None]
            t_long = dict.fromkeys(scripts, float("inf"))
            t_short = dict.fromkeys(scripts, float("inf"))
            for _ in range(args.repeat):
                for script in scripts:
                    t_long[script] = min(t_long[script], run_jsonl(long_path, len(items), script))
                    t_short[script] = min(t_short[script], run_jsonl(short_path, args.short, script))
            pj = (t_long[None] - t_short[None]) / (phases_long - phases_short)
            if args.baseline:
                base = t_long[args.baseline] - t_short[args.baseline]
                totals["base"] += base
                base /= phases_long - phases_short
                baseline_rows.append(f"{kind:<19}{base * 1000:>10.3f}{pj * 1000:>10.3f}{base / pj:>9.2f}x")
            mila_total, mila_process = time_mila([d for d, _ in items], args.repeat)
            row(
                kind,
                str(len(items)),
                str(phases_long),
                pj,
                mila_process / phases_long,
                mila_total / phases_long,
            )
            totals["phases"] += phases_long - phases_short
            totals["pj"] += t_long[None] - t_short[None]
            totals["mila"] += mila_total * (phases_long - phases_short) / phases_long
            totals["proc"] += mila_process * (phases_long - phases_short) / phases_long
    n = totals["phases"]
    pj, mila, proc = totals["pj"] / n, totals["mila"] / n, totals["proc"] / n
    print("-" * len(header))
    row("all phases", "", "", pj, proc, mila)
    print(
        f"\npayjudge is {proc / pj:.1f}x as fast as MILA's process() alone (strict measure), "
        f"{mila / pj:.1f}x with MILA's set-up counted"
    )
    if args.baseline:
        base = totals["base"] / n
        baseline_rows.append(f"{'all phases':<19}{base * 1000:>10.3f}{pj * 1000:>10.3f}{base / pj:>9.2f}x")
        print(f"\nbaseline {args.baseline}, timed alternately with this build (ms per phase):")
        print(f"{'cases':<19}{'baseline':>10}{'this':>10}{'speed-up':>10}")
        print("\n".join(baseline_rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
