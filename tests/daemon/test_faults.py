"""Fault tests: the daemon killed with SIGKILL during a burst of mail and during a turn,
down across a deadline, two daemons on one PostgreSQL, the database unavailable."""

from __future__ import annotations

import smtplib
import threading
import time
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest

from . import script as g
from .builder import build_ready_games, set_deadlines
from .checks import duplicate_ledger_entries, processed_phases, turns_by_game
from .harness import JUDGE, make_mail, one_each, send_mail, wait_until

EVERYONE = sorted([g.address(p) for p in g.POWERS] + [g.MASTER])

pytestmark = [pytest.mark.servers, pytest.mark.timeout(180)]


class Burst:
    """Several SMTP clients sending a fixed set of messages; like an MTA, each retries a
    message (same Message-ID) after any failure until the judge answers 250."""

    def __init__(self, port: int, messages: list[tuple[str, str, bytes]], threads: int):
        self.port = port
        self.messages = messages
        self.accepted: set[str] = set()
        self.temporary: Counter[str] = Counter()  # failures that an MTA retries
        self.permanent: list[str] = []  # 5xx: must never happen
        self._lock = threading.Lock()
        self._threads = [
            threading.Thread(target=self._run, args=(messages[i::threads],), daemon=True)
            for i in range(threads)
        ]

    def start(self) -> Burst:
        for t in self._threads:
            t.start()
        return self

    def join(self, timeout: float) -> None:
        end = time.monotonic() + timeout
        for t in self._threads:
            t.join(max(0.1, end - time.monotonic()))
        assert not any(t.is_alive() for t in self._threads), "senders still busy"

    def _run(self, chunk) -> None:
        conn: smtplib.SMTP | None = None
        end = time.monotonic() + 120
        for msgid, sender, raw in chunk:
            while time.monotonic() < end:
                try:
                    if conn is None:
                        conn = smtplib.SMTP("127.0.0.1", self.port, timeout=30)
                    conn.sendmail(sender, [JUDGE], raw)
                except smtplib.SMTPResponseException as exc:
                    with self._lock:
                        if exc.smtp_code >= 500:
                            self.permanent.append(f"{msgid}: {exc.smtp_code} {exc.smtp_error!r}")
                            break
                        self.temporary[f"{exc.smtp_code}"] += 1
                    conn = _drop(conn)
                    time.sleep(0.05)
                except (OSError, smtplib.SMTPException) as exc:
                    with self._lock:
                        self.temporary[type(exc).__name__] += 1
                    conn = _drop(conn)
                    time.sleep(0.05)
                else:
                    with self._lock:
                        self.accepted.add(msgid)
                    break
        _drop(conn)


def _drop(conn):
    if conn is not None:
        try:
            conn.close()
        except OSError:
            pass
    return None


def _state(judge) -> str:
    inbound = judge.query("SELECT state, count(*) FROM inbound_message GROUP BY state")
    outbox = judge.query(
        "SELECT state, attempts, min(next_attempt_at), max(next_attempt_at), count(*) "
        "FROM outbox GROUP BY state, attempts"
    )
    return f"inbound {inbound}; outbox {outbox}; now {datetime.now(UTC)}"


def _quiet(judge, replies, timeout: float = 30.0) -> None:
    """Wait until the judge has nothing left to process or send."""
    try:
        wait_until(
            lambda: (
                judge.scalar("SELECT count(*) FROM inbound_message WHERE state = 'new'") == 0
                and judge.scalar("SELECT count(*) FROM outbox WHERE state = 'pending'") == 0
            ),
            timeout,
            "the inbox and the outbox to drain",
        )
    except TimeoutError:
        raise AssertionError(f"the judge is still busy: {_state(judge)}") from None
    # and nothing more comes for longer than a sweep (reminders follow a processed phase):
    # the sink wakes this wait at each arrival, and the silence is counted from the last
    sink = replies.sink
    with sink.handler.arrived:
        seen = len(sink.messages)
        while sink.handler.arrived.wait_for(lambda seen=seen: len(sink.messages) != seen, 1.5):
            seen = len(sink.messages)


