"""Time the processor on the hostile mail of issue 26 (item 5), one input at a time.

    .venv/bin/python benchmarks/hostile_mail.py [--timeout 120] [--only NAME]
    PYTHONPATH=/path/to/older/tree .venv/bin/python benchmarks/hostile_mail.py   # "before"

Each input (tests/mail/hostile.py) is stored in a fresh SQLite judge with a started game
and processed once (`process_pending`: read, commands, reply), in a child process cut
off after `--timeout` seconds. Printed per input: its size, the CPU seconds the
processing took, the wall seconds, and what became of the message (done, quarantined,
its reply's first words). The tree measured is the first on PYTHONPATH, else this one.
Timing thresholds are never part of the test suite.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(1 + len([p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]), str(ROOT))


def _hostile():
    spec = importlib.util.spec_from_file_location("hostile", ROOT / "tests" / "mail" / "hostile.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def one(name: str) -> dict:
    """Process one input in this process; what became of it."""
    os.environ.setdefault("PAYJUDGE_PURE", "1")
    from sqlalchemy import select

    from payjudge.store.db import Database, upgrade
    from payjudge.store.mailbox import SqlInbound
    from payjudge.store.models import InboundMessage
    from tests.service.judge import TestJudge
    from tests.service.test_game import start_game

    raw = _hostile().ALL[name]()
    folder = tempfile.mkdtemp(prefix="pj-hostile-")
    url = f"sqlite:///{folder}/judge.sqlite"
    upgrade(url)
    judge = TestJudge(Database(url))
    start_game(judge)
    judge.sent.clear()
    judge.clock.advance(seconds=1)
    SqlInbound(judge.db, judge.clock).store_inbound(raw, source="smtp")
    cpu, wall = time.process_time(), time.perf_counter()
    judge.process()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    with judge.db.reading() as s:
        row = s.scalars(select(InboundMessage).order_by(InboundMessage.id.desc()).limit(1)).one()
        state, error = str(row.state), (row.error or "")[:60]
    reply = next((m.body for m in judge.sent), "")
    first = " ".join(reply.split()[:6])
    return {"bytes": len(raw), "cpu": cpu, "wall": wall, "state": state, "error": error, "reply": first}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--only", default=None)
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(one(args.child)))
        return
    import payjudge

    print(f"tree: {Path(payjudge.__file__).resolve().parent.parent}")
    print(f"{'input':34} {'bytes':>9} {'cpu s':>8} {'wall s':>8}  outcome")
    for name in _hostile().ALL:
        if args.only and args.only not in name:
            continue
        started = time.perf_counter()
        try:
            done = subprocess.run(
                [sys.executable, __file__, "--child", name],
                capture_output=True,
                text=True,
                timeout=args.timeout,
                check=False,
            )
        except subprocess.TimeoutExpired:
            print(f"{name:34} {'':>9} {'':>8} {'>' + format(args.timeout, 'g'):>8}  cut off")
            continue
        lines = done.stdout.strip().splitlines()
        if done.returncode or not lines:
            print(f"{name:34} failed after {time.perf_counter() - started:.1f} s: {done.stderr[-300:]}")
            continue
        r = json.loads(lines[-1])
        outcome = r["state"] + (f" ({r['error']})" if r["error"] else "") + f": {r['reply']}"
        print(f"{name:34} {r['bytes']:>9,} {r['cpu']:>8.2f} {r['wall']:>8.2f}  {outcome[:90]}")


if __name__ == "__main__":
    main()
