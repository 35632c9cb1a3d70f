"""A `database` fixture for tests that must pass on SQLite and on PostgreSQL alike.

Each test gets a fresh, migrated database: a SQLite file, or a PostgreSQL database, each
copied from a template that the Alembic migrations built once per session (per worker,
under pytest-xdist).
"""

from __future__ import annotations

import atexit
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from payjudge.store.db import Database, upgrade

from .servers import _pg_connect, database_name, drop_database, fresh_database

_template: dict[str, str] = {}
_sqlite_template: list[Path] = []  # this process's migrated SQLite file, made at first use


def migrated_sqlite(path: Path) -> str:
    """A SQLite database at `path` as `upgrade` leaves a new one, copied from a file this
    process migrated once: running the migrations costs about a second a database, a copy
    a millisecond. Returns its URL."""
    if not _sqlite_template:
        folder = Path(tempfile.mkdtemp(prefix="pj-dbtemplate-"))
        template = folder / "template.sqlite"
        upgrade(f"sqlite:///{template}")
        # the migrations' last writes may still be in the write-ahead log: fold them in,
        # so that the one file holds the whole database
        with closing(sqlite3.connect(template)) as conn:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        _sqlite_template.append(template)
        atexit.register(shutil.rmtree, folder, True)
    shutil.copyfile(_sqlite_template[0], path)
    return f"sqlite:///{path}"


def _pg_template(pg_url: str) -> str:
    if pg_url not in _template:
        url = fresh_database(pg_url, "template_pj")
        upgrade(url)
        _template[pg_url] = url.rsplit("/", 1)[1]
    return _template[pg_url]


# PostgreSQL 15 copies a template block by block through its write-ahead log unless told
# to copy the files (which costs a checkpoint: nothing much on the suite's cluster, which
# runs with fsync off): for a database the size of ours, a few times faster
COPY = "STRATEGY FILE_COPY"


def _pg_copy(pg_url: str) -> str:
    template = _pg_template(pg_url)
    name = database_name("t")
    with _pg_connect(pg_url) as conn:
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}" {COPY}')
    return pg_url.rsplit("/", 1)[0] + "/" + name


def pg_migrated(url: str) -> None:
    """Make the PostgreSQL database of `url` (on the session's cluster) a copy of the
    migrated template, whatever it held."""
    base, name = url.rsplit("/", 1)
    template = _pg_template(base + "/payjudge")  # the session's `pg_url`, the template's key
    with _pg_connect(url) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}" {COPY}')


# Databases this process has used and emptied, ready for the next test: emptying the
# tables of one (TRUNCATE, then the rows the migrations wrote put back) takes a few
# milliseconds, where copying the template took a quarter of a second (the copy's
# checkpoint writes out every page the tests before it changed).
_emptied: list[str] = []
_template_rows: dict[str, list[tuple[str, list[str], list[tuple]]]] = {}


def _rows_of(conn) -> list[tuple[str, list[str], list[tuple]]]:
    """Every row of every table but alembic_version, by table (the migrations' own rows)."""
    out = []
    for (table,) in conn.execute(
        "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'alembic_version' "
        "ORDER BY tablename"
    ).fetchall():
        cur = conn.execute(f'SELECT * FROM "{table}"')
        rows = cur.fetchall()
        if rows:
            out.append((table, [c.name for c in cur.description], rows))
    return out


def _fresh_pg(pg_url: str) -> str:
    """A migrated database, as the template is: one emptied after an earlier test, else a copy."""
    if _emptied:
        return _emptied.pop()
    url = _pg_copy(pg_url)
    if pg_url not in _template_rows:
        with _pg_connect(pg_url, _pg_template(pg_url)) as conn:
            _template_rows[pg_url] = _rows_of(conn)
    return url


def _empty_pg(pg_url: str, url: str) -> None:
    """Make a used database as the template is again, and keep it for the next test; a
    database that cannot be emptied is dropped."""
    name = url.rsplit("/", 1)[1]
    try:
        with _pg_connect(pg_url) as admin:  # nothing of the test may still hold a lock
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,)
            )
        with _pg_connect(pg_url, name) as conn:
            tables = [
                t
                for (t,) in conn.execute(
                    "SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
                    "AND tablename <> 'alembic_version'"
                ).fetchall()
            ]
            with conn.transaction():
                conn.execute("TRUNCATE " + ", ".join(f'"{t}"' for t in tables) + " RESTART IDENTITY CASCADE")
                for table, columns, rows in _template_rows[pg_url]:
                    marks = ", ".join(["%s"] * len(columns))
                    names = ", ".join(f'"{c}"' for c in columns)
                    conn.cursor().executemany(f'INSERT INTO "{table}" ({names}) VALUES ({marks})', rows)
    except Exception:
        drop_database(url)
        return
    _emptied.append(url)


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request) -> Iterator[Database]:
    if request.param == "sqlite":
        folder = Path(tempfile.mkdtemp(prefix="pj-db-"))
        db = Database(migrated_sqlite(folder / "payjudge.sqlite"))
        yield db
        db.dispose()
        shutil.rmtree(folder, ignore_errors=True)
    else:
        pg_url = request.getfixturevalue("pg_url")
        url = _fresh_pg(pg_url)
        db = Database(url)
        yield db
        db.dispose()
        _empty_pg(pg_url, url)
