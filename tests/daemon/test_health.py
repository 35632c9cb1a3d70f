"""`payjudge health` and the IMAP poller (issue 26, item 6): a daemon whose poller cannot
log in is unhealthy, and says whose login failed (never the password)."""

from __future__ import annotations

import json
import subprocess
from datetime import UTC, datetime, timedelta

import pytest

from payjudge.heartbeat import Heartbeat, HeartbeatWriter, heartbeat_path, read_heartbeat
from payjudge.mail.poller import ImapSettings, PollerStatus

from .harness import payjudge_command, wait_until

pytestmark = [pytest.mark.timeout(120)]

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
ACCOUNT = "judge@mail.example.org:143"


def _beat(**changes) -> Heartbeat:
    status = PollerStatus(ACCOUNT, NOW - timedelta(hours=1), **changes)
    return Heartbeat(status, stale_after=600)


def test_the_heartbeat_says_when_a_poller_is_unhealthy():
    assert (
        _beat(logged_in_at=NOW - timedelta(hours=1), alive_at=NOW - timedelta(seconds=30)).problem(NOW)
        is None
    )
    # connected for days through IDLE: alive, though its login was long ago
    assert _beat(logged_in_at=NOW - timedelta(days=3), alive_at=NOW).problem(NOW) is None
    refused = _beat(failure=f"the IMAP server refused the login of {ACCOUNT}: no", refused=True)
    assert ACCOUNT in (refused.problem(NOW) or "")
    never = _beat(failure="ConnectionRefusedError: [Errno 111] Connection refused").problem(NOW)
    assert never and "has not logged in" in never and ACCOUNT in never and "Connection refused" in never
    silent = _beat(logged_in_at=NOW - timedelta(hours=1), alive_at=NOW - timedelta(minutes=11)).problem(NOW)
    assert silent and "not been seen working since 2026-11-29 11:49:00 UTC" in silent
    # just started, not logged in yet: not counted against it
    assert Heartbeat(PollerStatus(ACCOUNT, NOW - timedelta(seconds=5)), 600).problem(NOW) is None


def test_the_heartbeat_file_round_trips_and_holds_no_password(tmp_path):
    settings = ImapSettings(host="mail.example.org", user="judge", password="S3cretImap", idle_timeout=300)
    path = heartbeat_path(tmp_path)
    write = HeartbeatWriter(path, settings)
    status = PollerStatus(settings.account, NOW, logged_in_at=NOW, alive_at=NOW)
    write(status)
    assert read_heartbeat(path) == Heartbeat(status, stale_after=2 * (300 + 30))
    assert "S3cretImap" not in path.read_text() and json.loads(path.read_text())["account"] == ACCOUNT
    refused = PollerStatus(settings.account, NOW, failure="refused", refused=True)
    write(refused)  # a change is written at once
    assert read_heartbeat(path).status == refused


def _health(env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        payjudge_command() + ["health"], env=env, capture_output=True, text=True, timeout=60
    )


@pytest.mark.servers
def test_a_daemon_whose_imap_login_is_refused_is_unhealthy(judges, smtp_sink, imap_account):
    judge = judges(outbound=smtp_sink.url, imap_url=imap_account.url("INBOX"))
    judge.migrated()
    judge.start()
    beat = heartbeat_path(judge.data_dir)
    wait_until(lambda: beat.exists() and read_heartbeat(beat).status.alive_at, 30, "the poller logged in")
    done = _health(judge.env)
    assert (done.returncode, done.stdout.strip()) == (0, "ok"), done.stderr
    judge.stop()
    # the same daemon with a wrong password: it serves SMTP, but its poller cannot log in
    wrong = "Wr0ngImapPass"
    judge.env["PAYJUDGE_IMAP_URL"] = imap_account.url("INBOX").replace(
        f":{imap_account.password}@", f":{wrong}@"
    )
    judge.start()
    wait_until(lambda: read_heartbeat(beat).status.refused, 30, "the refused login published")
    done = _health(judge.env)
    out = (done.stdout + done.stderr).strip()
    account = f"{imap_account.user}@{imap_account.host}:{imap_account.port}"
    assert done.returncode == 1 and len(out.splitlines()) == 1, out
    assert out.startswith("Error: unhealthy:") and account in out and wrong not in out
    log = judge.log_text()
    assert f"ERROR payjudge.mail: the IMAP server refused the login of {account}" in log
    assert wrong not in log
