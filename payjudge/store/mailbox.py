"""The SQL implementations of the mail ports: the inbound store and the outbox."""

from __future__ import annotations

from datetime import datetime, timezone
from email import message_from_bytes, policy
from typing import Sequence

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from ..ports import OutgoingMail, Stored
from .db import Database
from .models import InboundMessage, OutboxMail


def _message_id(raw: bytes) -> str | None:
    try:
        value = message_from_bytes(raw[:65536], policy=policy.compat32).get("Message-ID")
    except Exception:  # a garbled header must not stop the message being stored
        return None
    if not value:
        return None
    value = " ".join(str(value).split())
    return value[:255] or None


def _sender(raw: bytes) -> str | None:
    try:
        msg = message_from_bytes(raw[:65536], policy=policy.default)
        addresses = msg["From"].addresses if msg["From"] else ()
        return addresses[0].addr_spec.lower()[:254] if len(addresses) == 1 else None
    except Exception:
        return None


class SqlInbound:
    """Stores raw inbound mail; Message-ID and mailbox key are unique (duplicates ignored)."""

    def __init__(self, db: Database):
        self.db = db

    def store_inbound(self, raw: bytes, *, source: str, source_key: str | None = None,
                      envelope_from: str | None = None, envelope_to: Sequence[str] = ()) -> Stored:
        msgid = _message_id(raw)
        with self.db.transaction() as s:
            if msgid is not None and s.scalar(select(InboundMessage.id).where(
                    InboundMessage.message_id == msgid)) is not None:
                return Stored.DUPLICATE
            if source_key is not None and s.scalar(select(InboundMessage.id).where(
                    InboundMessage.source_key == source_key)) is not None:
                return Stored.DUPLICATE
        try:
            with self.db.transaction() as s:
                s.add(InboundMessage(message_id=msgid, source=source, source_key=source_key,
                                     envelope_from=envelope_from, sender=_sender(raw), raw=raw,
                                     received_at=datetime.now(timezone.utc), state="new"))
        except IntegrityError:  # a concurrent copy won the race
            return Stored.DUPLICATE
        return Stored.STORED

    def has_source_key(self, source_key: str) -> bool:
        with self.db.transaction() as s:
            return s.scalar(select(InboundMessage.id).where(
                InboundMessage.source_key == source_key)) is not None


class SqlOutbox:
    def __init__(self, db: Database):
        self.db = db

    def claim_due(self, now: datetime, limit: int = 50) -> list[OutgoingMail]:
        with self.db.transaction() as s:
            rows = s.scalars(select(OutboxMail).where(OutboxMail.state == "pending",
                                                      OutboxMail.next_attempt_at <= now)
                             .order_by(OutboxMail.id).limit(limit)).all()
            return [OutgoingMail(r.id, r.message_id, r.sender, tuple(r.recipients), r.raw, r.attempts)
                    for r in rows]

    def mark_sent(self, mail_id: int, now: datetime) -> None:
        with self.db.transaction() as s:
            s.execute(update(OutboxMail).where(OutboxMail.id == mail_id)
                      .values(state="sent", sent_at=now, attempts=OutboxMail.attempts + 1))

    def mark_failed(self, mail_id: int, now: datetime, error: str, retry_at: datetime | None) -> None:
        with self.db.transaction() as s:
            values = {"attempts": OutboxMail.attempts + 1, "last_error": error[:2000]}
            if retry_at is None:
                values["state"] = "failed"
            else:
                values["next_attempt_at"] = retry_at
            s.execute(update(OutboxMail).where(OutboxMail.id == mail_id).values(**values))