def test_kill9_during_a_burst_loses_nothing_and_answers_once(judges, smtp_sink, replies, db_url):
    judge = judges(outbound=smtp_sink.url, db_url=db_url)
    judge.migrated()
    judge.start()
    messages, creates = [], {}
    for i in range(200):
        sender = f"burst{i % 25}@players.test"
        if i % 5 == 0:
            body = g.create_body(f"burst{i}")
        else:
            body = "HELP" if i % 2 else "LIST"
        msgid, raw = make_mail(sender, body, f"burst {i}")
        messages.append((msgid, sender, raw))
        if i % 5 == 0:
            creates[msgid] = f"burst{i}"
    burst = Burst(judge.port, messages, threads=8).start()
    kills = []
    for threshold in (50, 130):
        wait_until(
            lambda threshold=threshold: len(burst.accepted) >= threshold, 60, f"{threshold} messages accepted"
        )
        judge.kill()
        kills.append(len(burst.accepted))
        time.sleep(0.3)
        judge.start()
    burst.join(120)
    assert not burst.permanent
    assert len(burst.accepted) == 200
    ids = [m[0] for m in messages]
    try:
        wait_until(lambda: all(replies.answering(i) for i in ids), 60, "a reply to every message")
    except TimeoutError:
        missing = [i for i in ids if not replies.answering(i)]
        raise AssertionError(f"{len(missing)} messages unanswered; {_state(judge)}") from None
    _quiet(judge, replies)

    by_message = {i: replies.answering(i) for i in ids}
    distinct = {i: {m.message_id for m in found} for i, found in by_message.items()}
    assert all(len(v) == 1 for v in distinct.values()), {i: v for i, v in distinct.items() if len(v) != 1}
    resent = sum(len(found) - 1 for found in by_message.values())
    print(
        f"\nkilled at {kills} accepted; temporary failures seen by the senders: "
        f"{dict(burst.temporary)}; replies delivered again after a crash (same Message-ID): {resent}"
    )
    # nothing applied twice: every CREATE made its game once, and said so
    for msgid, name in creates.items():
        assert f"Game {name} has been created" in by_message[msgid][0].body
    assert judge.scalar("SELECT count(*) FROM game") == len(creates)
    assert judge.scalar("SELECT count(*) FROM inbound_message") == 200
    assert judge.scalar("SELECT count(*) FROM inbound_message WHERE state <> 'done'") == 0


def _kill_when(judge, sql: str, **params) -> threading.Event:
    """Watch the daemon's SQLite file from a thread (every millisecond) and kill the
    daemon the moment `sql` returns something true. The event is set once it is dead."""
    import sqlite3

    killed = threading.Event()
    watch = sqlite3.connect(judge.db_url[len("sqlite:///") :], isolation_level=None, check_same_thread=False)

    def run() -> None:
        try:
            end = time.monotonic() + 60
            while time.monotonic() < end:
                try:
                    if watch.execute(sql, params).fetchone()[0]:
                        break
                except sqlite3.OperationalError:  # not migrated yet, or busy
                    pass
                time.sleep(0.001)
            judge.kill()
        finally:
            watch.close()
            killed.set()

    threading.Thread(target=run, daemon=True).start()
    return killed


def _send_retrying(
    port_of, sender: str, body: str, message_id: str, timeout: float = 60.0
) -> threading.Thread:
    """Send in a thread as an MTA would: the same message again until it gets 250."""

    def run() -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                send_mail(port_of(), sender, body, message_id=message_id, timeout=10)
                return
            except (OSError, smtplib.SMTPException):
                time.sleep(0.05)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def _blocked_in_turn(judge, count: int, timeout: float = 30.0) -> None:
    """Until `count` daemon connections wait on a lock (PostgreSQL), inside a transaction."""
    database = judge.db_url.rsplit("/", 1)[1]
    wait_until(
        lambda: (
            judge.scalar(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = :d AND wait_event_type = 'Lock' "
                "AND state = 'active'",
                d=database,
            )
            >= count
        ),
        timeout,
        f"{count} turns blocked in the daemon",
    )


def _processed(judge) -> int:
    return judge.scalar("SELECT count(*) FROM turn WHERE status = 'processed'")


