"""A writer in a process of its own, for tests/store/test_writer_gate.py.

    python -m tests.store.gate_holder <sqlite url> <name> urgent|normal

Opens a `Database` on the file, takes a write transaction (urgent or not), writes its
name into the table `log`, prints `in`, and holds the transaction until a line (or end of
file) comes on stdin; then commits and prints `out`."""

from __future__ import annotations

import sys

from sqlalchemy import text

from payjudge.store.db import Database


def main() -> None:
    url, name, kind = sys.argv[1:4]
    db = Database(url)
    with db.transaction(urgent=kind == "urgent") as s:
        s.execute(text("INSERT INTO log (who) VALUES (:who)"), {"who": name})
        print("in", flush=True)
        sys.stdin.readline()
    print("out", flush=True)
    db.dispose()


if __name__ == "__main__":
    main()
