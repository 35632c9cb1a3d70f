"""The processor works through waiting messages in batches: one transaction (one commit)
per batch, each message all or nothing within it (issue 14, item 4). Through the real
store, processor and templates, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from sqlalchemy import event, select
from sqlalchemy.exc import IntegrityError, OperationalError

from payjudge.config import Config
from payjudge.service import processor
from payjudge.store.mailbox import SqlInbound
from payjudge.store.models import InboundMessage

from .judge import TestJudge
from .test_game import addr, signon, snapshot, start_game
from .test_hardening import _nested, default_recursion_limit  # noqa: F401  (a fixture)

pytestmark = [pytest.mark.timeout(120)]


def _count_writing_commits(database) -> list[int]:
    """A list whose one number counts the commits of transactions that wrote something."""
    count = [0]

    @event.listens_for(database.engine, "before_cursor_execute")
    def _statement(conn, cursor, statement, parameters, context, executemany):
        if statement.lstrip().split(" ", 1)[0].upper() in ("INSERT", "UPDATE", "DELETE"):
            conn.info["wrote"] = True

    @event.listens_for(database.engine, "commit")
    def _commit(conn):
        if conn.info.pop("wrote", False):
            count[0] += 1

    return count


def _four_messages(database) -> TestJudge:
    """A game and four messages waiting: an order taken, a message refused whole, one
    that crashes the parser, an order taken."""
    judge = TestJudge(database)
    start_game(judge)
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\nTRANSFER 5 TO ENGLAND\n", process=False)
    judge.send(addr("GERMANY"), f"{signon('GERMANY')}\nTRANSFER 5 TO ENGLAND\nFROBNICATE\n", process=False)
    SqlInbound(database, judge.clock).store_inbound(_nested(1000), source="smtp")
    judge.send(addr("ITALY"), f"{signon('ITALY')}\nTRANSFER 3 TO ENGLAND\n", process=False)
    return judge


def _each_kept_its_outcome(judge: TestJudge, database) -> None:
    _, balances, _, _ = snapshot(judge)
    assert (balances["FRANCE"], balances["GERMANY"], balances["ITALY"]) == (43, 48, 45)
    assert balances["ENGLAND"] == 48 + 5 + 3
    assert "Your message was processed" in judge.last_reply(addr("FRANCE"))
    assert "Your message was NOT processed" in judge.last_reply(addr("GERMANY"))
    assert "Your message was processed" in judge.last_reply(addr("ITALY"))
    [told] = judge.inbox("deep@example.org")
    assert "set aside" in told.body
    with database.reading() as s:
        rows = s.scalars(select(InboundMessage).order_by(InboundMessage.id.desc()).limit(4)).all()
        states = [(r.sender, r.state, r.attempts) for r in reversed(rows)]
    assert states == [
        (addr("FRANCE"), "done", 1),
        # each attempt counted before the message was read, refused or crashing alike
        (addr("GERMANY"), "done", 1),
        ("deep@example.org", "quarantined", 1),
        (addr("ITALY"), "done", 1),
    ]


def _count_savepoints(database) -> list[int]:
    count = [0]

    @event.listens_for(database.engine, "before_cursor_execute")
    def _statement(conn, cursor, statement, parameters, context, executemany):
        if statement.lstrip().upper().startswith("SAVEPOINT"):
            count[0] += 1

    return count


def _count_claims(monkeypatch) -> list[int]:
    """A list whose one number counts the runs of a message's work."""
    runs = [0]
    real = processor.repo.claim_inbound_counting

    def counting(*args, **kwargs):
        runs[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(processor.repo, "claim_inbound_counting", counting)
    return runs


def test_a_batch_that_goes_through_is_one_commit_without_savepoints(database, monkeypatch):
    # a batch also ends after a time (at once on SQLite), which a slow machine could
    # reach: not here
    monkeypatch.setattr(processor, "BATCH_SECONDS", {"sqlite": 3600.0, "postgresql": 3600.0})
    judge = TestJudge(database)
    start_game(judge)
    for power, amount in (("FRANCE", 5), ("GERMANY", 4), ("ITALY", 3)):
        judge.send(addr(power), f"{signon(power)}\nTRANSFER {amount} TO ENGLAND\n", process=False)
    writes, savepoints, runs = (
        _count_writing_commits(database),
        _count_savepoints(database),
        _count_claims(monkeypatch),
    )
    judge.process()
    # the attempts counted (before the messages are read: issue 26), then the batch
    assert (writes, savepoints, runs) == ([2], [0], [3])
    _, balances, _, _ = snapshot(judge)
    assert (balances["FRANCE"], balances["GERMANY"], balances["ITALY"], balances["ENGLAND"]) == (
        43,
        44,
        45,
        60,
    )


@pytest.mark.usefixtures("default_recursion_limit")
def test_a_refused_message_costs_those_before_it_a_second_run(database, monkeypatch):
    """The batch is rolled back at the refusal; the message before it goes through again in
    a transaction of its own, the refused one heads the next batch and its reply is
    written alone, likewise the quarantine; the last message makes a batch of its own."""
    monkeypatch.setattr(processor, "BATCH_SECONDS", {"sqlite": 3600.0, "postgresql": 3600.0})
    judge = _four_messages(database)
    writes, savepoints, runs = (
        _count_writing_commits(database),
        _count_savepoints(database),
        _count_claims(monkeypatch),
    )
    judge.process()
    # France twice, Germany twice (refused in the batch, then alone), the bomb once (it
    # crashes while being read, alone at the head), Italy once
    assert runs == [6]
    # the attempts counted; France; Germany's reply; the quarantine (the bomb crashes
    # while it is read, before any batch); Italy
    assert writes == [5]
    assert savepoints == [2]  # the refusal's and the quarantine's (`_undone`), none for the work
    _each_kept_its_outcome(judge, database)


@pytest.mark.usefixtures("default_recursion_limit")
def test_a_batch_of_one_needs_no_savepoint_and_keeps_each_outcome(database, monkeypatch):
    """Where a batch is one message (SQLite's default; here on both databases) the
    message's work has no savepoint of its own: a refused or crashing message's
    transaction is rolled back whole, and its refusal or quarantine written in the next."""
    monkeypatch.setattr(processor, "BATCH_SECONDS", {"sqlite": 0.0, "postgresql": 0.0})
    judge = _four_messages(database)
    writes = _count_writing_commits(database)
    savepoints = [0]

    @event.listens_for(database.engine, "before_cursor_execute")
    def _statement(conn, cursor, statement, parameters, context, executemany):
        if statement.lstrip().upper().startswith("SAVEPOINT"):
            savepoints[0] += 1

    judge.process()
    assert writes == [8]  # per message, its attempt counted, then its work
    assert savepoints == [2]  # the refusal's and the quarantine's, none for the work
    _each_kept_its_outcome(judge, database)


def test_a_batch_of_one_whose_writes_fail_is_quarantined(database, monkeypatch):
    """Without a savepoint, the work's writes are flushed before the commit: a write that
    fails is the message's failure (it is quarantined), not the database's (which would
    leave the message waiting, to fail again at every pass)."""
    monkeypatch.setattr(processor, "BATCH_SECONDS", {"sqlite": 0.0, "postgresql": 0.0})
    judge = TestJudge(database)
    start_game(judge)
    real = processor.execute

    def writes_a_bad_row(ctx, script):
        real(ctx, script)
        ctx.session.add(InboundMessage())  # (no raw, no state: refused by the database)

    monkeypatch.setattr(processor, "execute", writes_a_bad_row)
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\nTRANSFER 5 TO ENGLAND\n")
    _, balances, _, _ = snapshot(judge)
    assert balances["FRANCE"] == 48
    assert "set aside" in judge.last_reply(addr("FRANCE"))
    with database.reading() as s:
        row = s.scalars(select(InboundMessage).order_by(InboundMessage.id.desc()).limit(1)).one()
        assert (row.state, row.attempts) == ("quarantined", 1)  # counted before it was read
        assert "IntegrityError" in (row.error or "")


class _Deadlock(Exception):
    sqlstate = "40P01"  # as psycopg's DeadlockDetected carries it


@pytest.mark.parametrize(
    "failure",
    [
        OperationalError(
            "SELECT 1", {}, Exception("server closed the connection"), connection_invalidated=True
        ),
        OperationalError("UPDATE game", {}, _Deadlock("deadlock detected")),
        OperationalError("UPDATE game", {}, Exception("database is locked")),
    ],
    ids=["lost connection", "deadlock", "locked"],
)
def test_a_failure_of_the_database_is_not_the_messages(database, monkeypatch, failure):
    """A connection lost, a deadlock's victim or a lock not had during a message's work
    leave the message waiting for the next pass (the daemon logs and retries): it is not
    quarantined for the database's failure."""
    judge = TestJudge(database)
    start_game(judge)
    real = processor.execute

    def fails(ctx, script):
        raise failure

    monkeypatch.setattr(processor, "execute", fails)
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\nTRANSFER 5 TO ENGLAND\n", process=False)
    with pytest.raises(OperationalError):
        judge.process()
    with database.reading() as s:
        row = s.scalars(select(InboundMessage).order_by(InboundMessage.id.desc()).limit(1)).one()
        assert (row.state, row.attempts, row.error) == ("new", 0, None)
    monkeypatch.setattr(processor, "execute", real)
    judge.process()
    assert "Your message was processed" in judge.last_reply(addr("FRANCE"))
    _, balances, _, _ = snapshot(judge)
    assert balances["FRANCE"] == 43


def test_a_statements_failure_is_the_messages(database, monkeypatch):
    """Any other database error in a message's work (here a constraint) is the message's:
    it is quarantined, its sender told, and the next message goes on."""
    judge = TestJudge(database)
    start_game(judge)
    real = processor.execute

    def fails(ctx, script):
        raise IntegrityError("INSERT INTO seat", {}, Exception("UNIQUE constraint failed"))

    monkeypatch.setattr(processor, "execute", fails)
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\nTRANSFER 5 TO ENGLAND\n")
    assert "set aside" in judge.last_reply(addr("FRANCE"))
    monkeypatch.setattr(processor, "execute", real)
    judge.send(addr("ITALY"), f"{signon('ITALY')}\nTRANSFER 3 TO ENGLAND\n")
    assert "Your message was processed" in judge.last_reply(addr("ITALY"))


# -- the writes a batch holds to its end -----------------------------------------------------


def _count_statements(database, prefix: str) -> list[int]:
    count = [0]

    @event.listens_for(database.engine, "before_cursor_execute")
    def _statement(conn, cursor, statement, parameters, context, executemany):
        if " ".join(statement.split()).upper().startswith(prefix):
            count[0] += 1

    return count


def test_a_batch_writes_its_replies_and_marks_in_one_statement_each(database, monkeypatch):
    """At a batch's end, in its transaction: its mail is one INSERT (an executemany) and
    its messages are marked done by one executemany per set of columns (two: with the
    redacted text of those that held a password, without)."""
    monkeypatch.setattr(processor, "BATCH_SECONDS", {"sqlite": 3600.0, "postgresql": 3600.0})
    judge = TestJudge(database)
    start_game(judge)
    for power, amount in (("FRANCE", 5), ("GERMANY", 4), ("ITALY", 3)):
        judge.send(addr(power), f"{signon(power)}\nTRANSFER {amount} TO ENGLAND\n", process=False)
    judge.send("reader@example.org", "HELP\n", process=False)
    writes = _count_writing_commits(database)
    inserts = _count_statements(database, "INSERT INTO OUTBOX")
    marks = _count_statements(database, "UPDATE INBOUND_MESSAGE")
    judge.process()
    # (and one commit and one UPDATE before: the attempts counted)
    assert (writes, inserts, marks) == ([2], [1], [3])
    for power in ("FRANCE", "GERMANY", "ITALY"):
        assert "Your message was processed" in judge.last_reply(addr(power))
    assert "HELP" in judge.last_reply("reader@example.org")
    with database.reading() as s:
        rows = s.scalars(select(InboundMessage).order_by(InboundMessage.id.desc()).limit(4)).all()
    assert all((r.state, r.attempts, r.redacted) == ("done", 1, True) for r in rows)
    assert not any(b"Ipay" in r.raw for r in rows)  # the passwords redacted in the held marks


def _lists_in_one_batch(database, monkeypatch, *, limit: int, lists: int) -> tuple[TestJudge, str]:
    """A started game whose judge answers `limit` messages an hour per sender, and
    France's `lists` LISTs waiting, to be processed in one batch."""
    monkeypatch.setattr(processor, "BATCH_SECONDS", {"sqlite": 3600.0, "postgresql": 3600.0})
    judge = TestJudge(database)
    start_game(judge)
    judge.config = Config(
        judge_address=judge.config.judge_address, settle_seconds=0, rate_limit_per_hour=limit
    )
    france = addr("FRANCE")
    judge.inbox(france)
    for _ in range(lists):
        judge.send(france, "LIST\n", process=False)
    return judge, france


def test_the_rate_limit_counts_the_answers_held_in_the_batch(database, monkeypatch):
    """A sender's earlier answers in the same batch are not in the table yet; they count
    all the same: with a limit of 5, the JOIN and four of eight LISTs in one batch are
    answered, the other four wait."""
    judge, france = _lists_in_one_batch(database, monkeypatch, limit=5, lists=8)
    runs = _count_claims(monkeypatch)
    judge.process()
    assert len(judge.inbox(france)) == 4
    assert runs[0] >= 8
    with database.reading() as s:
        rows = s.scalars(select(InboundMessage).where(InboundMessage.sender == france)).all()
    waiting = [r for r in rows if r.state == "new"]
    assert len(waiting) == 4 and all(r.not_before is not None for r in waiting)


@pytest.mark.usefixtures("default_recursion_limit")
def test_held_writes_that_fail_are_told_apart_message_by_message(database, monkeypatch):
    """Should the writes held to a batch's end fail, no one message can be blamed: the
    batch is rolled back, its messages go again one at a time, and the one whose own
    writes fail is quarantined; the others keep their outcome."""
    monkeypatch.setattr(processor, "BATCH_SECONDS", {"sqlite": 3600.0, "postgresql": 3600.0})
    judge = TestJudge(database)
    start_game(judge)
    germany = addr("GERMANY")
    real = processor._done

    def bad_mark_for_germany(s, held, row, now, mail, **values):
        real(s, held, row, now, mail, **values)
        if row.sender == germany:
            held.done[-1]["state"] = None  # refused by the database (NOT NULL)

    monkeypatch.setattr(processor, "_done", bad_mark_for_germany)
    for power, amount in (("FRANCE", 5), ("GERMANY", 4), ("ITALY", 3)):
        judge.send(addr(power), f"{signon(power)}\nTRANSFER {amount} TO ENGLAND\n", process=False)
    judge.process()
    _, balances, _, _ = snapshot(judge)
    assert (balances["FRANCE"], balances["GERMANY"], balances["ITALY"]) == (43, 48, 45)
    assert "Your message was processed" in judge.last_reply(addr("FRANCE"))
    assert "set aside" in judge.last_reply(germany)
    assert "Your message was processed" in judge.last_reply(addr("ITALY"))
    with database.reading() as s:
        rows = s.scalars(select(InboundMessage).order_by(InboundMessage.id.desc()).limit(3)).all()
        states = [(r.sender, r.state) for r in reversed(rows)]
    assert states == [(addr("FRANCE"), "done"), (germany, "quarantined"), (addr("ITALY"), "done")]


def test_a_rate_limit_of_zero_is_no_limit(database, monkeypatch):
    """`rate_limit_per_hour = 0` answers everything (it once quarantined every message)."""
    judge, france = _lists_in_one_batch(database, monkeypatch, limit=0, lists=3)
    judge.send(france, f"{signon('FRANCE')}\nBALANCE\n", process=False)
    judge.process()
    replies = judge.inbox(france)
    assert len(replies) == 4 and all("was processed" in m.body or "LIST" in m.body for m in replies)
    with database.reading() as s:
        assert not s.scalars(select(InboundMessage).where(InboundMessage.state != "done")).all()
