"""Work per message that must not grow with what the store keeps for good: a sender's
history. Every message processed asks when its sender's latest answers were (the rate
limit, in the claim itself); the index on (sender, processed_at) bounds that question by
the last hour's answers (migration 0005)."""

from __future__ import annotations

from datetime import timedelta

from alembic import command
from sqlalchemy import event, inspect

from payjudge.store import repo
from payjudge.store.db import alembic_config, make_engine, upgrade

from .history import NOW, add_history, new_message


def _claim_and_plan(database, inbound_id: int):
    """Claim the message as the processor does, and the database's plan for the very
    statement (and parameters) the claim ran."""
    ran: list[tuple[str, object]] = []

    def capture(conn, cursor, statement, parameters, context, executemany):
        ran.append((statement, parameters))

    event.listen(database.engine, "before_cursor_execute", capture)
    try:
        with database.transaction() as s:
            since = NOW - timedelta(hours=1)
            row, nth = repo.claim_inbound_counting(s, inbound_id, NOW, since=since, limit=60)
            statement, parameters = next((st, p) for st, p in ran if "FROM inbound_message AS claimed" in st)
            cursor = s.connection().connection.cursor()
            if database.engine.dialect.name == "sqlite":
                cursor.execute("EXPLAIN QUERY PLAN " + statement, parameters)
                plan = "\n".join(str(r[-1]) for r in cursor.fetchall())
            else:
                cursor.execute("ANALYZE inbound_message")
                cursor.execute("SET LOCAL enable_seqscan = off")  # (a small table: the plan a big one gets)
                cursor.execute("EXPLAIN " + statement, parameters)
                plan = "\n".join(str(r[0]) for r in cursor.fetchall())
            cursor.close()
            return row, nth, plan
    finally:
        event.remove(database.engine, "before_cursor_execute", capture)


def test_the_index_on_sender_and_processing_time(database):
    found = inspect(database.engine).get_indexes("inbound_message")
    indexes = {ix["name"]: ix["column_names"] for ix in found}
    assert indexes["ix_inbound_message_sender_processed"] == ["sender", "processed_at"]
    assert "ix_inbound_message_sender" not in indexes  # (the new one serves its queries)


def test_the_claim_reads_the_last_hour_of_its_sender_not_all_of_it(database):
    add_history(database, 0, 500)
    new = new_message(database)
    row, nth, plan = _claim_and_plan(database, new)
    assert row is not None and row.id == new and nth is None  # (the history is a year old)
    assert "ix_inbound_message_sender_processed" in plan, plan
    if database.engine.dialect.name == "sqlite":
        # the answers come in the index's order: nothing is sorted
        assert "TEMP B-TREE" not in plan, plan


def test_the_migration_goes_down_and_up_again(tmp_path):
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    upgrade(url)
    command.downgrade(alembic_config(url), "0004_exchange")
    assert _indexes(url) >= {"ix_inbound_message_sender"}
    assert "ix_inbound_message_sender_processed" not in _indexes(url)
    upgrade(url)
    assert "ix_inbound_message_sender_processed" in _indexes(url)
    assert "ix_inbound_message_sender" not in _indexes(url)


def _indexes(url: str) -> set[str]:
    engine = make_engine(url)
    try:
        return {ix["name"] for ix in inspect(engine).get_indexes("inbound_message")}
    finally:
        engine.dispose()
