"""The ports between the mail adapters and the rest of the judge.

Inbound adapters (SMTP listener, IMAP poller) only *store* raw messages through an
`InboundStore`; the processor handles them later, one per transaction. The outbox sender
takes rendered messages from an `Outbox` and reports back. Each port has a real
implementation (payjudge.store) and an in-memory one (payjudge.memory) for tests.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol


class Stored(enum.Enum):
    STORED = "stored"  # committed: it is safe to acknowledge (250, \Seen)
    DUPLICATE = "duplicate"  # seen before (same Message-ID or same mailbox UID): acknowledge too


class InboundStore(Protocol):
    def store_inbound(
        self,
        raw: bytes,
        *,
        source: str,
        source_key: str | None = None,
        envelope_from: str | None = None,
        envelope_to: Sequence[str] = (),
    ) -> Stored:
        """Commit the raw message durably before returning. `source` is "smtp" or
        "imap"; `source_key` identifies a mailbox message (mailbox:uidvalidity:uid).
        Raises on any storage failure (the adapter then answers 451 / leaves it unseen)."""
        ...

    def has_source_key(self, source_key: str) -> bool:
        """Whether a mailbox message was already stored (so the poller can skip fetching)."""
        ...


@dataclass(frozen=True, slots=True)
class OutgoingMail:
    id: int
    message_id: str  # our own Message-ID, so a resend can be recognised
    sender: str
    recipients: tuple[str, ...]
    raw: bytes  # the complete RFC 5322 message, ready to send
    attempts: int = 0


class Outbox(Protocol):
    def claim_due(self, now: datetime, limit: int = 50) -> list[OutgoingMail]:
        """Pending mails whose next attempt is due (oldest first)."""
        ...

    def mark_sent(self, mail_id: int, now: datetime) -> None: ...

    def mark_failed(self, mail_id: int, now: datetime, error: str, retry_at: datetime | None) -> None:
        """Record a failed attempt; `retry_at=None` means give up (permanent failure)."""
        ...


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware UTC."""
        ...
