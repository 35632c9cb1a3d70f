"""Alembic environment: the URL comes from the caller (payjudge db upgrade) or PAYJUDGE_DB_URL."""

from __future__ import annotations

import os

from alembic import context

from payjudge.store.db import make_engine
from payjudge.store.models import Base

config = context.config
url = config.attributes.get("url") or os.environ.get("PAYJUDGE_DB_URL")
if not url:
    raise RuntimeError("no database URL: set PAYJUDGE_DB_URL or use `payjudge db upgrade`")


def run_migrations_online() -> None:
    connectable = config.attributes.get("connection")
    if connectable is None:
        engine = make_engine(url)
        with engine.connect() as connection:
            _run(connection)
        engine.dispose()
    else:
        _run(connectable)


def _run(connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


run_migrations_online()
