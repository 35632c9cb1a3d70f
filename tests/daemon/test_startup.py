"""Starting and stopping `payjudge serve`, and what the keeper's commands say about it."""

from __future__ import annotations

import subprocess

import pytest

from payjudge.store.db import schema_revisions

from .harness import payjudge_command

pytestmark = [pytest.mark.servers, pytest.mark.timeout(120)]


def test_serve_on_a_database_nobody_migrated_stops_at_once_and_says_what_to_do(judges, smtp_sink):
    judge = judges(outbound=smtp_sink.url)
    judge.start(wait=False)
    assert judge.proc.wait(60) == 1
    log = judge.log_text()
    assert "run `payjudge db upgrade` first" in log
    assert "Traceback" not in log
    # once migrated it serves, and says so when it stops
    judge.upgrade()
    judge.start()
    assert judge.stop() == 0
    log = judge.log_text()
    assert "payjudge serving" in log and "payjudge stopping" in log and "payjudge stopped" in log


def test_db_upgrade_says_from_which_revision_to_which(judges, smtp_sink):
    judge = judges(outbound=smtp_sink.url)

    def upgrade() -> str:
        done = subprocess.run(
            payjudge_command() + ["db", "upgrade"], env=judge.env, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    first = upgrade()
    _, head = schema_revisions(judge.db_url)
    assert first == f"database migrated from an empty database to revision {head}"
    assert upgrade() == f"database is up to date (revision {head})"


def test_the_relay_password_never_reaches_the_log(judges, smtp_sink):
    host_port = smtp_sink.url.split("://", 1)[1]
    judge = judges(outbound=f"smtp://judge:Sup3rSecretRelay@{host_port}")
    judge.upgrade()
    judge.start()
    judge.stop()
    log = judge.log_text()
    assert "payjudge serving" in log and "smtp://judge:***@" in log
    assert "Sup3rSecretRelay" not in log


def test_version():
    done = subprocess.run(payjudge_command() + ["--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    from importlib.metadata import version

    assert done.stdout.strip().endswith(version("payjudge"))
