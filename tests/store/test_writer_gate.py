"""The processes on one SQLite file take the write lock in turn, urgent writes first
(`store.db._WriterGate`): the daemon's listener and its processor are two processes.

Each writer here is a process of its own (`tests/store/gate_holder.py`) or this one; the
order they got in is the order of their rows in the table `log`."""

from __future__ import annotations

import os
import select
import signal
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from payjudge.store import db as dbmod
from payjudge.store.db import Database, sqlite_file, transient

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def url(tmp_path) -> str:
    path = tmp_path / "gate.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("CREATE TABLE log (n INTEGER PRIMARY KEY, who TEXT)")
    return f"sqlite:///{path}"


class Writer:
    """A gate_holder process: `started` once it printed `in` (it holds the turn)."""

    def __init__(self, url: str, name: str, kind: str = "normal"):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.store.gate_holder", url, name, kind],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def wait_in(self) -> None:
        assert self.proc.stdout is not None
        assert self.proc.stdout.readline().strip() == "in"

    def release(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("\n")
        self.proc.stdin.flush()
        assert self.proc.wait(30) == 0

    def kill(self) -> None:
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(30)


@pytest.fixture
def writers(url) -> Iterator[list[Writer]]:
    started: list[Writer] = []
    yield started
    for w in started:
        if w.proc.poll() is None:
            w.proc.kill()
            w.proc.wait(30)


def _log(url: str) -> list[str]:
    path = sqlite_file(url)
    assert path is not None
    with sqlite3.connect(path) as conn:
        return [who for (who,) in conn.execute("SELECT who FROM log ORDER BY n")]


def _gate_held(url: str, byte: int) -> bool:
    """Whether some process holds a byte of the file's `.writers` locks (asked from a
    process of its own: POSIX locks never conflict within one process)."""
    path = sqlite_file(url)
    assert path is not None
    probe = (
        "import fcntl, os, sys\n"
        f"fd = os.open({str(path) + '.writers'!r}, os.O_RDWR)\n"
        "try:\n"
        f"    fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, {byte})\n"
        "except OSError:\n"
        "    sys.exit(1)\n"
    )
    return subprocess.run([sys.executable, "-c", probe], check=False).returncode == 1


def _wait_for(check, what: str) -> None:
    for _ in range(300):
        if check():
            return
        threading.Event().wait(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def _write_here(url: str, name: str, urgent: bool = False) -> threading.Thread:
    """A writer in this process, on a thread: it waits for its turn there."""

    def run() -> None:
        db = Database(url)
        try:
            with db.transaction(urgent=urgent) as s:
                s.execute(text("INSERT INTO log (who) VALUES (:who)"), {"who": name})
        finally:
            db.dispose()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def test_a_writer_waits_while_another_process_holds_the_turn(url, writers):
    holder = Writer(url, "holder")
    writers.append(holder)
    holder.wait_in()
    here = _write_here(url, "here", urgent=True)
    _wait_for(lambda: _gate_held(url, dbmod._WriterGate.GATE), "the urgent writer at the gate")
    assert here.is_alive() and _log(url) == []  # nothing committed: the holder is in
    holder.release()
    here.join(30)
    assert _log(url) == ["holder", "here"]


def test_an_urgent_writer_goes_before_the_writers_that_came_after_it(url, writers):
    holder = Writer(url, "holder")
    writers.append(holder)
    holder.wait_in()
    urgent = Writer(url, "urgent", "urgent")
    writers.append(urgent)
    # the urgent writer holds the gate while it waits for the turn
    _wait_for(lambda: _gate_held(url, dbmod._WriterGate.GATE), "the urgent writer at the gate")
    normal = Writer(url, "normal")
    writers.append(normal)
    threading.Event().wait(0.5)  # the normal writer is at the gate, behind the urgent one
    holder.release()
    urgent.wait_in()
    urgent.release()
    normal.wait_in()
    normal.release()
    assert _log(url) == ["holder", "urgent", "normal"]


def test_a_writer_does_not_pass_the_gate_an_urgent_one_holds(url, writers):
    """The mechanism under the order above: with the turn free but the gate held (as an
    urgent writer holds it while it waits), a normal writer stays out until it is let go."""
    path = sqlite_file(url)
    assert path is not None
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, os, sys\n"
            f"fd = os.open({str(path) + '.writers'!r}, os.O_RDWR | os.O_CREAT)\n"
            f"fcntl.lockf(fd, fcntl.LOCK_EX, 1, {dbmod._WriterGate.GATE})\n"
            "print('in', flush=True)\n"
            "sys.stdin.readline()\n",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "in"
        normal = Writer(url, "normal")
        writers.append(normal)
        assert normal.proc.stdout is not None
        ready, _, _ = select.select([normal.proc.stdout], [], [], 1.0)
        assert not ready  # a second: still at the gate, though nobody holds the turn
    finally:
        holder.communicate("\n", timeout=30)
    normal.wait_in()
    normal.release()
    assert _log(url) == ["normal"]


def test_a_holder_killed_lets_go_of_the_turn(url, writers):
    holder = Writer(url, "holder")
    writers.append(holder)
    holder.wait_in()
    here = _write_here(url, "here")
    holder.kill()  # mid-transaction: its row is rolled back, its locks let go
    here.join(30)
    assert not here.is_alive()
    assert _log(url) == ["here"]


def test_a_holder_that_never_lets_go_is_database_is_locked(url, writers, monkeypatch):
    """As SQLite's busy timeout would: the caller sees the database's failure (a 451, or
    a message that waits for the next pass), and writes once the holder is gone."""
    monkeypatch.setattr(dbmod._WriterGate, "WAIT_SECONDS", 0.5)
    holder = Writer(url, "holder")
    writers.append(holder)
    holder.wait_in()
    db = Database(url)
    try:
        with pytest.raises(Exception) as failed, db.transaction(urgent=True) as s:
            s.execute(text("INSERT INTO log (who) VALUES ('here')"))
        assert transient(failed.value)
        holder.release()
        with db.transaction() as s:  # the turnstile is free again after the failure
            s.execute(text("INSERT INTO log (who) VALUES ('here')"))
    finally:
        db.dispose()
    assert _log(url) == ["holder", "here"]


def test_databases_on_one_file_share_the_process_turnstile(url):
    """Two `Database`s on one file in a process take turns through one turnstile (one
    process, one place in the processes' line); a database in memory has no gate."""
    a, b = Database(url), Database(url)
    memory = Database("sqlite://")
    try:
        assert a._writers is b._writers
        assert a._writers is not None and a._writers._gate is not None
        assert memory._writers is not None and memory._writers._gate is None
        for d in (a, b):
            with d.transaction() as s:
                s.execute(text("INSERT INTO log (who) VALUES ('here')"))
    finally:
        for d in (a, b, memory):
            d.dispose()
    assert _log(url) == ["here", "here"]


def test_the_lock_file_has_the_database_file_s_permissions(tmp_path):
    """Whoever may write the database may take its turn (the lock file needs writing)."""
    path = tmp_path / "shared.sqlite"
    sqlite3.connect(path).close()
    path.chmod(0o660)
    db = Database(f"sqlite:///{path}")
    try:
        with db.transaction() as s:  # the lock file is made at the first turn
            s.execute(text("SELECT 1"))
        mode = (tmp_path / "shared.sqlite.writers").stat().st_mode & 0o777
    finally:
        db.dispose()
    assert mode == 0o660 & ~_umask()


def test_a_lock_file_not_ours_leaves_sqlite_to_wait(tmp_path, caplog):
    """A gate that cannot be had costs waiting (SQLite's busy handler), never a write."""
    path = tmp_path / "theirs.sqlite"
    sqlite3.connect(path).close()
    lock = tmp_path / "theirs.sqlite.writers"
    lock.mkdir()  # (cannot be opened as a file, whoever runs the tests)
    db = Database(f"sqlite:///{path}")
    try:
        for _ in range(2):
            with db.transaction() as s:
                s.execute(text("CREATE TABLE IF NOT EXISTS t (x)"))
                s.execute(text("INSERT INTO t VALUES (1)"))
    finally:
        db.dispose()
    assert sum("writers' lock file" in r.getMessage() for r in caplog.records) == 1


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_the_last_database_disposed_of_closes_the_lock_file(url):
    path = sqlite_file(url)
    a, b = Database(url), Database(url)
    a.dispose()
    a.dispose()  # twice changes nothing
    assert path in dbmod._turnstiles
    b.dispose()
    assert path not in dbmod._turnstiles
    c = Database(url)  # a new one takes the turn as before
    try:
        with c.transaction() as s:
            s.execute(text("INSERT INTO log (who) VALUES ('c')"))
    finally:
        c.dispose()
    assert _log(url) == ["c"]
