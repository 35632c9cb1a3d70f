"""Play seeded games through the judge and report every broken promise (docs/simulator.md).

    python tools/simulate.py --games 1000 --seed 1 --years 3     # `make soak`
    python tools/simulate.py --seed 4711 --games 1 -v            # one game again, by its seed

Game k is played from seed S + k; each failure is printed with its seed and step, and the
run ends with the games, phases and messages played and the failures by kind. The exit
status is 1 when anything failed.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.sim.game import play, without_pictures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=10, help="how many games (default 10)")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed (default 1)")
    parser.add_argument("--years", type=int, default=3, help="at most this many game years each (default 3)")
    parser.add_argument("--pictures", action="store_true", help="draw and attach the results pictures (slow)")
    parser.add_argument("--no-replay", action="store_true", help="skip the replay check at each game's end")
    parser.add_argument("-v", "--verbose", action="store_true", help="a line for every game")
    args = parser.parse_args(argv)
    if not args.pictures:
        without_pictures()
    started = time.monotonic()
    games = phases = messages = 0
    kinds: Counter[str] = Counter()
    ended: Counter[str] = Counter()
    failed_games = 0
    for seed in range(args.seed, args.seed + args.games):
        outcome = play(seed, args.years, replay_check=not args.no_replay)
        games += 1
        phases += outcome.phases
        messages += outcome.messages
        ended[outcome.ended or "?"] += 1
        failed_games += bool(outcome.failures)
        if args.verbose:
            s = outcome.setup
            print(
                f"seed {seed}: {s.map_name} {' '.join(s.flags) or '-'} | {' / '.join(s.settings)} | "
                f"{outcome.phases} phases, {outcome.messages} messages, {outcome.ended}, "
                f"{outcome.seconds:.1f}s",
                flush=True,
            )
        for failure in outcome.failures:
            kinds[failure.kind] += 1
            print(f"FAIL {failure}", flush=True)
    seconds = time.monotonic() - started
    print(
        f"games {games}, phases {phases}, messages {messages}, wall {seconds:.0f}s; "
        f"ended: {dict(sorted(ended.items()))}; games with failures {failed_games}; "
        f"failures by kind: {dict(sorted(kinds.items())) or 'none'}",
        flush=True,
    )
    return 1 if kinds else 0


if __name__ == "__main__":
    sys.exit(main())
