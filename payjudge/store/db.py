"""The database: engine set-up for SQLite and PostgreSQL, transactions, migrations."""

from __future__ import annotations

import errno
import fcntl
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

log = logging.getLogger("payjudge.store")


def check_url(url: str) -> None:
    """Raise ValueError unless SQLAlchemy reads `url` and has its dialect. The message
    never quotes the URL (it may hold a password)."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise ValueError("not a database URL (dialect+driver://user:password@host/name)") from None
    try:
        parsed.get_dialect()
    except ArgumentError:  # NoSuchModuleError: an unknown dialect or driver
        raise ValueError(f"no database driver for {parsed.drivername!r}") from None


def make_engine(url: str, *, busy_seconds: float = 30.0) -> Engine:
    """The engine of `url`; on SQLite a writer waits `busy_seconds` for the write lock."""
    check_url(url)
    if url.startswith("sqlite"):
        # hide_parameters: a failed statement's error (logged, stored with a quarantined
        # message) never shows the values, which may be a whole mail with its password
        engine = create_engine(
            url,
            connect_args={"timeout": busy_seconds, "isolation_level": None, "check_same_thread": False},
            hide_parameters=True,
        )
        busy_ms = round(busy_seconds * 1000)

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn, _record):  # pragma: no cover - exercised by every test
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute(f"PRAGMA busy_timeout={busy_ms}")
            cur.close()

        @event.listens_for(engine, "begin")
        def _begin(conn):
            # Take the write lock at the start: a read that later writes would otherwise
            # fail with "database is locked" when another writer got in between. A
            # `Database.reading()` session begins deferred: in WAL mode a reader neither
            # waits for the writer nor holds it up.
            read_only = conn.get_execution_options().get(_READ_ONLY)
            conn.exec_driver_sql("BEGIN" if read_only else "BEGIN IMMEDIATE")

        return engine
    # Ten kept connections: the daemon's threads (the listener's stores, up to one per SMTP
    # client at once, the outbox sender, the deadline clock) each hold one while they
    # work; with fewer, a burst of mail opened and closed a connection (a new server
    # process) per message beyond the fifth.
    return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=10, hide_parameters=True)


_READ_ONLY = "payjudge_read_only"


def transient(exc: BaseException) -> bool:
    """Whether `exc` is the database's failure, which a later attempt may get past, rather
    than the statement's: the connection lost (a restart, the network), the transaction
    chosen as a deadlock's victim or failed for serialization (SQLSTATE class 40: the
    server rolled it back), SQLite's write lock not had within the busy timeout."""
    if not isinstance(exc, DBAPIError):
        return False
    if exc.connection_invalidated:
        return True
    if str(getattr(exc.orig, "sqlstate", "") or "").startswith("40"):  # psycopg's SQLSTATE
        return True
    return isinstance(exc, OperationalError) and "database is locked" in str(exc.orig)


class _WriterGate:
    """SQLite's write lock taken in turn by the processes on one database file, the
    urgent writes first, through two locks on a file beside it (`<database>.writers`):
    byte 0 is the gate, byte 1 the turn to write.

    A process's urgent writer (storing inbound mail) holds the gate while it waits for the
    turn; the others pass the gate before they wait for the turn, so while an urgent
    writer waits nobody else gets in line ahead of it. Nobody waits for the gate while
    holding the turn, so the two cannot deadlock. A process's own turnstile serializes
    its threads first, so at most one thread per process is ever here; POSIX record locks
    belong to the process, and a process killed lets go of them. The gate only orders
    the writers: SQLite's own lock still guards the data (every write transaction begins
    IMMEDIATE), so a gate that fails costs waiting, never a write.

    A waiter tries again after 50 µs at first, then every `POLL_SECONDS` at most, where
    SQLite's busy handler sleeps up to 100 ms between tries; after `WAIT_SECONDS` (a
    process that holds the turn and hangs) it gives up as SQLite would, with "database is
    locked", which the caller takes for the database's failure (a 451, or a message that
    waits for the next pass)."""

    GATE, TURN = 0, 1
    POLL_SECONDS = 0.0002
    WAIT_SECONDS = 30.0

    def __init__(self, database: Path):
        self._database = database
        self._fd: int | None = None  # opened at the first turn taken
        self._warned = False

    def take(self, urgent: bool) -> None:
        try:
            fd = self._open()
        except OSError as exc:  # (not ours to write, say): SQLite's busy handler alone
            if not self._warned:
                self._warned = True
                log.warning(
                    "the writers' lock file cannot be opened, SQLite's busy handler waits instead: %s", exc
                )
            return
        until = time.monotonic() + self.WAIT_SECONDS
        self._lock(fd, self.GATE, until)
        try:
            if urgent:
                self._lock(fd, self.TURN, until)
        finally:
            fcntl.lockf(fd, fcntl.LOCK_UN, 1, self.GATE)
        if not urgent:
            self._lock(fd, self.TURN, until)

    def give(self) -> None:
        if self._fd is not None:
            fcntl.lockf(self._fd, fcntl.LOCK_UN, 1, self.TURN)

    def close(self) -> None:
        """Close the lock file (the last `Database` on the file was disposed of); a turn
        taken later opens it again."""
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)

    def _open(self) -> int:
        if self._fd is None:
            # made with the database's own permissions, as SQLite makes its -wal and -shm
            try:
                mode = self._database.stat().st_mode & 0o666
            except OSError:
                mode = 0o644
            path = self._database.with_name(self._database.name + ".writers")
            self._fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, mode)
        return self._fd

    @staticmethod
    def _lock(fd: int, byte: int, until: float) -> None:
        pause = 0.00005
        while True:
            try:
                fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, byte)
                return
            except OSError as exc:
                if exc.errno not in (errno.EAGAIN, errno.EACCES):
                    raise
            if time.monotonic() >= until:
                raise OperationalError(
                    "BEGIN IMMEDIATE", None, sqlite3.OperationalError("database is locked")
                )
            time.sleep(pause)
            pause = min(2 * pause, _WriterGate.POLL_SECONDS)


