"""The rounds of a stress auction's reduction, literally, cut into the regimes that repeat.

    .venv/bin/python benchmarks/auction_regimes.py [--balance 40000] [--seed 0] [--plain]

A diagnostic for rule 5.5's fast procedure (docs/overexpenditure.md, "What grows under
eBayola"). It runs `reduction.reduce_literal` on `auction.worst_case` (eBayola unless
`--plain`), noting who overspends in every round, then cuts the rounds greedily: at each
round, the period P (1–120) along which the rounds go on repeating longest, kept if they
repeat for at least two periods and ten rounds. Printed: the cut (`P7x356`: 356 rounds of
period 7; `[12 lone]`: rounds in no such run), then, for every run of period 6 or more,
which powers overspend in all of its rounds (S), how often the others do, and its first
period. Those runs are what the fast procedure takes round by round or checks line by
line, where the literal rounds are many.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from auction import worst_case  # noqa: E402

from payjudge.payola import auction as engine  # noqa: E402
from payjudge.payola.reduction import overspending  # noqa: E402
from payjudge.payola.rules import PayolaRules  # noqa: E402

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def literal_rounds(balance: int, seed: int, rules: PayolaRules) -> list[str]:
    """Who overspends in each round of the reduction (one letter per power)."""
    rounds: list[str] = []

    def record(book, limits, ebayola=False, public=False, shortcuts=True):
        n = len(book.powers)
        k = [0] * n
        while True:
            over = overspending(book, k, limits, ebayola, public)
            if not any(over):
                return k
            rounds.append("".join(LETTERS[p] for p in range(n) if over[p]))
            k = [k[p] + over[p] for p in range(n)]

    engine.reduce_overspending = record  # (the module's own name: the auction calls it)
    args = worst_case(balance, seed, rules)
    engine.run_auction(*args, seed=seed)
    return rounds


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--balance", type=int, default=40000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plain", action="store_true", help="plain rules, not eBayola")
    args = parser.parse_args()
    rules = PayolaRules() if args.plain else PayolaRules.from_flags(["EBAYOLA"])
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
