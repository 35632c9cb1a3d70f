"""A judge in a test: the real store and service, driven by mail, with a clock moved by hand.

`send()` stores a message as the listener would and processes it; `inbox()` reads what
the judge mailed to an address since the last look. Nothing here is a mock: it is the
service layer with its in-memory clock port.
"""

from __future__ import annotations

import itertools
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from pathlib import Path

from sqlalchemy import select

from payjudge.config import Config
from payjudge.memory import FixedClock
from payjudge.service.deadlines import tick_all
from payjudge.service.processor import process_pending
from payjudge.service.replay import ReplayReport, replay
from payjudge.store.db import Database
from payjudge.store.mailbox import SqlInbound
from payjudge.store.models import OutboxMail
from tests.dbfix import migrated_sqlite

_ids = itertools.count(1)


class Mail:
    """A mail the judge sent: its recipients and kind as the outbox holds them, its
    subject and plain-text body read from the raw message when first asked for (a test
    reads few of the mails its games send, and reading one that carries pictures takes
    milliseconds: reading them all took a fifth of the service tests' time)."""

    __slots__ = ("_body", "_subject", "kind", "raw", "to")

    def __init__(
        self, to: tuple[str, ...], subject: str | None, body: str | None, kind: str, raw: bytes
    ) -> None:
        self.to, self.kind, self.raw = to, kind, raw
        self._subject, self._body = subject, body

    @property
    def subject(self) -> str:
        if self._subject is None:
            self._read()
        assert self._subject is not None
        return self._subject

    @property
    def body(self) -> str:
        if self._body is None:
            self._read()
        assert self._body is not None
        return self._body

    def _read(self) -> None:
        msg = message_from_bytes(self.raw, policy=policy.default)
        self._subject = str(msg["Subject"])
        self._body = msg.get_body(("plain",)).get_content()

    def __repr__(self) -> str:
        return f"Mail(to={self.to!r}, subject={self.subject!r}, kind={self.kind!r})"


@dataclass
class TestJudge:
    __test__ = False  # not a test class

    db: Database
    config: Config = field(
        default_factory=lambda: Config(
            judge_address="judge@pj.test",
            settle_seconds=0,
            rate_limit_per_hour=100_000,
            # the flood limits have tests of their own (tests/service/test_observers.py)
            broadcasts_per_hour=0,
            create_per_sender_per_hour=0,
            create_per_hour=0,
        )
    )
    clock: FixedClock = field(default_factory=FixedClock)
    seen: int = 0
    sent: list[Mail] = field(default_factory=list)

    def send(self, sender: str, body: str, subject: str = "orders", *, process: bool = True) -> None:
        raw = (
            f"From: {sender}\r\nTo: {self.config.judge_address}\r\nSubject: {subject}\r\n"
            f"Message-ID: <t{next(_ids)}@pj.test>\r\nContent-Type: text/plain; charset=utf-8\r\n"
            f"\r\n{body}\r\n"
        ).encode()
        self.clock.advance(seconds=1)  # mail never arrives at the very instant of a tick
        SqlInbound(self.db, self.clock).store_inbound(raw, source="smtp")
        if process:
            self.process()

    def process(self) -> None:
        process_pending(self.db, self.config, self.clock, limit=10_000)
        self._collect()

    def tick(self, **advance) -> list[str]:
        if advance:
            self.clock.advance(**advance)
        actions = tick_all(self.db, self.config, self.clock.now())
        self._collect()
        return actions

    def replay(self, game: str) -> ReplayReport:
        """`payjudge replay` of `game` into a fresh SQLite file: the game rebuilt from its
        stored mail and compared with the record."""
        folder = Path(tempfile.mkdtemp(prefix="pj-replay-"))
        try:
            target = Database(migrated_sqlite(folder / "replay.sqlite"))
            try:
                return replay(self.db, target, game, self.config)
            finally:
                target.dispose()
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def _collect(self) -> None:
        with self.db.transaction() as s:
            rows = s.scalars(
                select(OutboxMail).where(OutboxMail.id > self.seen).order_by(OutboxMail.id)
            ).all()
            for r in rows:
                self.sent.append(Mail(tuple(r.recipients), None, None, r.kind, r.raw))
                self.seen = r.id

    def inbox(self, address: str, *, clear: bool = True) -> list[Mail]:
        got = [m for m in self.sent if address.lower() in m.to]
        if clear:
            self.sent = [m for m in self.sent if address.lower() not in m.to]
        return got

    def last_reply(self, address: str) -> str:
        replies = [m for m in self.inbox(address, clear=False) if m.kind == "reply"]
        assert replies, f"no reply to {address}"
        return replies[-1].body

    def observe(self, address: str, identity: str, password: str) -> None:
        """OBSERVE as `identity` (name@game) from `address`, and CONFIRM with the code mailed."""
        self.send(address, f"OBSERVE {identity} {password}\n")
        code = re.search(rf"CONFIRM {re.escape(identity.lower())} (\S+)", self.last_reply(address))
        assert code, self.last_reply(address)
        self.send(address, f"CONFIRM {identity} {code.group(1)}\n")
        assert "You observe game" in self.last_reply(address), self.last_reply(address)
