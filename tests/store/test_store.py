"""The store on SQLite and PostgreSQL: migrations, the inbound store, the outbox, the ledger."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import event, inspect, select

from payjudge.ports import Stored
from payjudge.store.db import Database
from payjudge.store.mailbox import SqlInbound, SqlOutbox
from payjudge.store.models import Base, Game, InboundMessage, LedgerEntry, OutboxMail

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def _game(name: str, **columns) -> Game:
    """A game row with what every game has; `columns` adds or overrides."""
    values = {
        "variant": "payola",
        "map_name": "standard",
        "state": "forming",
        "master_address": "m@x",
        "master_password": "h",
        "rules": [],
        "settings": {},
        "timing": {},
        "created_at": T0,
        "version": 0,
        "reminded": [],
    }
    return Game(name=name, **(values | columns))


def _mail(msgid: str | None, body: str = "HELP") -> bytes:
    head = f"Message-ID: <{msgid}>\r\n" if msgid else ""
    return (
        f"From: Player <player@example.org>\r\nTo: judge@localhost\r\n{head}Subject: hi\r\n\r\n{body}\r\n"
    ).encode()


def test_migrations_create_every_table(database):
    names = set(inspect(database.engine).get_table_names())
    assert set(Base.metadata.tables) <= names
    assert "alembic_version" in names


def test_inbound_is_stored_once_per_message_id(database):
    store = SqlInbound(database)
    assert store.store_inbound(_mail("a@x"), source="smtp") is Stored.STORED
    assert store.store_inbound(_mail("a@x", "other body"), source="smtp") is Stored.DUPLICATE
    assert store.store_inbound(_mail(None), source="smtp") is Stored.STORED
    assert store.store_inbound(_mail(None), source="smtp") is Stored.DUPLICATE  # the same content
    with database.transaction() as s:
        rows = s.scalars(select(InboundMessage).order_by(InboundMessage.id)).all()
        assert len(rows) == 2
        assert rows[0].sender == "player@example.org"
        assert rows[0].raw == _mail("a@x")
        assert rows[0].state == "new"


def test_inbound_is_one_statement_committed_at_once(database):
    """Storing a message is its INSERT alone: on PostgreSQL in autocommit (one round trip,
    no BEGIN or COMMIT of its own), on SQLite in a transaction that takes the write lock
    in turn. Either way it is committed when `store_inbound` returns."""
    seen: list[tuple[str, bool | None]] = []

    @event.listens_for(database.engine, "before_cursor_execute")
    def _statement(conn, cursor, statement, parameters, context, executemany):
        autocommit = getattr(conn.connection.dbapi_connection, "autocommit", None)
        seen.append((" ".join(statement.split()[:3]).upper(), autocommit))

    SqlInbound(database).store_inbound(_mail("once@x"), source="smtp")
    event.remove(database.engine, "before_cursor_execute", _statement)
    writes = [entry for entry in seen if not entry[0].startswith(("SELECT 1", "BEGIN"))]
    if database.engine.dialect.name == "postgresql":
        assert writes == [("INSERT INTO INBOUND_MESSAGE", True)]
    else:
        assert [w for w, _ in writes] == ["INSERT INTO INBOUND_MESSAGE"]
    other = Database(database.url)  # another pool: only what is committed shows
    try:
        with other.reading() as s:
            assert s.scalar(select(InboundMessage.message_id)) == "<once@x>"
    finally:
        other.dispose()


def test_inbound_dedupes_mailbox_keys(database):
    store = SqlInbound(database)
    key = "INBOX:77:12"
    assert not store.has_source_key(key)
    assert store.store_inbound(_mail("b@x"), source="imap", source_key=key) is Stored.STORED
    assert store.has_source_key(key)
    assert store.store_inbound(_mail("c@x"), source="imap", source_key=key) is Stored.DUPLICATE


def test_concurrent_copies_are_stored_once(database):
    store = SqlInbound(database)
    results = []

    def put():
        results.append(store.store_inbound(_mail("race@x"), source="smtp"))

    threads = [threading.Thread(target=put) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r.value for r in results).count("stored") == 1
    with database.transaction() as s:
        assert len(s.scalars(select(InboundMessage)).all()) == 1


def test_outbox_claims_due_mail_and_records_attempts(database):
    with database.transaction() as s:
        for i in range(3):
            s.add(
                OutboxMail(
                    message_id=f"<m{i}@judge>",
                    sender="judge@localhost",
                    recipients=["p@example.org"],
                    subject="s",
                    raw=b"x",
                    kind="reply",
                    created_at=T0,
                    state="pending",
                    attempts=0,
                    next_attempt_at=T0 + timedelta(minutes=i),
                )
            )
    outbox = SqlOutbox(database)
    due = outbox.claim_due(T0 + timedelta(seconds=30))
    assert [m.message_id for m in due] == ["<m0@judge>"]
    outbox.mark_failed(due[0].id, T0, "451 try later", T0 + timedelta(minutes=5))
    assert [m.message_id for m in outbox.claim_due(T0 + timedelta(minutes=1))] == ["<m1@judge>"]
    later = outbox.claim_due(T0 + timedelta(minutes=10))
    assert {m.message_id for m in later} == {"<m0@judge>", "<m1@judge>", "<m2@judge>"}
    first = next(m for m in later if m.message_id == "<m0@judge>")
    assert first.attempts == 1
    outbox.mark_sent(first.id, T0)
    outbox.mark_failed(later[1].id, T0, "550 no such user", None)
    with database.transaction() as s:
        states = {m.message_id: m.state for m in s.scalars(select(OutboxMail))}
    assert states["<m0@judge>"] == "sent"
    assert list(states.values()).count("failed") == 1


def test_times_come_back_timezone_aware(database):
    with database.transaction() as s:
        s.add(_game("g", deadline=T0 + timedelta(hours=3)))
    with database.transaction() as s:
        g = s.scalar(select(Game))
        assert g.deadline == T0 + timedelta(hours=3)
        assert g.deadline.tzinfo is not None
        s.add(
            LedgerEntry(
                game_id=g.id,
                power="FRANCE",
                turn_seq=0,
                phase="S1901M",
                kind="opening",
                amount=48,
                created_at=T0,
            )
        )


def test_share_register_and_ceo_votes_are_sums_and_latest_rows(database):
    """Exchange Payola: holdings are sums of the share ledger, an investor's money sits in
    the money ledger under `@NAME`, and a CEO vote is the latest row (None: withdrawn)."""
    from payjudge.store import repo
    from payjudge.store.models import CeoVote, Seat, ShareEntry
    from payjudge.vocabulary import SeatKind, ShareKind

    with database.transaction() as s:
        game = _game("ex", state="active", rules=["EXCHANGE"])
        s.add(game)
        s.flush()
        s.add(Seat(game_id=game.id, kind=SeatKind.INVESTOR, investor_name="ALICE", joined_at=T0))

        def share(holder, amount, kind, price=None):
            s.add(
                ShareEntry(
                    game_id=game.id,
                    company="FRANCE",
                    holder=holder,
                    amount=amount,
                    kind=kind,
                    turn_seq=0,
                    phase="W1900X",
                    price=price,
                    created_at=T0,
                )
            )

        share("FRANCE", 10, ShareKind.ISSUE)
        share("FRANCE", -6, ShareKind.SALE, 3)
        share("@ALICE", 6, ShareKind.PURCHASE, 3)
        for power, kind, amount in (
            ("@ALICE", "capital", 50),
            ("@ALICE", "purchase", -18),
            ("FRANCE", "sale", 18),
        ):
            s.add(
                LedgerEntry(
                    game_id=game.id,
                    power=power,
                    turn_seq=0,
                    phase="W1900X",
                    kind=kind,
                    amount=amount,
                    created_at=T0,
                )
            )
        s.add(CeoVote(game_id=game.id, voter="ALICE", company="FRANCE", candidate="BOB", set_at=T0))
        s.add(CeoVote(game_id=game.id, voter="ALICE", company="FRANCE", candidate="ALICE", set_at=T0))
        s.add(CeoVote(game_id=game.id, voter="ALICE", company="ITALY", candidate="BOB", set_at=T0))
        s.add(CeoVote(game_id=game.id, voter="ALICE", company="ITALY", candidate=None, set_at=T0))
    with database.reading() as s:
        game = repo.game_by_name(s, "ex")
        assert game.seats[0].kind is SeatKind.INVESTOR and game.seats[0].investor_name == "ALICE"
        assert repo.holdings(s, game) == {("FRANCE", "FRANCE"): 4, ("FRANCE", "@ALICE"): 6}
        assert sum(e.amount for e in repo.share_entries(s, game, "FRANCE")) == 10  # shares conserved
        assert repo.balances(s, game) == {"@ALICE": 32, "FRANCE": 18}
        assert repo.ceo_votes(s, game) == {("ALICE", "FRANCE"): "ALICE", ("ALICE", "ITALY"): None}


def test_a_connection_stored_with_goes_back_to_transactions(database):
    """The autocommit of a store is the store's alone: the pool's connection it used
    (there is one, kept) then runs transactions that roll back whole."""
    one = Database(database.url)  # a pool of its own, used by nothing else
    try:
        SqlInbound(one).store_inbound(_mail("first@x"), source="smtp")
        autocommit = []
        with pytest.raises(RuntimeError), one.transaction() as s:
            autocommit.append(getattr(s.connection().connection.dbapi_connection, "autocommit", False))
            s.add(_game("ghost"))
            s.flush()
            raise RuntimeError("roll back")
        assert autocommit == [False]
        with one.reading() as s:
            assert s.scalar(select(Game).where(Game.name == "ghost")) is None
    finally:
        one.dispose()
