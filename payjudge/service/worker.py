"""The processor in a process of its own: how `payjudge serve` runs it (on PostgreSQL and
on a SQLite file; on a SQLite database in memory it stays a thread of the daemon).

Why a process: one interpreter runs one thread at a time. In one process the listener,
the outbox sender and the processor take turns on one core, and every round trip the
processor makes to PostgreSQL (seven or eight per message) leaves the core idle unless
another thread happens to be ready. In a process of its own the processor has an
interpreter to itself, and the listener and sender go on beside it on the second core.
SQLite has one writer at a time: the two processes take its write lock in turn, the
listener's short inserts first, through a lock file beside the database
(`store.db._WriterGate`), where SQLite's own busy handler would have them sleep up to
100 ms between tries.

Nothing but wake-ups crosses between the processes; the database is the truth for both.
The child's stdin carries, first, its configuration (a length, then the pickled
`Config`), then one byte per wake-up (a message was stored). Its stdout carries one byte
per batch committed (the parent then wakes the outbox sender and the deadline clock).
End of file on stdin means the daemon stopped or died (a `kill -9` closes the pipe too):
the child finishes the transaction it is in and exits, so no processor outlives its
daemon. The daemon starts a child again if one dies (`ProcessorProcess.run`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pickle
import select
import signal
import struct
import sys
from collections.abc import Callable

from ..config import Config, configure_logging
from ..memory import SystemClock

log = logging.getLogger("payjudge.processor")

_LENGTH = struct.Struct("!I")
WAIT_SECONDS = 2.0  # the child looks for due messages (a deferred one) at least this often
RESTART_SECONDS = 1.0  # a child that died is started again after this pause
STOP_SECONDS = 30.0  # the child gets this long to finish its transaction at a stop


class ProcessorProcess:
    """The daemon's side: starts the child, wakes it, hears its commits, restarts it."""

    def __init__(self, config: Config, committed: Callable[[], None]):
        self.config = config
        self.committed = committed  # called on the loop's thread after each committed batch
        self._proc: asyncio.subprocess.Process | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._asked = False  # a wake-up is on its way to the loop's thread

    def wake(self) -> None:
        """A message was stored: have the child look. Callable from any thread; wake-ups
        asked for before the last one was written are one."""
        if self._loop is None or self._asked:
            return
        self._asked = True
        with contextlib.suppress(RuntimeError):  # the loop closed: the daemon is stopping
            self._loop.call_soon_threadsafe(self._write_wake)

    def _write_wake(self) -> None:
        self._asked = False
        proc = self._proc
        if proc is not None and proc.stdin is not None and not proc.stdin.is_closing():
            proc.stdin.write(b"w")

    async def run(self, stop: asyncio.Event) -> None:
        """Keep a child running until `stop`; then close its stdin and wait for it."""
        self._loop = asyncio.get_running_loop()
        while not stop.is_set():
            try:
                await self._one_child(stop)
            except Exception:
                log.exception("the processor process failed")
            if not stop.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), RESTART_SECONDS)

    async def _one_child(self, stop: asyncio.Event) -> None:
        proc = self._proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            __name__,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        assert proc.stdin is not None and proc.stdout is not None
        settings = pickle.dumps(self.config)
        proc.stdin.write(_LENGTH.pack(len(settings)) + settings + b"w")
        stopping = asyncio.ensure_future(stop.wait())
        try:
            while True:
                reading = asyncio.ensure_future(proc.stdout.read(4096))
                await asyncio.wait({reading, stopping}, return_when=asyncio.FIRST_COMPLETED)
                if not reading.done():
                    reading.cancel()
                    break  # stopping
                if not reading.result():  # the child is gone
                    code = await proc.wait()
                    if not stop.is_set():  # (at a stop, the signal reached it too)
                        log.error("the processor process exited (status %s); starting another", code)
                    return
                self.committed()
        finally:
            stopping.cancel()
            self._proc = None
            await _finish(proc)


async def _finish(proc: asyncio.subprocess.Process) -> None:
    """Close the child's stdin (its signal to stop) and wait for it, killing it if it
    does not end in `STOP_SECONDS` (what it had not committed waits in the store)."""
    if proc.returncode is not None:
        return
    if proc.stdin is not None:
        proc.stdin.close()
    try:
        await asyncio.wait_for(proc.wait(), STOP_SECONDS)
    except TimeoutError:
        log.error("the processor process did not stop; killing it")
        proc.kill()
        await proc.wait()


# -- the child ------------------------------------------------------------------------


def _read_exactly(fd: int, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = os.read(fd, n - len(data))
        if not chunk:
            raise EOFError("the daemon closed the pipe before sending the settings")
        data += chunk
    return data


class _Stop(Exception):
    """SIGTERM while the child waited: it exits."""


def child_main() -> None:
    """Process stored messages whenever woken, until stdin ends or SIGTERM."""
    # a Ctrl-C reaches the whole process group: the daemon stops, and closes our stdin
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # so does a SIGTERM (systemd, `kill` of the group): the pass under way is finished
    # (its batch committed) before the child exits, as when the daemon stops it
    busy, stopping = [False], [False]

    def on_term(_signum, _frame) -> None:
        stopping[0] = True
        if not busy[0]:
            raise _Stop

    signal.signal(signal.SIGTERM, on_term)
    # the protocol keeps fd 1 to itself; anything printed goes to stderr with the log
    out = os.dup(1)
    os.dup2(2, 1)
    config: Config = pickle.loads(_read_exactly(0, _LENGTH.unpack(_read_exactly(0, _LENGTH.size))[0]))
    configure_logging(config)

    from ..store.db import Database
    from .processor import process_pending

    def committed() -> None:
        os.write(out, b"c")

    db = Database(config.database_url, busy_seconds=config.sqlite_busy_seconds)
    clock = SystemClock()
    try:
        while not stopping[0]:
            busy[0] = True
            try:
                count = process_pending(db, config, clock, committed=committed)
            except Exception:
                log.exception("processing stored messages failed; retrying")
                count = 0
            finally:
                busy[0] = False
            if count:
                committed()
                continue
            if stopping[0]:
                break
            readable, _, _ = select.select([0], [], [], WAIT_SECONDS)
            if readable and not os.read(0, 65536):
                return  # the daemon is gone
    except (_Stop, BrokenPipeError):  # stopped while waiting; the daemon died meanwhile
        return
    finally:
        db.dispose()


if __name__ == "__main__":
    child_main()
