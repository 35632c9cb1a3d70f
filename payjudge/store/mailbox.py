"""The SQL implementations of the mail ports: the inbound store and the outbox."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from email.parser import Parser

from sqlalchemy import Connection, Table, bindparam, select, text, update
from sqlalchemy.dialects import postgresql, sqlite

from ..ports import OutgoingMail, Stored
from ..text.message import READING
from ..vocabulary import InboundState, OutboxState
from .db import Database
from .models import InboundMessage, OutboxMail


def _text(value: str) -> str:
    """A header value as storable text: raw 8-bit bytes, which the email package keeps as
    undecodable surrogates (and the database cannot store), read as UTF-8 (RFC 6532),
    anything invalid replaced."""
    return value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _head(raw: bytes):
    """The header block (of the first 64 KiB), decoded as UTF-8 where it can be, read as
    the processor reads it: each value cut to `text.headers.LIMITS` before it is parsed,
    so that a From of thousands of addresses costs the listener no more than one."""
    block = raw[:65536]
    end = min((i for i in (block.find(b"\r\n\r\n"), block.find(b"\n\n")) if i >= 0), default=len(block))
    text = block[:end].decode("utf-8", "replace")
    return Parser(policy=READING).parsestr(text, headersonly=True)


def content_hash(raw: bytes) -> str:
    """What makes two copies the same message when it has no Message-ID: its From, To, Cc,
    Subject and Date, and its body (line ends and trailing blanks aside). The headers an
    MTA adds on the way (Received, Return-Path, …) are left out, so a second delivery of
    the same message has the same digest, while a message written again (a new Date) not."""
    digest = hashlib.sha256()
    try:
        head = _head(raw)
        for name in ("From", "To", "Cc", "Subject", "Date"):
            digest.update(f"{name}:{' '.join(_text(str(head.get(name, ''))).split())}\n".encode())
    except Exception:
        digest.update(b"unreadable headers\n")
    cut = [i + len(sep) for sep in (b"\r\n\r\n", b"\n\n") if (i := raw.find(sep)) >= 0]
    body = raw[min(cut) :] if cut else b""
    digest.update(b"\n".join(line.rstrip() for line in body.splitlines()).rstrip())
    return digest.hexdigest()


def _identity(raw: bytes) -> tuple[str | None, str | None]:
    """The message's Message-ID and its sender's address (From, when it names one
    address), each None when missing or unreadable: a garbled header must not stop the
    message being stored. (The header block is read once for both.)"""
    try:
        head = _head(raw)
    except Exception:
        return None, None
    return _message_id(head), _sender(head)


def _message_id(head) -> str | None:
    try:
        value = head.get("Message-ID")
    except Exception:
        return None
    if not value:
        return None
    value = " ".join(_text(str(value)).split())
    return value[:255] or None


def _sender(head) -> str | None:
    try:
        header = head["From"]
        if not header or len(header.addresses) != 1:
            return None
        return _text(header.addresses[0].addr_spec.lower())[:254]
    except Exception:
        return None


def _insert_new(dialect: str):
    """Insert a message unless one with the same Message-ID, mailbox key or content digest
    is stored (the unique columns): one statement, no look first, no race to lose."""
    table = InboundMessage.__table__
    assert isinstance(table, Table)
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    return insert(table).on_conflict_do_nothing().returning(table.c.id)


class SqlInbound:
    """Stores raw inbound mail; Message-ID and mailbox key are unique (duplicates ignored)."""

    def __init__(self, db: Database, clock=None):
        self.db = db
        self.clock = clock
        self._insert = _insert_new(db.engine.dialect.name)

    def _now(self) -> datetime:
        return self.clock.now() if self.clock is not None else datetime.now(UTC)

    def store_inbound(
        self,
        raw: bytes,
        *,
        source: str,
        source_key: str | None = None,
        envelope_from: str | None = None,
        envelope_to: Sequence[str] = (),
    ) -> Stored:
        msgid, sender = _identity(raw)
        # without a Message-ID a re-delivery is recognised by its content
        digest = content_hash(raw) if msgid is None else None
        # one statement, its own transaction (one turn of SQLite's write lock per message)
        with self.db.one_statement(urgent=True) as connection:
            inserted = connection.execute(
                self._insert,
                {
                    "message_id": msgid,
                    "source_key": source_key,
                    "content_hash": digest,
                    "source": source,
                    "envelope_from": _text(envelope_from)[:254] if envelope_from else envelope_from,
                    "sender": sender,
                    "raw": raw,
                    "received_at": self._now(),
                    "state": InboundState.NEW,
                    "attempts": 0,
                    "redacted": False,
                    "not_before": None,
                    "error": None,
                    "processed_at": None,
                },
            )
            if inserted.first() is None:  # nothing inserted: the message is there
                return Stored.DUPLICATE
        return Stored.STORED

    def has_source_key(self, source_key: str) -> bool:
        with self.db.reading() as s:
            return (
                s.scalar(select(InboundMessage.id).where(InboundMessage.source_key == source_key)) is not None
            )


class SqlOutbox:
    """The outbox. A claimed mail belongs to its claimant until it is marked sent or failed.

    On PostgreSQL the claim is a session-level advisory lock, held on a connection kept for
    the purpose: another daemon on the same database skips the mail while the claimant
    lives, and the server drops the lock the moment the claimant's process dies, so a
    crash delays nothing (a lease written into the row would hold a killed daemon's
    unsent mail back until it ran out). A SQLite file has one daemon (the daemon holds a
    lock file), whose sender claims one batch at a time: there is no one to keep out.
    """

    LOCK_SPACE = 0x504A  # the advisory-lock key space of outbox claims ("PJ")

    def __init__(self, db: Database, *, batch_marks: bool = False):
        self.db = db
        self._postgres = db.engine.dialect.name == "postgresql"
        self._locks: Connection | None = None  # the connection holding our advisory locks
        self._held: set[int] = set()  # the mails it holds
        # With `batch_marks` (the daemon), mail sent from the last claim is marked in one
        # transaction once the whole claim is accounted for: one commit per batch, not
        # per mail, for under load those commits queue behind the turns being processed.
        # Until then it stays claimed; a crash meanwhile sends it again (same Message-ID).
        self.batch_marks = batch_marks
        self._unmarked: set[int] = set()
        self._sent: dict[int, datetime] = {}

    def claim_due(self, now: datetime, limit: int = 50) -> list[OutgoingMail]:
        self.flush()  # never claim (and send) again a mail sent but not yet marked
        # reads only: on SQLite they need not wait for the write lock (held by a batch of
        # messages being processed)
        with self.db.reading() as s:
            ids = list(
                s.scalars(
                    select(OutboxMail.id)
                    .where(OutboxMail.state == OutboxState.PENDING, OutboxMail.next_attempt_at <= now)
                    .order_by(OutboxMail.id)
                    .limit(limit)
                )
            )
        if self._postgres and ids:
            ids = self._lock(ids)
        if not ids:
            return []
        # read again after locking: a mail another daemon sent meanwhile is left alone
        with self.db.reading() as s:
            rows = s.scalars(
                select(OutboxMail)
                .where(
                    OutboxMail.id.in_(ids),
                    OutboxMail.state == OutboxState.PENDING,
                    OutboxMail.next_attempt_at <= now,
                )
                .order_by(OutboxMail.id)
            ).all()
            mails = [
                OutgoingMail(r.id, r.message_id, r.sender, tuple(r.recipients), r.raw, r.attempts)
                for r in rows
            ]
        self._unlock(set(ids) - {m.id for m in mails})
        self._unmarked = {m.id for m in mails}
        return mails

    def flush(self) -> None:
        """Mark the mail sent so far as sent (one transaction), then let it go."""
        if not self._sent:
            return
        sent = dict(self._sent)
        with self.db.transaction() as s:
            table = OutboxMail.__table__
            assert isinstance(table, Table)
            s.connection().execute(
                update(table)
                .where(table.c.id == bindparam("mail_id"))
                .values(state=OutboxState.SENT, sent_at=bindparam("at"), attempts=table.c.attempts + 1),
                [{"mail_id": mail_id, "at": at} for mail_id, at in sent.items()],
            )
        for mail_id in sent:
            self._sent.pop(mail_id, None)
        self._unlock(sent)

    def close(self) -> None:
        """Record what was sent and give every claim up (the daemon's shutdown)."""
        try:
            self.flush()
        except Exception:
            pass  # those mails go again after the restart, with the same Message-ID
        conn, self._locks = self._locks, None
        self._held.clear()
        if conn is not None:
            try:
                conn.close()
            except Exception:
                pass

    def _lock(self, ids: list[int]) -> list[int]:
        todo = [i for i in ids if i not in self._held]  # advisory locks count re-entries
        try:
            if self._locks is None:
                self._locks = self.db.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
            if todo:
                got = (
                    self._locks.execute(
                        text(
                            "SELECT id FROM unnest(CAST(:ids AS integer[])) AS id "
                            "WHERE pg_try_advisory_lock(:space, id)"
                        ),
                        {"ids": todo, "space": self.LOCK_SPACE},
                    )
                    .scalars()
                    .all()
                )
                self._held.update(got)
        except Exception:
            self.close()  # a broken connection has lost its locks with it
            raise
        return [i for i in ids if i in self._held]

    def _unlock(self, mail_ids: Iterable[int]) -> None:
        """Give up the claims on these mails, in one statement (one round trip for a batch)."""
        if not self._postgres or self._locks is None:
            return
        ids = [i for i in mail_ids if i in self._held]
        if not ids:
            return
        self._held.difference_update(ids)
        try:
            self._locks.execute(
                text("SELECT pg_advisory_unlock(:space, id) FROM unnest(CAST(:ids AS integer[])) AS id"),
                {"space": self.LOCK_SPACE, "ids": ids},
            )
        except Exception:
            self.close()

    def mark_sent(self, mail_id: int, now: datetime) -> None:
        self._sent[mail_id] = now
        self._unmarked.discard(mail_id)
        if not self._unmarked or not self.batch_marks:
            self.flush()

    def mark_failed(self, mail_id: int, now: datetime, error: str, retry_at: datetime | None) -> None:
        with self.db.transaction() as s:
            values = {"attempts": OutboxMail.attempts + 1, "last_error": error[:2000]}
            if retry_at is None:
                values["state"] = OutboxState.FAILED
            else:
                values["next_attempt_at"] = retry_at
            s.execute(update(OutboxMail).where(OutboxMail.id == mail_id).values(**values))
        self._unlock([mail_id])
        self._unmarked.discard(mail_id)
        if not self._unmarked or not self.batch_marks:
            self.flush()
