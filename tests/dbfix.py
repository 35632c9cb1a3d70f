"""A `database` fixture for tests that must pass on SQLite and on PostgreSQL alike.

Each test gets a fresh, migrated database: a SQLite file, or a PostgreSQL database copied
from a template that the Alembic migrations built once per session.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from payjudge.store.db import Database, upgrade

from .servers import _pg_connect, drop_database, fresh_database

_template: dict[str, str] = {}


def _pg_template(pg_url: str) -> str:
    if pg_url not in _template:
        url = fresh_database(pg_url, "template_pj")
        upgrade(url)
        _template[pg_url] = url.rsplit("/", 1)[1]
    return _template[pg_url]


def _pg_copy(pg_url: str) -> str:
    template = _pg_template(pg_url)
    url = fresh_database(pg_url, "t")
    name = url.rsplit("/", 1)[1]
    with _pg_connect(pg_url) as conn:
        conn.execute(f'DROP DATABASE "{name}"')
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    return url


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request) -> Iterator[Database]:
    if request.param == "sqlite":
        folder = Path(tempfile.mkdtemp(prefix="pj-db-"))
        url = f"sqlite:///{folder / 'payjudge.sqlite'}"
        upgrade(url)
        db = Database(url)
        yield db
        db.dispose()
        shutil.rmtree(folder, ignore_errors=True)
    else:
        pg_url = request.getfixturevalue("pg_url")
        url = _pg_copy(pg_url)
        db = Database(url)
        yield db
        db.dispose()
        drop_database(url)