def test_kill9_during_a_turn_processes_it_once(judges, smtp_sink, replies, db_url):
    """Games processed by the clock (ready: early processing at the daemon's start) and
    one by the Master's PROCESS mail; the daemon is killed in the middle of processing.
    After the restart each phase has been processed once, with one results mail per
    recipient, one statement per power and the ledger written once.

    PostgreSQL: the test holds a lock on the ledger, so the daemon computes the turns and
    blocks writing them; it is killed while both transactions wait (certainly mid-turn).
    SQLite takes its write lock up front, so there the daemon is killed the moment the
    first phase is committed (the next is under way) and the moment the PROCESS mail is
    stored.

    On PostgreSQL the killed daemon's PROCESS mail is leased: the restarted daemon (which
    cannot tell a killed daemon from a live one on another machine) takes it up only once
    the lease has run out. The lease is cut from its 30 s default (`lease_seconds`) so that
    the test does not wait half a minute, and the test checks that it was waited for."""
    sqlite = db_url is None
    lease = 3.0
    judge = judges(outbound=smtp_sink.url, db_url=db_url, settle=0, settings={"lease_seconds": lease})
    judge.migrated()
    clocked = [f"turn{i}" for i in range(1, 7 if sqlite else 3)]
    build_ready_games(judge.db_url, clocked)
    # the Master of this game processes it by mail; Turkey waits, so the clock does not
    build_ready_games(judge.db_url, ["turnm"], sheets=False)
    sheets = {
        p: g.sheet_body(p, lines + (["SET WAIT"] if p == "TURKEY" else []), "turnm")
        for p, lines in g.SPRING_1901.items()
    }
    process_body = f"SIGNON Mturnm {g.MASTER_PASSWORD}\nPROCESS"
    process_id = make_mail(g.MASTER, process_body)[0]
    kills = []
    if sqlite:
        killed = _kill_when(judge, "SELECT count(*) FROM turn WHERE status = 'processed'")
        judge.start(wait=False)
        assert killed.wait(60)
        kills.append(f"{_processed(judge)} of {len(clocked)} clocked phases committed")
        judge.start()
        for power, body in sheets.items():
            send_mail(judge.port, g.address(power), body)
        killed = _kill_when(judge, "SELECT count(*) FROM inbound_message WHERE message_id = :m", m=process_id)
        sender = _send_retrying(lambda: judge.port, g.MASTER, process_body, process_id)
        assert killed.wait(60)
        state = judge.scalar("SELECT state FROM inbound_message WHERE message_id = :m", m=process_id)
        kills.append(f"PROCESS mail {state}")
        judge.start()
        sender.join(60)
    else:
        from sqlalchemy import create_engine, text

        engine = create_engine(judge.db_url)
        try:
            with engine.connect() as lock:
                # hold the ledger: the daemon gets in, computes each turn, blocks writing it
                lock.execute(text("LOCK TABLE ledger_entry IN EXCLUSIVE MODE"))
                judge.start()
                for power, body in sheets.items():
                    send_mail(judge.port, g.address(power), body)
                send_mail(judge.port, g.MASTER, process_body, message_id=process_id)
                _blocked_in_turn(judge, 2)  # the sweep's turn and the PROCESS mail's
                judge.kill()
                leased_until = judge.scalar(
                    "SELECT not_before FROM inbound_message WHERE message_id = :m", m=process_id
                )
                kills.append(f"{_processed(judge)} phases committed, 2 turns in progress")
                lock.rollback()
        finally:
            engine.dispose()
        judge.start()
    every = clocked + ["turnm"]
    wait_until(
        lambda: len(replies.with_subject("Diplomacy results turn")) >= len(every) * len(EVERYONE),
        60,
        "the results of every game",
    )
    replies.reply_to(process_id)
    _quiet(judge, replies)
    print(f"\nkilled: {'; '.join(kills)}")

    assert sorted(processed_phases(judge).values()) == [["S1901M"]] * len(every)
    for game_turns in turns_by_game(judge).values():
        assert [(seq, phase) for seq, phase, _ in game_turns] == [(1, "S1901M"), (2, "F1901M")]
    assert duplicate_ledger_entries(judge) == []
    for name in every:
        results = replies.with_subject(f"Diplomacy results {name} S1901M")
        assert one_each(results) == EVERYONE, [m.subject for m in results]
        statements = replies.with_subject(f"Payola bribe results {name} S1901M")
        assert sorted(m.rcpt for m in statements) == sorted((g.address(p),) for p in g.POWERS)
    answers = replies.answering(process_id)
    assert len({m.message_id for m in answers}) == 1
    assert "Spring 1901 Movement has been processed" in answers[0].body
    if not sqlite:  # taken up again once the killed attempt's lease had run out, not before
        done = judge.scalar("SELECT processed_at FROM inbound_message WHERE message_id = :m", m=process_id)
        attempts = judge.scalar("SELECT attempts FROM inbound_message WHERE message_id = :m", m=process_id)
        assert leased_until is not None and done >= leased_until, (done, leased_until)
        assert attempts == 2


