"""Profile the daemon's processing of the mail mix in-process (issue 14, item 4).

    .venv/bin/python benchmarks/profile_mail.py [--messages 300] [--db sqlite|postgresql]
        [--db-url URL] [--top 30] [--sort cumulative|tottime] [--no-profile]

One game with seven players (real argon2 hashes, as in production), the message mix of
`mail_throughput.py` stored through `SqlInbound`, then `process_pending` under cProfile;
prints the messages per second processed and the functions with the most cumulative
time. No SMTP: this is the processor alone (parse, commands, store, templates, outbox).
`--db postgresql` starts a private PostgreSQL 15 cluster with the benchmark's durability
(`fsync` and synchronous commit on); `--no-profile` times the processing without cProfile.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import io
import os
import pstats
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# after the PYTHONPATH entries: another tree named there first (the "before" of a
# before/after pair) is the payjudge measured
sys.path.insert(1 + len([p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]), str(ROOT))

# imported before mail_throughput puts this tree first on the path
payjudge = importlib.import_module("payjudge")

from mail_throughput import GAME, mix  # noqa: E402

from tests.daemon.builder import build_ready_games  # noqa: E402
from tests.daemon.harness import JUDGE  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=300)
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--db-url", default=None)
    parser.add_argument("--no-profile", action="store_true")
    parser.add_argument("--save", default=None, help="write the profile's stats to this file")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--sort", default="cumulative")
    args = parser.parse_args()

    pg = None
    url = args.db_url
    if url is None and args.db == "postgresql":
        from tests.daemon.pgserver import PrivatePostgres

        pg = PrivatePostgres(settings={"fsync": "on", "synchronous_commit": "on", "full_page_writes": "on"})
        url = pg.start().create_database("profile")
    try:
        run(args, url or f"sqlite:///{tempfile.mkdtemp(prefix='pj-prof-')}/payjudge.sqlite")
    finally:
        if pg is not None:
            pg.remove()


def run(args: argparse.Namespace, url: str) -> None:
    from payjudge.config import Config
    from payjudge.memory import SystemClock
    from payjudge.service.processor import process_pending
    from payjudge.store.db import Database
    from payjudge.store.mailbox import SqlInbound

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
    t0, cpu0 = time.perf_counter(), time.process_time()
    if not args.no_profile:
        profile.enable()
    done = 0
    while n := process_pending(db, config, clock):
        done += n
    profile.disable()
    elapsed, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    db.dispose()
    if not args.no_profile:
        if args.save:
            profile.dump_stats(args.save)
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats(args.sort).print_stats(args.top)
        print(out.getvalue())
    how = "without" if args.no_profile else "under"
    tree = Path(payjudge.__file__).parent.parent
    print(
        f"{done} messages in {elapsed:.2f} s {how} the profiler: {done / elapsed:.0f} msg/s;"
        f" CPU of this process {cpu * 1000 / done:.2f} ms per message"
    )
    print(f"({args.db}, payjudge from {tree})")


if __name__ == "__main__":
    main()
