"""The processor's own process (service/worker.py): `payjudge serve` runs the processor
as a child, on a SQLite file as on PostgreSQL; a child that dies is started again, a
daemon killed with -9 leaves no child behind, and a stop ends both cleanly."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.servers import drop_database, fresh_database

from .harness import JudgeProcess, send_mail, wait_until

pytestmark = [pytest.mark.servers, pytest.mark.timeout(120)]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has exited; only its parent's wait is missing


def _processor(judge) -> int:
    """The daemon's processor process (waits for it to be started)."""

    def found() -> int | None:
        for pid in judge.children():
            try:
                if b"payjudge.service.worker" in Path(f"/proc/{pid}/cmdline").read_bytes():
                    return pid
            except OSError:
                pass
        return None

    return wait_until(found, 20, "the processor process")


@pytest.fixture(params=["sqlite", "postgresql"])
def child_judge(request, judges, smtp_sink) -> Iterator[JudgeProcess]:
    """A running daemon on a fresh database of each kind (a SQLite file, PostgreSQL)."""
    url = None
    if request.param == "postgresql":
        url = fresh_database(request.getfixturevalue("pg_url"), "worker")
        judge = judges(outbound=smtp_sink.url, db_url=url)
    else:
        judge = judges(outbound=smtp_sink.url)
    try:
        judge.migrated()
        judge.start()
        yield judge
    finally:
        judge.stop()  # before the database goes from under it
        if url is not None:
            drop_database(url)


def test_a_processor_that_dies_is_started_again(child_judge, replies):
    judge = child_judge
    first = _processor(judge)
    replies.reply_to(send_mail(judge.port, "reader@players.test", "HELP"))
    os.kill(first, signal.SIGKILL)
    second = wait_until(lambda: (pid := _processor(judge)) != first and pid, 20, "another processor")
    # mail stored meanwhile waits for the new processor, then is answered
    replies.reply_to(send_mail(judge.port, "reader@players.test", "LIST"))
    assert _alive(second) and judge.running
    assert "the processor process exited" in judge.log_text()


def test_a_daemon_killed_leaves_no_processor_behind(child_judge, replies):
    """kill -9 of the daemon alone (not its group): its pipe to the processor closes, and
    the processor exits by itself."""
    judge = child_judge
    child = _processor(judge)
    replies.reply_to(send_mail(judge.port, "reader@players.test", "HELP"))
    os.kill(judge.proc.pid, signal.SIGKILL)
    judge.proc.wait(10)
    wait_until(lambda: not _alive(child), 20, "the processor to exit")


def test_a_stop_ends_the_processor_cleanly(child_judge, replies):
    judge = child_judge
    child = _processor(judge)
    replies.reply_to(send_mail(judge.port, "reader@players.test", "HELP"))
    started = time.monotonic()
    assert judge.stop() == 0  # SIGTERM to the group: both finish what they were doing
    assert time.monotonic() - started < 15
    assert not _alive(child)
    log = judge.log_text()
    assert "the processor process exited" not in log and "Traceback" not in log