def test_a_deadline_passed_while_the_daemon_was_down_is_processed_at_start(judges, smtp_sink, replies):
    # a long settle delay: ready games wait for their deadline, not for early processing
    judge = judges(outbound=smtp_sink.url, settle=3600)
    judge.migrated()
    build_ready_games(judge.db_url, ["down1", "down2"])
    judge.start()
    _quiet(judge, replies)  # the welcome mails; nothing is due yet
    assert processed_phases(judge) == {1: [], 2: []}
    judge.stop()
    # the deadlines pass while it is down (set in the past: no need to sleep until they do)
    set_deadlines(judge.db_url, ["down1", "down2"], datetime.now(UTC) - timedelta(seconds=1))
    started = time.monotonic()
    judge.start()
    for name in ("down1", "down2"):
        replies.wait_subject(f"Diplomacy results {name} S1901M", count=len(EVERYONE), timeout=30)
    took = time.monotonic() - started
    _quiet(judge, replies)
    print(f"\nprocessed {took:.2f} s after the start")
    assert processed_phases(judge) == {1: ["S1901M"], 2: ["S1901M"]}
    assert len(replies.with_subject("Diplomacy results down")) == 2 * len(EVERYONE)
    assert "processed at the deadline" in judge.log_text()


@pytest.mark.parametrize("db_url", ["postgresql"], indirect=True)
def test_two_daemons_on_one_postgresql_process_each_phase_once(judges, smtp_sink, replies, db_url):
    names = [f"duo{i}" for i in range(6)]
    first = judges(outbound=smtp_sink.url, db_url=db_url, settle=3600)
    first.migrated()
    build_ready_games(db_url, names)
    second = judges(outbound=smtp_sink.url, db_url=db_url, settle=3600)
    first.start()
    second.start()
    _quiet(first, replies)
    welcomes = [m for m in replies.with_subject("Diplomacy game duo") if "starts: you are" in m.subject]
    due = set_deadlines(db_url, names, datetime.now(UTC) + timedelta(seconds=2), timedelta(milliseconds=300))
    wait_until(
        lambda: len(replies.with_subject("Diplomacy results duo")) >= len(names) * len(EVERYONE),
        40,
        "every game's results",
    )
    _quiet(first, replies)
    assert sorted(processed_phases(first).values()) == [["S1901M"]] * len(names)
    for game_turns in turns_by_game(first).values():
        assert [seq for seq, _, _ in game_turns] == [1, 2]
    assert duplicate_ledger_entries(first) == []
    sent = replies.all()
    ids = Counter(m.message_id for m in sent)
    assert max(ids.values()) == 1, "a mail was sent twice"
    for name in names:
        assert one_each(replies.with_subject(f"Diplomacy results {name} S1901M")) == EVERYONE
        assert len(replies.with_subject(f"Payola bribe results {name} S1901M")) == 7
    assert len(welcomes) == 7 * len(names)
    late = [
        (processed - due[name]).total_seconds()
        for name, processed in first.query(
            "SELECT g.name, t.processed_at FROM turn t JOIN game g ON g.id = t.game_id "
            "WHERE t.status = 'processed'"
        )
    ]
    by_daemon = [j.log_text().count("processed at the deadline") for j in (first, second)]
    print(f"\nphases processed by each daemon: {by_daemon}; lateness {min(late):.2f}..{max(late):.2f} s")
    assert sum(by_daemon) == len(names)
    assert max(late) < 2.0


