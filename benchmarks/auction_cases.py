"""Speed of realistic auctions: `payjudge auction --jsonl` on the 126 DPjudge cases.

    .venv/bin/python benchmarks/auction_cases.py [--cases DIR] [--repeat 7] [--profile]
        [--baseline OTHER/.venv/bin/payjudge | --baseline pure]

The cases are the movement phases of `shared/payola-cases/` (DPjudge's corpus of
realistic auctions, answers corrected to the rulebook). The real console script runs as
a subprocess twice: on a short JSONL file holding one trivial auction (the standard
map's opening position, no sheets: it loads the map and every module) and on a long one
holding that same auction followed by the 126 cases. The marginal cost of an auction is
(t_long - t_short) / 126: interpreter start-up, imports and map loading do not count;
everything else does — JSON in, sheet parsing, acceptance lists, the auction with its
rule 5.5 reductions, the account statements (Jinja) and JSON out. Times are CPU times
(user + system of the child, from `getrusage`), the best of `--repeat` runs each.

The reference is DPjudge's `determineOrders()` on the same 126 phases: 7.2 ms mean
(median 1.7 ms), measured under Python 2.7 on this kind of machine. It is a *recorded*
figure, not measured in the same run: DPjudge (Python 2) cannot run here.

`--baseline` times another build's console script the same way, alternately (`pure`: this
build with PAYJUDGE_PURE=1, the engines from their sources instead of compiled).

`--profile` runs the cases in this process under cProfile instead, and prints where the
time goes, grouped by stage. `--stages` times one pass over the cases in this process,
as the command line makes it (the readings `text.offer_memo` keeps start empty), stage by
stage: JSON in, the position, the offer sheets, the auction, the account statements
(view and template), the rest of the output, JSON out.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import cli_timing  # benchmarks/ is on sys.path: this script runs from there

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DEFAULT_CASES = next(
    (
        d / "shared" / "payola-cases"
        for d in (ROOT.parent, ROOT.parent.parent)
        if (d / "shared" / "payola-cases").is_dir()
    ),
    ROOT / "payola-cases",
)
DPJUDGE_MEAN_MS = 7.2  # recorded: DPjudge determineOrders(), Python 2.7, same 126 phases
DPJUDGE_MEDIAN_MS = 1.7

TRIVIAL = {
    "variant": "standard",
    "phase": "S1901M",
    "units": {},
    "centers": {},
    "balances": {},
    "accept": {},
    "sheets": {},
    "rules": [],
    "dummies": [],
    "seed": 0,
}


def load_cases(folder: Path) -> list[dict]:
    paths = sorted(folder.glob("*.json"))
    if not paths:
        sys.exit(f"no cases in {folder}")
    return [json.loads(p.read_text())["input"] for p in paths]


def run_jsonl(path: Path, expect: int, script: str | None = None) -> float:
    """CPU time (user + system) of one `payjudge auction --jsonl` run (`script`: as in
    `cli_timing.run_jsonl`)."""
    return cli_timing.run_jsonl("auction", path, expect, script)


def trivial_case(cases: list[dict]) -> dict:
    doc = dict(TRIVIAL)
    doc["units"] = cases[0]["units"]
    doc["centers"] = cases[0]["centers"]
    return doc


def measure(cases: list[dict], repeat: int, scripts: tuple[str | None, ...] = (None,)) -> list[float]:
    """Marginal CPU seconds per auction, through the console script; with several
    `scripts` (as in `cli_timing.run_jsonl`), each one's, their runs alternating."""
    warm = trivial_case(cases)
    with tempfile.TemporaryDirectory() as tmp:
        short, long = Path(tmp, "short.jsonl"), Path(tmp, "long.jsonl")
        short.write_text(json.dumps(warm) + "\n")
        long.write_text("".join(json.dumps(d) + "\n" for d in [warm, *cases]))
        t_long = [float("inf")] * len(scripts)
        t_short = [float("inf")] * len(scripts)
        for _ in range(repeat):  # interleaved, so that a burst of load hits all alike
            for i, script in enumerate(scripts):
                t_short[i] = min(t_short[i], run_jsonl(short, 1, script))
                t_long[i] = min(t_long[i], run_jsonl(long, len(cases) + 1, script))
    return [(lo - sh) / len(cases) for lo, sh in zip(t_long, t_short)]


def per_case(cases: list[dict], repeat: int) -> list[float]:
    """CPU seconds of each case's `jsonapi.auction.run`, in this process (best of `repeat`)."""
    sys.path.insert(0, str(ROOT))
    from payjudge.jsonapi.auction import run

    run(trivial_case(cases))
    out = []
    for doc in cases:
        best = float("inf")
        for _ in range(repeat):
            t = time.process_time()
            json.dumps(run(json.loads(json.dumps(doc))), separators=(",", ":"))
            best = min(best, time.process_time() - t)
        out.append(best)
    return out


