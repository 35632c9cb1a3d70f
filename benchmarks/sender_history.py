"""The claim's cost against the history of its sender, with the index on (sender,
processed_at) and with the one on sender alone that it replaced, side by side.

    .venv/bin/python benchmarks/sender_history.py [--db sqlite|postgresql] [--histories 0,1000,10000,50000]

The store keeps every message for good, and every message processed asks when its
sender's latest answers were (the rate limit, in `repo.claim_inbound_counting`). Two
databases are built in the same run: one migrated to the head, one to 0004 (an index on
sender alone). Both get the same history: messages answered a year ago, from the sender
and from twenty others. Then each claims a fresh message from that sender 30 times, and
the median time of the claim (its query, in its transaction) is printed for each, with
their ratio. `--db postgresql` starts a private PostgreSQL 15 cluster.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import update  # noqa: E402

from payjudge.store import repo  # noqa: E402
from payjudge.store.db import Database, upgrade  # noqa: E402
from payjudge.store.models import InboundMessage, InboundState  # noqa: E402
from tests.store.history import NOW, add_history, new_message  # noqa: E402

CLAIMS = 30


def claim_time(db: Database) -> float:
    """The median time of claiming a fresh message from the sender with a history (then set aside as done)."""
    times = []
    for _ in range(CLAIMS):
        new = new_message(db)
        with db.transaction() as s:
            t0 = time.perf_counter()
            row, _ = repo.claim_inbound_counting(s, new, NOW, since=NOW - timedelta(hours=1), limit=60)
            times.append(time.perf_counter() - t0)
            assert row is not None
            s.execute(update(InboundMessage).where(InboundMessage.id == new).values(state=InboundState.DONE))
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--histories", default="0,1000,10000,50000")
    args = parser.parse_args()
    histories = [int(x) for x in args.histories.split(",")]
    pg = None
    if args.db == "postgresql":
        from tests.daemon.pgserver import PrivatePostgres

        pg = PrivatePostgres(settings={"fsync": "on", "synchronous_commit": "on", "full_page_writes": "on"})
        server = pg.start()
        urls = {name: server.create_database(name) for name in ("head", "before")}
    else:
        folder = Path(tempfile.mkdtemp(prefix="pj-history-"))
        urls = {name: f"sqlite:///{folder / name}.sqlite" for name in ("head", "before")}
    try:
        upgrade(urls["head"])
        upgrade(urls["before"], "0004_exchange")  # (an index on sender alone)
        dbs = {name: Database(url) for name, url in urls.items()}
        print(f"claim of a message, median of {CLAIMS} ({args.db}); history: messages from its sender")
        print(f"{'history':>8} {'(sender, processed_at)':>23} {'sender alone':>13} {'ratio':>7}")
        done = 0
        for history in histories:
            for db in dbs.values():
                add_history(db, done, history)
            done = max(done, history)
            head, before = claim_time(dbs["head"]), claim_time(dbs["before"])
            print(f"{history:>8} {head * 1e6:>20.0f} µs {before * 1e6:>10.0f} µs {before / head:>6.1f}×")
        for db in dbs.values():
            db.dispose()
    finally:
        if pg is not None:
            pg.remove()


if __name__ == "__main__":
    main()
