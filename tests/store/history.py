"""A sender's history in the inbound store, for the tests and the benchmark of the claim's
cost against it (`test_sender_history.py`, `benchmarks/sender_history.py`)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import insert

from payjudge.store.db import Database
from payjudge.store.models import InboundMessage, InboundState

NOW = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)
SENDER = "old@players.test"


def add_history(db: Database, start: int, stop: int) -> None:
    """Messages `start` to `stop` answered a year ago from SENDER, and as many from twenty
    other senders (in transactions of 5,000 rows)."""
    old = NOW - timedelta(days=400)
    rows = [
        {
            "source": "cli",
            "raw": b"HELP",
            "envelope_from": sender,
            "sender": sender,
            "state": InboundState.DONE,
            "received_at": old + timedelta(minutes=i),
            "processed_at": old + timedelta(minutes=i),
        }
        for i in range(start, stop)
        for sender in (SENDER, f"other{i % 20}@players.test")
    ]
    for at in range(0, len(rows), 5000):
        with db.transaction() as s:
            s.execute(insert(InboundMessage), rows[at : at + 5000])


def new_message(db: Database) -> int:
    """A fresh message from SENDER, waiting to be claimed: its id."""
    with db.transaction() as s:
        return s.execute(
            insert(InboundMessage)
            .values(source="cli", raw=b"HELP", sender=SENDER, received_at=NOW, state=InboundState.NEW)
            .returning(InboundMessage.id)
        ).scalar_one()