class _Turnstile:
    """The threads of one process take SQLite's write lock in the order they asked, the
    short urgent writes first (storing inbound mail, which the sender waits for).

    SQLite's busy handler sleeps between tries (up to 100 ms at a time), so a thread that
    writes in a loop, like the processor working through a backlog, takes the lock again
    and again while the listener's one short insert sleeps: mail would wait to be
    accepted. Re-entrant within a thread. With a `gate` (a database file) the thread
    whose turn it is takes the processes' turn too before it writes."""

    def __init__(self, gate: _WriterGate | None = None) -> None:
        self._gate = gate
        self._cond = threading.Condition()
        self._next = [0, 0]  # tickets given: [normal, urgent]
        self._serving = [0, 0]  # the ticket each queue serves next
        self._owner: int | None = None
        self._owner_queue = 0
        self._depth = 0

    @contextmanager
    def turn(self, urgent: bool = False) -> Iterator[None]:
        me = threading.get_ident()
        first = False
        with self._cond:
            if self._owner == me:
                self._depth += 1
            else:
                queue = 1 if urgent else 0
                ticket = self._next[queue]
                self._next[queue] += 1
                while not (
                    self._owner is None
                    and self._serving[queue] == ticket
                    and (urgent or self._serving[1] == self._next[1])
                ):
                    self._cond.wait()
                self._owner, self._owner_queue, self._depth = me, queue, 1
                first = True
        if first and self._gate is not None:
            try:
                self._gate.take(urgent)
            except BaseException:
                self._leave(gated=False)
                raise
        try:
            yield
        finally:
            self._leave()

    def close(self) -> None:
        """Close the processes' gate (its lock file), if there is one."""
        if self._gate is not None:
            self._gate.close()

    def _leave(self, gated: bool = True) -> None:
        with self._cond:
            self._depth -= 1
            if self._depth == 0:
                if self._gate is not None and gated:
                    self._gate.give()
                self._serving[self._owner_queue] += 1
                self._owner = None
                self._cond.notify_all()


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite database URL (None: PostgreSQL, or a database in memory)."""
    parsed = make_url(url)
    name = parsed.database
    if parsed.get_backend_name() != "sqlite" or not name or name == ":memory:" or name.startswith("file:"):
        return None
    return Path(name).resolve()


_turnstiles: dict[Path, tuple[_Turnstile, int]] = {}  # file → its turnstile, Databases using it
_turnstiles_lock = threading.Lock()


def _sqlite_turnstile(url: str) -> tuple[_Turnstile, Path | None]:
    """The turnstile of a SQLite database, and its file: one per file in a process (every
    `Database` on the file shares it, and with it the processes' gate, until the last one
    is disposed of); a database in memory has its own, without a gate."""
    path = sqlite_file(url)
    if path is None:
        return _Turnstile(), None
    with _turnstiles_lock:
        turnstile, users = _turnstiles.get(path) or (_Turnstile(_WriterGate(path)), 0)
        _turnstiles[path] = (turnstile, users + 1)
        return turnstile, path


def _release_turnstile(path: Path) -> None:
    with _turnstiles_lock:
        turnstile, users = _turnstiles[path]
        if users > 1:
            _turnstiles[path] = (turnstile, users - 1)
            return
        del _turnstiles[path]
    turnstile.close()


@contextmanager
def _begun(sessions: sessionmaker[Session]) -> Iterator[Session]:
    """A new session in its transaction, closed whatever happens (committed if no error)."""
    session = sessions()
    try:
        with session.begin():
            yield session
    finally:
        session.close()


class Database:
    """One per process: owns the engine; each unit of work is one transaction."""

    def __init__(self, url: str, *, busy_seconds: float = 30.0):
        self.url = url
        self.engine = make_engine(url, busy_seconds=busy_seconds)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._readers = sessionmaker(
            self.engine.execution_options(**{_READ_ONLY: True}), expire_on_commit=False
        )
        self._autocommit = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        self._writers: _Turnstile | None = None
        self._file: Path | None = None  # a SQLite file, whose turnstile is shared
        if self.engine.dialect.name == "sqlite":
            self._writers, self._file = _sqlite_turnstile(url)

    @contextmanager
    def transaction(self, *, urgent: bool = False) -> Iterator[Session]:
        """A session whose work commits together at the end, or not at all. On SQLite an
        `urgent` one (short: storing inbound mail) gets the write lock before the others
        waiting in this process."""
        gate = self._writers.turn(urgent) if self._writers is not None else nullcontext()
        with gate, _begun(self._sessions) as session:
            yield session

    @contextmanager
    def one_statement(self, *, urgent: bool = False) -> Iterator[Connection]:
        """A connection for a write of one statement, committed when it ends. On
        PostgreSQL the statement runs in autocommit, its own transaction: one round trip
        where BEGIN, the statement and COMMIT are three (the server still waits for the
        commit's WAL flush before it answers). On SQLite it is `transaction(urgent=…)`'s
        connection, which takes the write lock in turn."""
        if self._writers is not None:
            with self.transaction(urgent=urgent) as session:
                yield session.connection()
            return
        with self._autocommit.connect() as connection:
            yield connection

    @contextmanager
    def reading(self) -> Iterator[Session]:
        """A session for reading only (a consistent snapshot on SQLite, without the
        write lock); do not write in it."""
        with _begun(self._readers) as session:
            yield session

    def upgrade(self) -> None:
        upgrade(self.url)

    def dispose(self) -> None:
        self.engine.dispose()
        if self._file is not None:
            _release_turnstile(self._file)
            self._file = None


def migrations_dir() -> Path:
    packaged = Path(__file__).resolve().parent.parent / "migrations"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent.parent / "migrations"


def alembic_config(url: str):
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(migrations_dir()))
    cfg.attributes["url"] = url
    return cfg


def upgrade(url: str, revision: str = "head") -> tuple[str | None, str | None]:
    """Bring the schema up to date (`payjudge db upgrade`); returns the revisions before
    and after (None: no schema at all)."""
    from alembic import command

    before, _ = schema_revisions(url)
    command.upgrade(alembic_config(url), revision)
    after, _ = schema_revisions(url)
    return before, after


def schema_revisions(url: str) -> tuple[str | None, str | None]:
    """The database's schema revision (None: never migrated) and the newest one this
    version of payjudge knows."""
    from alembic.migration import MigrationContext
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config(url)).get_current_head()
    engine = make_engine(url)
    try:
        try:
            conn = engine.connect()
        except DBAPIError as exc:
            raise Unreachable(exc) from None
        with conn:
            current = MigrationContext.configure(conn).get_current_revision()
    finally:
        engine.dispose()
    return current, head


class Unreachable(ConnectionError):
    """The database server did not let us in (down, a wrong password, no such
    database): its own words, on one line, without the SQLAlchemy wrapping."""

    def __init__(self, exc: DBAPIError):
        words = " ".join(str(exc.orig).split()) if exc.orig is not None else type(exc).__name__
        super().__init__(f"cannot connect: {words}")


def unreachable(exc: BaseException) -> Unreachable | None:
    """`exc` as an `Unreachable` if it is the failure to connect to the database (an error
    of the driver raised with no statement under way), else None."""
    if isinstance(exc, Unreachable):
        return exc
    if isinstance(exc, DBAPIError) and exc.statement is None:
        return Unreachable(exc)
    return None


class SchemaError(RuntimeError):
    """The database's schema is not the one this payjudge works with."""


def check_schema(url: str) -> None:
    """Raise SchemaError (saying what to do) unless the database is fully migrated."""
    current, head = schema_revisions(url)
    if current == head:
        return
    if current is None:
        raise SchemaError("the database has no payjudge schema yet: run `payjudge db upgrade` first")
    raise SchemaError(
        f"the database schema is at revision {current}, this payjudge needs {head}: "
        "run `payjudge db upgrade` first"
    )
