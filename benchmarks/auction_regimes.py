"""The rounds of a stress auction's reduction, literally, cut into the regimes that repeat.

    .venv/bin/python benchmarks/auction_regimes.py [--balance 40000] [--seed 0] [--plain]
    .venv/bin/python benchmarks/auction_regimes.py --replay 1000 5000 20000 40000
    .venv/bin/python benchmarks/auction_regimes.py --free-checks 1000 5000 20000 40000

A diagnostic for rule 5.5's fast procedure (docs/overexpenditure.md, "What grows under
eBayola"). It runs `reduction.reduce_literal` on `auction.worst_case` (eBayola unless
`--plain`), noting who overspends in every round, then cuts the rounds greedily: at each
round, the period P (1–120) along which the rounds go on repeating longest, kept if they
repeat for at least two periods and ten rounds. Printed: the cut (`P7x356`: 356 rounds of
period 7; `[12 lone]`: rounds in no such run), then, for every run of period 6 or more,
which powers overspend in all of its rounds (S), how often the others do, and its first
period. Those runs are what the fast procedure takes round by round or checks line by
line, where the literal rounds are many.

With `--replay`, for four sheet sets per balance: the work `overspend.reduce_overspending`
does (rounds taken alone, lines along segments, patterns checked) when every pattern check
is answered free and exact from the literal rounds (`free_check`), for a few values of its
`LONGEST_PERIOD` and `REPEATS`. It says how much of the work that grows with the money
any cheaper pattern check could save: what remains is the rounds between the regimes.
With `--free-checks`, the procedure itself is timed, as it is and with that free check
(periods up to 40 rounds, seen twice): the least a cheaper check could bring it to.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from auction import worst_case  # noqa: E402

from payjudge.payola import auction as engine  # noqa: E402
from payjudge.payola import overspend  # noqa: E402
from payjudge.payola.overspend.line import Line  # noqa: E402
from payjudge.payola.reduction import overspending  # noqa: E402
from payjudge.payola.rules import PayolaRules  # noqa: E402

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def literal_rounds(balance: int, seed: int, rules: PayolaRules) -> list[str]:
    """Who overspends in each round of the reduction (one letter per power)."""
    return literal(balance, seed, rules)[0]


def literal(balance: int, seed: int, rules: PayolaRules) -> tuple[list[str], list[tuple[bool, ...]], tuple]:
    """The rounds (as letters and as the procedure's own tuples) and the arguments of
    the reduction they are the rounds of."""
    rounds: list[str] = []
    overs: list[tuple[bool, ...]] = []
    called: list[tuple] = []

    def record(book, limits, ebayola=False, public=False, shortcuts=True):
        called.append((book, limits, ebayola, public))
        n = len(book.powers)
        k = [0] * n
        while True:
            over = overspending(book, k, limits, ebayola, public)
            if not any(over):
                return k
            rounds.append("".join(LETTERS[p] for p in range(n) if over[p]))
            overs.append(tuple(over))
            k = [k[p] + over[p] for p in range(n)]

    engine.reduce_overspending = record  # (the module's own name: the auction calls it)
    args = worst_case(balance, seed, rules)
    engine.run_auction(*args, seed=seed)
    return rounds, overs, called[0]


def regimes(rounds: list[str]) -> list[tuple[int, int, int]]:
    """(start, period, length) of each run; period 0 for a round in none."""
    out = []
    t = 0
    while t < len(rounds):
        period, length = 1, 0
        for p in range(1, min(t, 120) + 1):
            n = 0
            while t + n < len(rounds) and rounds[t + n] == rounds[t + n - p]:
                n += 1
            if n > length:
                period, length = p, n
        if length >= 2 * period and length >= 10:
            out.append((t, period, length))
            t += length
        else:
            out.append((t, 0, 1))
            t += 1
    return out


@contextmanager
def _set(**values: object) -> Iterator[None]:
    """Give names of the `overspend` module other values for a while (the procedure reads
    its constants and helpers from its globals at every call)."""
    saved = {name: getattr(overspend, name) for name in values}
    for name, value in values.items():
        setattr(overspend, name, value)
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(overspend, name, value)


def free_check(overs: list[tuple[bool, ...]], args: tuple, work: dict[str, int] | None = None):
    """A stand-in for `overspend.whole_periods` that answers from the literal rounds,
    for nothing: how many whole periods of the pattern follow the state it is asked at.
    With `work`, the checks and the rounds of their patterns are counted there."""
    index, k = {}, [0] * len(args[0].powers)  # each state the rounds go through -> its round
    for t, over in enumerate(overs):
        index[tuple(k)] = t
        k = [x + o for x, o in zip(k, over)]
    index[tuple(k)] = len(overs)  # (the end: a check may be asked for there)

    def check(plans, k, period) -> int:
        one = [o for o, count in period for _ in range(count)]
        t, periods = index[tuple(k)], 0
        while overs[t + periods * len(one) : t + (periods + 1) * len(one)] == one:
            periods += 1
        if work is not None:
            work["checks"] += 1
            work["checked"] += len(one)
            work["jumped"] = periods > 0
        return periods

    return check


def replay(overs: list[tuple[bool, ...]], args: tuple, longest: int, repeats: int) -> dict[str, int]:
    """The work `reduce_overspending` does when checking a pattern costs nothing: the
    procedure itself, run with `free_check` and its constants set as asked, its rounds
    taken alone, its lines and its checks counted."""
    # (`lined`, `jumped`: what the procedure's next `_extend` appends, a line's rounds or
    # whole periods; otherwise it is one round taken alone)
    work = {"alone": 0, "lines": 0, "checks": 0, "checked": 0, "lined": False, "jumped": False}
    real_extend = overspend._extend

    def line(*line_args):
        work["lines"] += 1
        work["lined"] = True
        return Line(*line_args)

    def extend(segments, more) -> None:
        if not (work["lined"] or work["jumped"]):
            work["alone"] += 1
        work["lined"] = work["jumped"] = False
        real_extend(segments, more)

    check = free_check(overs, args, work)
    with _set(LONGEST_PERIOD=longest, REPEATS=repeats, whole_periods=check, Line=line, _extend=extend):
        overspend.reduce_overspending(*args)
    return work


def replays(balances: list[int], rules: PayolaRules) -> None:
    settings = [(8, 3), (40, 3), (40, 2), (120, 2)]
    print("per sheet set: rounds alone / lines along segments / patterns checked (their rounds)")
    print(
        f"{'balance':>8} {'seed':>4} {'rounds':>6} {'regimes':>7} {'lone':>5}  "
        + "  ".join(f"{f'L{longest} R{repeats}':>18}" for longest, repeats in settings)
    )
    for balance in balances:
        for seed in range(4):
            rounds, overs, args = literal(balance, seed, rules)
            cut = regimes(rounds)
            works = [replay(overs, args, longest, repeats) for longest, repeats in settings]
            print(
                f"{balance:>8} {seed:>4} {len(rounds):>6} {sum(1 for x in cut if x[1]):>7} "
                f"{sum(1 for x in cut if not x[1]):>5}  "
                + "  ".join(
                    f"{w['alone']:>5} {w['lines']:>3} {w['checks']:>3} ({w['checked']:>3})" for w in works
                )
            )


def free_checks(balances: list[int], rules: PayolaRules, passes: int = 3) -> None:
    """CPU time of `reduce_overspending` as it is, and with every pattern check answered
    for free from the literal rounds (and periods up to 40 rounds, seen twice, looked
    for): the least this procedure could cost if a check cost nothing."""
    cases = {}
    for balance in balances:
        for seed in range(4):
            _, overs, args = literal(balance, seed, rules)
            cases[balance, seed] = args, free_check(overs, args)
    as_is: dict[str, object] = {}  # (the procedure unchanged)
    best: dict[tuple[str, int, int], float] = {}
    for _ in range(passes):
        for (balance, seed), (args, check) in cases.items():
            free = {"LONGEST_PERIOD": 40, "REPEATS": 2, "whole_periods": check}
            for name, values in (("as is", as_is), ("free", free)):
                with _set(**values):
                    start = time.process_time()
                    overspend.reduce_overspending(*args)
                    spent = time.process_time() - start
                best[name, balance, seed] = min(best.get((name, balance, seed), spent), spent)
    print("ms per reduce_overspending, median / worst of four sheet sets, best of", passes, "passes")
    for balance in balances:
        line = []
        for name in ("as is", "free"):
            times = [1000 * best[name, balance, seed] for seed in range(4)]
            line.append(f"{name}: {statistics.median(times):5.1f} / {max(times):5.1f}")
        print(f"{balance:>8}  " + "   ".join(line))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--balance", type=int, default=40000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plain", action="store_true", help="plain rules, not eBayola")
    parser.add_argument(
        "--replay", type=int, nargs="+", metavar="BALANCE", help="replay the fast procedure's choices"
    )
    parser.add_argument(
        "--free-checks", type=int, nargs="+", metavar="BALANCE", help="time it with free pattern checks"
    )
    args = parser.parse_args()
    rules = PayolaRules() if args.plain else PayolaRules.from_flags(["EBAYOLA"])
    if args.replay:
        replays(args.replay, rules)
        return
    if args.free_checks:
        free_checks(args.free_checks, rules)
        return
    rounds = literal_rounds(args.balance, args.seed, rules)
    cut = regimes(rounds)
    words, lone = [], 0
    for _, period, length in cut:
        if period == 0:
            lone += 1
            continue
        if lone:
            words.append(f"[{lone} lone]")
            lone = 0
        words.append(f"P{period}x{length}")
    if lone:
        words.append(f"[{lone} lone]")
    print(f"{len(rounds)} rounds: " + " ".join(words))
    for start, period, length in cut:
        if period < 6:
            continue
        runs = [set(r) for r in rounds[start : start + length]]
        steady = set.intersection(*runs)
        sometimes = sorted(set.union(*runs) - steady)
        rates = ", ".join(f"{p} {sum(p in r for r in runs) / length:.3f}" for p in sometimes)
        print(f"round {start}: period {period} x {length // period}, S={''.join(sorted(steady))}, {rates}")
        print("    " + " ".join(rounds[start : start + period]))


if __name__ == "__main__":
    main()
