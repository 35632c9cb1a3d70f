"""In-memory implementations of the ports, for tests and dry runs."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy

from .ports import OutgoingMail, Stored


@dataclass
class MemoryInbound:
    """Keeps raw messages in a list; dedupes by Message-ID and source key."""

    messages: list[dict] = field(default_factory=list)
    fail: bool = False  # simulate a storage outage
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def store_inbound(
        self,
        raw: bytes,
        *,
        source: str,
        source_key: str | None = None,
        envelope_from: str | None = None,
        envelope_to: Sequence[str] = (),
    ) -> Stored:
        if self.fail:
            raise RuntimeError("storage unavailable")
        msgid = message_from_bytes(raw, policy=policy.default).get("Message-ID")
        with self._lock:
            for m in self.messages:
                if (source_key and m["source_key"] == source_key) or (msgid and m["message_id"] == msgid):
                    return Stored.DUPLICATE
            self.messages.append(
                {
                    "raw": raw,
                    "source": source,
                    "source_key": source_key,
                    "message_id": msgid,
                    "envelope_from": envelope_from,
                    "envelope_to": list(envelope_to),
                }
            )
        return Stored.STORED

    def has_source_key(self, source_key: str) -> bool:
        with self._lock:
            return any(m["source_key"] == source_key for m in self.messages)


@dataclass
class MemoryOutbox:
    pending: dict[int, OutgoingMail] = field(default_factory=dict)
    due: dict[int, datetime] = field(default_factory=dict)
    sent: list[OutgoingMail] = field(default_factory=list)
    failed: list[tuple[OutgoingMail, str]] = field(default_factory=list)
    _next: int = 1
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def add(
        self,
        sender: str,
        recipients: Sequence[str],
        raw: bytes,
        message_id: str,
        when: datetime | None = None,
    ) -> OutgoingMail:
        with self._lock:
            mail = OutgoingMail(self._next, message_id, sender, tuple(recipients), raw)
            self.pending[mail.id] = mail
            self.due[mail.id] = when or datetime(1970, 1, 1, tzinfo=UTC)
            self._next += 1
            return mail

    def claim_due(self, now: datetime, limit: int = 50) -> list[OutgoingMail]:
        with self._lock:
            ready = [m for i, m in sorted(self.pending.items()) if self.due[i] <= now]
            return ready[:limit]

    def mark_sent(self, mail_id: int, now: datetime) -> None:
        with self._lock:
            mail = self.pending.pop(mail_id)
            self.due.pop(mail_id, None)
            self.sent.append(mail)

    def mark_failed(self, mail_id: int, now: datetime, error: str, retry_at: datetime | None) -> None:
        with self._lock:
            mail = replace(self.pending[mail_id], attempts=self.pending[mail_id].attempts + 1)
            if retry_at is None:
                del self.pending[mail_id]
                self.due.pop(mail_id, None)
                self.failed.append((mail, error))
            else:
                self.pending[mail_id] = mail
                self.due[mail_id] = retry_at


@dataclass
class FixedClock:
    """A clock the test moves by hand."""

    current: datetime = field(default_factory=lambda: datetime(2026, 1, 1, tzinfo=UTC))

    def now(self) -> datetime:
        return self.current

    def advance(self, **kwargs) -> datetime:
        self.current += timedelta(**kwargs)
        return self.current


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)
