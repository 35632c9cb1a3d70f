"""typed vocabulary: the scheduler's preview marks become columns; stored words are checked

States, statuses, kinds and phases keep the strings they were stored as: the store now
reads them through typed column types (`payjudge/store/types.py`), which refuse anything
else, so this migration first checks that every stored value is one of the words (and
every phase a phase) and stops, naming the row, if one is not. No CHECK constraint is
added: on SQLite it would mean rebuilding the `game` table, which every other table
refers to, under enforced foreign keys; the column types guard the values instead.

The marks the deadline scheduler kept in `game.settings` (`previewed`, `cd_previewed`:
the phase whose PREVIEW or CIVIL_PREVIEW preview was sent) move to two columns.

Revision ID: 0003_typed_vocabulary
Revises: 0002
"""

from __future__ import annotations

import re

import sqlalchemy as sa
from alembic import op

revision = "0003_typed_vocabulary"
down_revision = "0002"
branch_labels = None
depends_on = None

# the words as this revision knows them (payjudge/vocabulary.py may grow later)
WORDS = {
    ("game", "state"): {"forming", "active", "paused", "waiting", "completed", "terminated"},
    ("seat", "status"): {"open", "playing", "resigned", "dummy", "eliminated"},
    ("turn", "status"): {"open", "processed", "rolled_back"},
    ("submission", "kind"): {"sheet", "orders"},
    ("ledger_entry", "kind"): {
        "opening",
        "income",
        "bribes",
        "transfer_in",
        "transfer_out",
        "rollback",
        "forfeit",
        "adjustment",
    },
    ("inbound_message", "state"): {"new", "done", "quarantined"},
    ("outbox", "state"): {"pending", "sent", "failed"},
}
PHASES = [("game", "phase"), ("turn", "phase"), ("ledger_entry", "phase"), ("press", "phase")]
PHASE = re.compile(r"^[SFW][0-9]{1,5}[MRA]$")
MARKS = {"previewed": "previewed_phase", "cd_previewed": "cd_previewed_phase"}


def _check_words(conn) -> None:
    for (table, column), words in WORDS.items():
        found = conn.execute(sa.text(f"SELECT DISTINCT {column} FROM {table}")).scalars().all()
        wrong = sorted(str(v) for v in found if v not in words)
        if wrong:
            raise RuntimeError(
                f"{table}.{column} holds {', '.join(map(repr, wrong))}, which this "
                f"payjudge does not know ({', '.join(sorted(words))}): mend the rows first"
            )
    for table, column in PHASES:
        found = (
            conn.execute(sa.text(f"SELECT DISTINCT {column} FROM {table} WHERE {column} IS NOT NULL"))
            .scalars()
            .all()
        )
        wrong = sorted(v for v in found if not PHASE.match(v))
        if wrong:
            raise RuntimeError(
                f"{table}.{column} holds {', '.join(map(repr, wrong))}, "
                "which are not phases (like S1901M): mend the rows first"
            )


def _game_table():
    return sa.table(
        "game",
        sa.column("id", sa.Integer()),
        sa.column("settings", sa.JSON()),
        *(sa.column(name, sa.String(16)) for name in MARKS.values()),
    )


def upgrade() -> None:
    conn = op.get_bind()
    _check_words(conn)
    with op.batch_alter_table("game", schema=None) as batch_op:
        for name in MARKS.values():
            batch_op.add_column(sa.Column(name, sa.String(length=16), nullable=True))
    game = _game_table()
    for gid, settings in conn.execute(sa.select(game.c.id, game.c.settings)).all():
        settings = dict(settings or {})
        if not any(key in settings for key in MARKS):
            continue
        values = {column: settings.pop(key, None) for key, column in MARKS.items()}
        conn.execute(game.update().where(game.c.id == gid).values(settings=settings, **values))


def downgrade() -> None:
    conn = op.get_bind()
    game = _game_table()
    for row in conn.execute(sa.select(game)).mappings().all():
        marks = {key: row[column] for key, column in MARKS.items() if row[column] is not None}
        if marks:
            conn.execute(
                game.update()
                .where(game.c.id == row["id"])
                .values(settings={**(row["settings"] or {}), **marks})
            )
    if conn.dialect.name == "sqlite":
        # SQLite (3.35 on) drops a column in place; a batch rebuild of `game` would
        # drop the table the others refer to, which enforced foreign keys forbid
        for name in MARKS.values():
            op.execute(f"ALTER TABLE game DROP COLUMN {name}")
    else:
        with op.batch_alter_table("game", schema=None) as batch_op:
            for name in reversed(list(MARKS.values())):
                batch_op.drop_column(name)
