"""`payjudge serve` as a real subprocess, and the mail tools the daemon tests use.

`JudgeProcess` starts the daemon with its configuration in the environment (as `make run`
and the Dockerfile do), waits until its SMTP port is open, and stops it with SIGTERM, or
kills its whole process group with SIGKILL (a crash). `send_mail` speaks SMTP to it with
smtplib; `Replies` reads what the daemon sent to the real SMTP sink.
"""

from __future__ import annotations

import email.utils
import itertools
import os
import signal
import smtplib
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import ClassVar

from sqlalchemy import create_engine, text

from tests.dbfix import migrated_sqlite, pg_migrated
from tests.servers import free_port

JUDGE = "judge@pj.test"
_ids = itertools.count(1)


def payjudge_command() -> list[str]:
    """`.venv/bin/payjudge`, next to the interpreter running the tests."""
    script = Path(sys.executable).with_name("payjudge")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "payjudge.cli"]


def wait_until(predicate: Callable[[], object], timeout: float, what: str, interval: float = 0.05):
    """Poll `predicate` until it returns something true; its value is returned."""
    end = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > end:
            raise TimeoutError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(interval)


class JudgeProcess:
    """One `payjudge serve` process with a private data directory."""

    made: ClassVar[list[JudgeProcess]] = []  # every one, so a fixture can stop them in time

    def __init__(
        self,
        *,
        outbound: str,
        db_url: str | None = None,
        imap_url: str | None = None,
        settle: int = 0,
        sweep: int = 1,
        data_dir: Path | None = None,
        port: int | None = None,
        judge_address: str = JUDGE,
        settings: dict[str, object] | None = None,
        env: dict[str, str] | None = None,
    ):
        self.data_dir = data_dir or Path(tempfile.mkdtemp(prefix="pj-daemon-"))
        self.port = port or free_port()
        self.db_url = db_url or f"sqlite:///{self.data_dir / 'payjudge.sqlite'}"
        self.judge_address = judge_address
        self.log_path = self.data_dir / "daemon.log"
        self.proc: subprocess.Popen | None = None
        self.starts = 0
        JudgeProcess.made.append(self)
        config = self.data_dir / "payjudge.toml"
        # what has no environment variable goes into a TOML file (tests send many
        # messages and create many games from one address: no rate or CREATE limit, unless
        # a test asks for one)
        values = {
            "rate_limit_per_hour": 1_000_000,
            "create_per_sender_per_hour": 0,
            "create_per_hour": 0,
            **(settings or {}),
        }
        config.write_text("[judge]\n" + "".join(f"{k} = {_toml(v)}\n" for k, v in values.items()))
        self.env = {
            **os.environ,
            "PAYJUDGE_CONFIG": str(config),
            "PAYJUDGE_DATA_DIR": str(self.data_dir),
            "PAYJUDGE_DB_URL": self.db_url,
            "PAYJUDGE_SMTP_LISTEN": f"127.0.0.1:{self.port}",
            "PAYJUDGE_JUDGE_ADDRESS": judge_address,
            "PAYJUDGE_OUTBOUND": outbound,
            "PAYJUDGE_SETTLE_SECONDS": str(settle),
            "PAYJUDGE_SWEEP_SECONDS": str(sweep),
            "PAYJUDGE_LOG_LEVEL": "INFO",
            **(env or {}),
        }
        if imap_url:
            self.env["PAYJUDGE_IMAP_URL"] = imap_url
        else:
            self.env.pop("PAYJUDGE_IMAP_URL", None)

    # -- life cycle -------------------------------------------------------------------

    def upgrade(self) -> None:
        """`payjudge db upgrade` with the daemon's configuration."""
        done = subprocess.run(
            payjudge_command() + ["db", "upgrade"], env=self.env, capture_output=True, text=True, timeout=120
        )
        if done.returncode != 0:
            raise RuntimeError(f"payjudge db upgrade failed:\n{done.stdout}\n{done.stderr}")

    def migrated(self) -> None:
        """The database as `payjudge db upgrade` leaves a new one, copied from a template
        this test process migrated once: a second or more less per daemon than running the
        command (the tests of the command itself call `upgrade`)."""
        if self.db_url.startswith("sqlite:///"):
            path = Path(self.db_url[len("sqlite:///") :])
            path.parent.mkdir(parents=True, exist_ok=True)
            migrated_sqlite(path)
        else:
            pg_migrated(self.db_url)

    def start(self, timeout: float = 30.0, *, wait: bool = True) -> JudgeProcess:
        assert self.proc is None or self.proc.poll() is not None, "already running"
        self.starts += 1
        with open(self.log_path, "ab") as log:
            log.write(f"\n===== start {self.starts} =====\n".encode())
            log.flush()
            # its own session, so the whole process group can be killed at once
            self.proc = subprocess.Popen(
                payjudge_command() + ["serve"],
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        if wait:
            self.wait_ready(timeout)
        return self

    def wait_ready(self, timeout: float = 30.0) -> None:
        import socket

        end = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"payjudge serve exited with rc={self.proc.returncode}:\n" + self.log_tail()
                )
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return
            except OSError:
                if time.monotonic() > end:
                    raise TimeoutError(
                        f"payjudge serve did not open port {self.port}:\n" + self.log_tail()
                    ) from None
                time.sleep(0.05)

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self, timeout: float = 20.0) -> int | None:
        """SIGTERM (a clean shutdown), then SIGKILL if it does not go."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self._signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        self._signal(signal.SIGKILL)  # anything left in its group
        return self.proc.returncode

    def kill(self) -> None:
        """kill -9 of the whole process group: a crash, nothing runs on."""
        if self.proc is None:
            return
        self._signal(signal.SIGKILL)
        self.proc.wait(10)

    def _signal(self, sig: int) -> None:
        try:
            os.killpg(self.proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass

    def children(self) -> list[int]:
        """The daemon's child processes (on PostgreSQL, its processor)."""
        found: list[int] = []
        for task in Path(f"/proc/{self.proc.pid}/task").iterdir():
            try:
                found += [int(pid) for pid in (task / "children").read_text().split()]
            except OSError:
                pass
        return found

    def rss_kib(self) -> int:
        """The daemon's resident memory (VmRSS), in KiB: its own and its children's."""
        total = 0
        for pid in [self.proc.pid, *self.children()]:
            try:
                status = Path(f"/proc/{pid}/status").read_text()
            except OSError:
                continue
            total += next(
                (int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0
            )
        return total

    def log_tail(self, lines: int = 60) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace")

    def __enter__(self) -> JudgeProcess:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    # -- the database, read from outside ----------------------------------------------

    def query(self, sql: str, **params) -> list[tuple]:
        engine = create_engine(self.db_url)
        try:
            with engine.connect() as conn:
                return [tuple(r) for r in conn.execute(text(sql), params)]
        finally:
            engine.dispose()

    def scalar(self, sql: str, **params):
        rows = self.query(sql, **params)
        return rows[0][0] if rows else None


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


# -- mail in ------------------------------------------------------------------------------


def make_mail(
    sender: str, body: str, subject: str = "orders", *, to: str = JUDGE, message_id: str | None = None
) -> tuple[str, bytes]:
    """A plain-text message as a player's mail program would send it: (Message-ID, bytes)."""
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = email.utils.formatdate(localtime=False)
    msg["Message-ID"] = message_id or f"<pjt{os.getpid()}.{next(_ids)}.{time.time_ns()}@players.test>"
    msg.set_content(body)
    return msg["Message-ID"], msg.as_bytes()


def send_mail(
    port: int,
    sender: str,
    body: str,
    subject: str = "orders",
    *,
    to: str = JUDGE,
    message_id: str | None = None,
    timeout: float = 60.0,
) -> str:
    """One SMTP conversation with the listener; returns the Message-ID (raises on refusal)."""
    msgid, raw = make_mail(sender, body, subject, to=to, message_id=message_id)
    with smtplib.SMTP("127.0.0.1", port, timeout=timeout) as smtp:
        smtp.sendmail(sender, [to], raw)
    return msgid


# -- mail out (at the SMTP sink) ----------------------------------------------------------


@dataclass
class OutMail:
    rcpt: tuple[str, ...]
    message_id: str
    in_reply_to: str | None
    subject: str
    body: str
    raw: bytes


def read_out(received) -> OutMail:
    msg = message_from_bytes(received.data, policy=policy.default)
    part = msg.get_body(("plain",))
    body = part.get_content() if part is not None else ""
    return OutMail(
        tuple(a.lower() for a in received.rcpt_tos),
        str(msg["Message-ID"] or ""),
        str(msg["In-Reply-To"]) if msg["In-Reply-To"] else None,
        str(msg["Subject"] or ""),
        body,
        received.data,
    )


@dataclass
class Replies:
    """What the daemon has sent to the sink so far, parsed (re-read on every call)."""

    sink: object
    _cache: list[OutMail] = field(default_factory=list)

    def all(self) -> list[OutMail]:
        messages = list(self.sink.messages)
        for received in messages[len(self._cache) :]:
            self._cache.append(read_out(received))
        return list(self._cache)

    def to(self, address: str) -> list[OutMail]:
        return [m for m in self.all() if address.lower() in m.rcpt]

    def answering(self, message_id: str) -> list[OutMail]:
        return [m for m in self.all() if m.in_reply_to == message_id]

    def reply_to(self, message_id: str, timeout: float = 30.0) -> OutMail:
        return wait_until(
            lambda: (self.answering(message_id) or [None])[0], timeout, f"the reply to {message_id}"
        )

    def with_subject(self, fragment: str) -> list[OutMail]:
        return [m for m in self.all() if fragment in m.subject]

    def wait_subject(self, fragment: str, count: int = 1, timeout: float = 30.0) -> list[OutMail]:
        return wait_until(
            lambda: len(found := self.with_subject(fragment)) >= count and found,
            timeout,
            f"{count} mail(s) with subject {fragment!r}",
        )


def one_each(mails: Iterable[OutMail]) -> list[str]:
    """The recipients of a mail sent to several people, each in a mail of their own
    (nobody sees who else got it): sorted, and each exactly once."""
    mails = list(mails)
    assert all(len(m.rcpt) == 1 for m in mails), [m.rcpt for m in mails]
    rcpts = sorted(m.rcpt[0] for m in mails)
    assert len(rcpts) == len(set(rcpts)), rcpts
    return rcpts


def recipients_count(mails: Iterable[OutMail]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for m in mails:
        for r in m.rcpt:
            counts[r] = counts.get(r, 0) + 1
    return counts
