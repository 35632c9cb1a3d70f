"""The IMAP poller's heartbeat: what it last managed, in a file that `payjudge health` reads.

The daemon writes `<data_dir>/imap-poller.json` whenever the poller's status changes (at
most every `WRITE_SECONDS` while all is well): its account (`user@host:port`, never the
password), when it started, last logged in and was last seen working, the failure it is
in, and how long it may stay silent (`stale_after`, from its IDLE and polling periods).
`payjudge health` runs in another process (a container's health check), so the file is
how it learns that a daemon that answers SMTP has a poller that cannot log in.
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from .mail.poller import ImapSettings, PollerStatus

FILE_NAME = "imap-poller.json"
WRITE_SECONDS = 10.0  # a working poller's file is written again at most this often


def heartbeat_path(data_dir: Path) -> Path:
    return data_dir / FILE_NAME


def stale_after(settings: ImapSettings) -> float:
    """How long a working poller may go without a sign of life: one IDLE period (or poll
    interval), the time-outs of a reconnection, and as much again."""
    return 2 * (
        max(settings.idle_timeout if settings.use_idle else 0, settings.poll_interval) + settings.timeout
    )


@dataclass(frozen=True)
class Heartbeat:
    status: PollerStatus
    stale_after: float  # seconds

    def problem(self, now: datetime) -> str | None:
        """Why the poller is unhealthy at `now` (one line), or None."""
        s = self.status
        if s.refused:
            return s.failure or f"the IMAP server refused the login of {s.account}"
        limit = timedelta(seconds=self.stale_after)
        seen = max((t for t in (s.alive_at, s.logged_in_at) if t is not None), default=None)
        if seen is None:
            if now - s.started_at > limit:
                return f"the IMAP poller has not logged in as {s.account} since {_when(s.started_at)}" + (
                    f" ({s.failure})" if s.failure else ""
                )
            return None
        if now - seen > limit:
            return f"the IMAP poller of {s.account} has not been seen working since {_when(seen)}" + (
                f" ({s.failure})" if s.failure else ""
            )
        return None


def _when(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%S UTC")


def _time(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def read_heartbeat(path: Path) -> Heartbeat:
    """The heartbeat in `path`; OSError or ValueError if there is none to read."""
    doc = json.loads(path.read_text())
    started = _time(doc["started_at"])
    if started is None:
        raise ValueError(f"{path}: no started_at")
    status = PollerStatus(
        account=str(doc["account"]),
        started_at=started,
        logged_in_at=_time(doc.get("logged_in_at")),
        alive_at=_time(doc.get("alive_at")),
        failure=doc.get("failure"),
        refused=bool(doc.get("refused")),
    )
    return Heartbeat(status, float(doc["stale_after"]))


class HeartbeatWriter:
    """Writes the poller's status (the poller's `report`), whole files only (a rename), not
    more often than every `WRITE_SECONDS` unless the failure changed."""

    def __init__(self, path: Path, settings: ImapSettings):
        self.path = path
        self.stale_after = stale_after(settings)
        self._lock = threading.Lock()
        self._written: tuple[datetime, tuple] | None = None  # when, and what changes matter

    def __call__(self, status: PollerStatus) -> None:
        now = datetime.now(UTC)
        # the first sign of life is news; later ones may wait (the file stays fresh enough)
        key = (status.failure, status.refused, status.logged_in_at, status.alive_at is None)
        with self._lock:
            if (
                self._written is not None
                and self._written[1] == key
                and (now - self._written[0]).total_seconds() < WRITE_SECONDS
            ):
                return  # only a newer sign of life: the file says enough
            doc: dict[str, Any] = {
                "account": status.account,
                "started_at": status.started_at.isoformat(),
                "logged_in_at": status.logged_in_at.isoformat() if status.logged_in_at else None,
                "alive_at": status.alive_at.isoformat() if status.alive_at else None,
                "failure": status.failure,
                "refused": status.refused,
                "stale_after": self.stale_after,
            }
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.path.with_name(f".{self.path.name}.{os.getpid()}")
            temporary.write_text(json.dumps(doc))
            os.replace(temporary, self.path)
            self._written = (now, key)
