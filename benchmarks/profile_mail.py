"""Profile the daemon's processing of the mail mix in-process (issue 14, item 4).

    .venv/bin/python benchmarks/profile_mail.py [--messages 300] [--db-url URL] [--top 30]

One game with seven players (real argon2 hashes, as in production), the message mix of
`mail_throughput.py` stored through `SqlInbound`, then `process_pending` under cProfile;
prints the messages per second processed and the functions with the most cumulative
time. No SMTP: this is the processor alone (parse, commands, store, templates, outbox).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from mail_throughput import GAME, mix  # noqa: E402

from tests.daemon.builder import build_ready_games  # noqa: E402
from tests.daemon.harness import JUDGE  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=300)
    parser.add_argument("--db-url", default=None)
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--sort", default="cumulative")
    args = parser.parse_args()

    from payjudge.config import Config
    from payjudge.memory import SystemClock
    from payjudge.service.processor import process_pending
    from payjudge.store.db import Database
    from payjudge.store.mailbox import SqlInbound

    url = args.db_url or f"sqlite:///{tempfile.mkdtemp(prefix='pj-prof-')}/payjudge.sqlite"
    db = Database(url)
    db.upgrade()
    build_ready_games(url, [GAME], sheets=False, cheap_hashes=False)
    config = Config(judge_address=JUDGE, settle_seconds=3600)
    clock = SystemClock()
    inbound = SqlInbound(db, clock)
    rng = random.Random(1)
    for _kind, _msgid, sender, raw in mix(50, rng):  # warm up: imports, templates, argon2 cache
        inbound.store_inbound(raw, source="smtp", envelope_from=sender, envelope_to=[JUDGE])
    while process_pending(db, config, clock):
        pass
    for _kind, _msgid, sender, raw in mix(args.messages, rng):
        inbound.store_inbound(raw, source="smtp", envelope_from=sender, envelope_to=[JUDGE])
    profile = cProfile.Profile()
    t0 = time.perf_counter()
    profile.enable()
    done = 0
    while n := process_pending(db, config, clock):
        done += n
    profile.disable()
    elapsed = time.perf_counter() - t0
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats(args.sort).print_stats(args.top)
    print(out.getvalue())
    print(f"{done} messages in {elapsed:.2f} s under the profiler: {done / elapsed:.0f} msg/s")


if __name__ == "__main__":
    main()