def test_database_unavailable_answers_451_then_recovers(judges, smtp_sink, replies):
    """PostgreSQL stopped under a running daemon: the listener answers 451 (the sender's
    MTA keeps the mail and retries), and the resent message is processed once it is back."""
    from .pgserver import PrivatePostgres

    try:
        pg = PrivatePostgres().start()
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    try:
        judge = judges(outbound=smtp_sink.url, db_url=pg.create_database("judge"))
        judge.upgrade()
        judge.start()
        replies.reply_to(send_mail(judge.port, "before@players.test", "HELP"))
        pg.stop()
        msgid, raw = make_mail("during@players.test", "LIST", "while the database is down")
        with (
            pytest.raises(smtplib.SMTPDataError) as refused,
            smtplib.SMTP("127.0.0.1", judge.port, timeout=60) as smtp,
        ):
            smtp.sendmail("during@players.test", [JUDGE], raw)
        assert refused.value.smtp_code == 451
        assert b"Temporary failure" in refused.value.smtp_error
        assert b"Error" not in refused.value.smtp_error  # no exception text for the client
        time.sleep(1.5)  # sweeps and the sender fail meanwhile; the daemon stays up
        assert judge.running
        pg.start()
        # the sending MTA retries the same message
        with smtplib.SMTP("127.0.0.1", judge.port, timeout=60) as smtp:
            smtp.sendmail("during@players.test", [JUDGE], raw)
        reply = replies.reply_to(msgid, timeout=40)
        assert reply.subject == "Re: while the database is down"
        _quiet(judge, replies)
        assert len(replies.answering(msgid)) == 1
        assert judge.scalar("SELECT count(*) FROM inbound_message") == 2
    finally:
        pg.remove()


def test_sqlite_locked_answers_451_then_recovers(judges, smtp_sink, replies):
    """Another process holds the SQLite file's write lock for longer than the daemon's
    busy timeout: 451, and the message resent after the lock is gone is processed. The
    timeout is cut from its 30 s default (`sqlite_busy_seconds`) so that the test does not
    spend half a minute waiting for it: the path to the 451 is the same."""
    import sqlite3

    judge = judges(outbound=smtp_sink.url, settings={"sqlite_busy_seconds": 2.0})
    judge.migrated()
    judge.start()
    replies.reply_to(send_mail(judge.port, "before@players.test", "HELP"))
    path = judge.db_url[len("sqlite:///") :]
    locker = sqlite3.connect(path, isolation_level=None, timeout=30)
    try:
        locker.execute("BEGIN EXCLUSIVE")
        msgid, raw = make_mail("during@players.test", "LIST", "while the file is locked")
        started = time.monotonic()
        with (
            pytest.raises(smtplib.SMTPDataError) as refused,
            smtplib.SMTP("127.0.0.1", judge.port, timeout=120) as smtp,
        ):
            smtp.sendmail("during@players.test", [JUDGE], raw)
        waited = time.monotonic() - started
        assert refused.value.smtp_code == 451
        assert waited >= 1.5  # the daemon waited for the lock as configured before it gave up
        assert judge.running
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    print(f"\n451 after {waited:.1f} s (the daemon's SQLite busy timeout)")
    with smtplib.SMTP("127.0.0.1", judge.port, timeout=60) as smtp:
        smtp.sendmail("during@players.test", [JUDGE], raw)
    assert replies.reply_to(msgid, timeout=40).subject == "Re: while the file is locked"
    _quiet(judge, replies)
    assert len(replies.answering(msgid)) == 1


def test_a_message_a_killed_daemon_was_reading_is_taken_at_once_after_the_restart(judges, smtp_sink, replies):
    """A processor counts a message's attempt and leases it for 30 s before it reads it
    (so that a second daemon on one PostgreSQL leaves it alone). A SQLite file has one
    daemon: after a kill -9 mid-message its lease holds nobody back, and the restarted
    daemon takes the message at once, not when the lease runs out (it used to wait the 30 s,
    which a test under load once ran out of)."""
    import sqlite3

    judge = judges(outbound=smtp_sink.url, settle=3600)
    judge.migrated()
    build_ready_games(judge.db_url, ["lease1"], sheets=False)
    message_id, raw = make_mail(g.MASTER, f"SIGNON Mlease1 {g.MASTER_PASSWORD}\nSUMMARY lease1")
    path = judge.db_url[len("sqlite:///") :]
    leased = (datetime.now(UTC) + timedelta(seconds=30)).strftime("%Y-%m-%d %H:%M:%S.%f")
    with sqlite3.connect(path) as conn:  # as a daemon killed while reading it leaves it
        conn.execute(
            "INSERT INTO inbound_message (message_id, source, sender, raw, received_at, state,"
            " attempts, redacted, not_before) VALUES (?, 'smtp', ?, ?, ?, 'new', 1, 0, ?)",
            (message_id, g.MASTER, raw, datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S.%f"), leased),
        )
    started = time.monotonic()
    judge.start()
    reply = replies.reply_to(message_id, timeout=25)
    assert "lease1" in reply.body
    assert time.monotonic() - started < 25