def profile(cases: list[dict]) -> None:
    import cProfile
    import pstats

    sys.path.insert(0, str(ROOT))
    from payjudge.jsonapi.auction import run

    run(trivial_case(cases))
    lines = [json.dumps(d) for d in cases]
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(5):
        for line in lines:
            json.dumps(run(json.loads(line)), separators=(",", ":"))
    prof.disable()
    stats = pstats.Stats(prof)
    stats.sort_stats("cumulative").print_stats(40)


def stages(cases: list[dict], repeat: int) -> None:
    """CPU per case of each stage of one pass, as `--jsonl` makes it (best of `repeat`)."""
    sys.path.insert(0, str(ROOT))
    import payjudge.jsonapi.auction as api

    spent: dict[str, float] = {}

    def timed(name: str, f):
        def run(*args, **kwargs):
            t = time.process_time()
            try:
                return f(*args, **kwargs)
            finally:
                spent[name] = spent.get(name, 0.0) + time.process_time() - t

        return run

    # (the statement's stages are inside the output's: they are taken out of it below)
    for name in ("position", "parse_sheet", "run_auction", "_output", "statement_view", "render_statement"):
        setattr(api, name, timed(name, getattr(api, name)))
    encoder = json.JSONEncoder(separators=(",", ":"), check_circular=False)  # as cli.py's
    lines = [json.dumps(d) for d in cases]
    api.run(trivial_case(cases))
    game_map = api.position(trivial_case(cases)).map
    best: dict[str, float] = {}
    for _ in range(repeat):
        for key in ("sheet:readings", "jsonapi:accept"):  # a new run knows no reading yet
            game_map._derived.pop(key, None)
        spent.clear()
        start = time.process_time()
        for line in lines:
            t = time.process_time()
            doc = json.loads(line)
            spent["json in"] = spent.get("json in", 0.0) + time.process_time() - t
            out = api.run(doc)
            t = time.process_time()
            encoder.encode(out)
            spent["json out"] = spent.get("json out", 0.0) + time.process_time() - t
        spent["whole"] = time.process_time() - start
        spent["_output"] -= spent["statement_view"] + spent["render_statement"]
        spent["the rest"] = spent["whole"] - sum(v for k, v in spent.items() if k != "whole")
        for name, value in spent.items():
            best[name] = min(best.get(name, float("inf")), value)
    for name, value in sorted(best.items(), key=lambda kv: -kv[1]):
        label = {"_output": "output (without statements)"}.get(name, name)
        print(f"  {label:28s} {value / len(cases) * 1000:6.3f} ms per case")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", type=Path, default=DEFAULT_CASES)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--stages", action="store_true")
    ap.add_argument(
        "--baseline", help="another payjudge console script, or 'pure' (this one from source), alongside"
    )
    args = ap.parse_args()
    cases = load_cases(args.cases)
    if args.profile:
        profile(cases)
        return 0
    if args.stages:
        print(f"one pass over {len(cases)} cases, in process, CPU by stage (best of {args.repeat}):")
        stages(cases, args.repeat)
        return 0
    print(
        f"{len(cases)} realistic auctions from {args.cases}; python {sys.version.split()[0]}, "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    if args.baseline:
        marginal, base = measure(cases, args.repeat, (None, args.baseline))
    else:
        (marginal,) = measure(cases, args.repeat)
    each = per_case(cases, max(3, args.repeat // 2))
    print(f"payjudge auction --jsonl, marginal CPU per auction: mean {marginal * 1000:.3f} ms")
    if args.baseline:
        print(
            f"  baseline {args.baseline}, timed alternately: {base * 1000:.3f} ms "
            f"({base / marginal:.2f}x this build's time)"
        )
    print(
        f"  in-process per case (jsonapi run + JSON out): mean {statistics.mean(each) * 1000:.3f} ms, "
        f"median {statistics.median(each) * 1000:.3f} ms, max {max(each) * 1000:.2f} ms"
    )
    print(
        f"DPjudge determineOrders() (recorded under Python 2.7, not this run): "
        f"mean {DPJUDGE_MEAN_MS} ms, median {DPJUDGE_MEDIAN_MS} ms"
    )
    print(
        f"ratio DPjudge / payjudge (means): {DPJUDGE_MEAN_MS / (marginal * 1000):.1f}x; "
        f"medians: {DPJUDGE_MEDIAN_MS / (statistics.median(each) * 1000):.1f}x"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
