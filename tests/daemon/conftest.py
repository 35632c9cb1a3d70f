"""Fixtures for the daemon tests: daemons as subprocesses, always cleaned up."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator

import pytest

from tests.servers import drop_database, fresh_database

from .harness import JudgeProcess, Replies


@pytest.fixture
def judges(request) -> Iterator[Callable[..., JudgeProcess]]:
    """Make `JudgeProcess`es (not started); every one is stopped and removed at the end.
    A failing test prints the tail of each daemon's log."""
    made: list[JudgeProcess] = []

    def make(**kwargs) -> JudgeProcess:
        judge = JudgeProcess(**kwargs)
        made.append(judge)
        return judge

    try:
        yield make
    finally:
        for judge in made:
            try:
                judge.stop()
                JudgeProcess.made.remove(judge)
            finally:
                report = getattr(request.node, "rep_call", None)
                if report is not None and report.failed:
                    print(f"\n----- daemon log ({judge.data_dir}) -----\n{judge.log_tail(120)}")
                shutil.rmtree(judge.data_dir, ignore_errors=True)


@pytest.hookimpl(tryfirst=True, hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    setattr(item, "rep_" + rep.when, rep)


@pytest.fixture
def replies(smtp_sink) -> Replies:
    return Replies(smtp_sink)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request) -> Iterator[str | None]:
    """None: the daemon's default SQLite file; or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        yield None
        return
    url = fresh_database(request.getfixturevalue("pg_url"), "daemon")
    try:
        yield url
    finally:
        for judge in JudgeProcess.made:  # before the database goes from under them
            if judge.db_url == url:
                judge.stop()
        drop_database(url)


@pytest.fixture
def judge(judges, smtp_sink, db_url) -> Iterator[JudgeProcess]:
    """A running daemon (SQLite or PostgreSQL, migrated as by `payjudge db upgrade`)
    mailing the SMTP sink."""
    j = judges(outbound=smtp_sink.url, db_url=db_url)
    j.migrated()
    j.start()
    yield j
