"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-11-21 22:37:39.964384
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:

    op.create_table(
        "game",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("map_name", sa.String(length=32), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("master_address", sa.String(length=254), nullable=False),
        sa.Column("master_password", sa.String(length=255), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("timing", sa.JSON(), nullable=False),
        sa.Column("phase", sa.String(length=16), nullable=True),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ready_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("reminded", sa.JSON(), nullable=False),
        sa.Column("late_noticed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game")),
        sa.UniqueConstraint("name", name=op.f("uq_game_name")),
    )
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_game_deadline"), ["deadline"], unique=False)
        batch_op.create_index(batch_op.f("ix_game_state"), ["state"], unique=False)

    op.create_table(
        "inbound_message",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("message_id", sa.String(length=255), nullable=True),
        sa.Column("source", sa.String(length=8), nullable=False),
        sa.Column("source_key", sa.String(length=255), nullable=True),
        sa.Column("envelope_from", sa.String(length=254), nullable=True),
        sa.Column("sender", sa.String(length=254), nullable=True),
        sa.Column("raw", sa.LargeBinary(), nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("processed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_inbound_message")),
        sa.UniqueConstraint("message_id", name=op.f("uq_inbound_message_message_id")),
        sa.UniqueConstraint("source_key", name=op.f("uq_inbound_message_source_key")),
    )
    with op.batch_alter_table("inbound_message", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_inbound_message_sender"), ["sender"], unique=False)
        batch_op.create_index(batch_op.f("ix_inbound_message_state"), ["state"], unique=False)

    op.create_table(
        "acceptance",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("power", sa.String(length=32), nullable=False),
        sa.Column("text", sa.String(length=64), nullable=False),
        sa.Column("set_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_acceptance_game_id_game")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_acceptance")),
    )
    with op.batch_alter_table("acceptance", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_acceptance_game_id"), ["game_id"], unique=False)

    op.create_table(
        "ledger_entry",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("power", sa.String(length=32), nullable=False),
        sa.Column("turn_seq", sa.Integer(), nullable=False),
        sa.Column("phase", sa.String(length=16), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("amount", sa.Integer(), nullable=False),
        sa.Column("counterparty", sa.String(length=32), nullable=True),
        sa.Column("memo", sa.String(length=200), nullable=False),
        sa.Column("reverses", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_ledger_entry_game_id_game")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_entry")),
    )
    with op.batch_alter_table("ledger_entry", schema=None) as batch_op:
        batch_op.create_index("ix_ledger_game_power", ["game_id", "power"], unique=False)

    op.create_table(
        "observer",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("address", sa.String(length=254), nullable=False),
        sa.Column("password", sa.String(length=255), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_observer_game_id_game")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_observer")),
        sa.UniqueConstraint("game_id", "name", name=op.f("uq_observer_game_id")),
    )
    with op.batch_alter_table("observer", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_observer_game_id"), ["game_id"], unique=False)

    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("message_id", sa.String(length=255), nullable=False),
        sa.Column("sender", sa.String(length=254), nullable=False),
        sa.Column("recipients", sa.JSON(), nullable=False),
        sa.Column("subject", sa.String(length=255), nullable=False),
        sa.Column("raw", sa.LargeBinary(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_outbox_game_id_game")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_outbox")),
        sa.UniqueConstraint("message_id", name=op.f("uq_outbox_message_id")),
    )
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_outbox_game_id"), ["game_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_outbox_state"), ["state"], unique=False)

    op.create_table(
        "press",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("phase", sa.String(length=16), nullable=True),
        sa.Column("sender", sa.String(length=32), nullable=False),
        sa.Column("recipients", sa.JSON(), nullable=False),
        sa.Column("broadcast", sa.Boolean(), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_press_game_id_game")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_press")),
    )
    with op.batch_alter_table("press", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_press_game_id"), ["game_id"], unique=False)

    op.create_table(
        "seat",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("power", sa.String(length=32), nullable=True),
        sa.Column("address", sa.String(length=254), nullable=True),
        sa.Column("password", sa.String(length=255), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("wait", sa.Boolean(), nullable=False),
        sa.Column("vote", sa.String(length=32), nullable=True),
        sa.Column("absences", sa.JSON(), nullable=False),
        sa.Column("missed", sa.Integer(), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_seat_game_id_game")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seat")),
        sa.UniqueConstraint("game_id", "power", name=op.f("uq_seat_game_id")),
    )
    with op.batch_alter_table("seat", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_seat_game_id"), ["game_id"], unique=False)

    op.create_table(
        "turn",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("phase", sa.String(length=16), nullable=False),
        sa.Column("position", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("processed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("report", sa.JSON(), nullable=True),
        sa.Column("chart", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_turn_game_id_game")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_turn")),
        sa.UniqueConstraint("game_id", "seq", name=op.f("uq_turn_game_id")),
    )
    with op.batch_alter_table("turn", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_turn_game_id"), ["game_id"], unique=False)

    op.create_table(
        "submission",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("turn_id", sa.Integer(), nullable=False),
        sa.Column("power", sa.String(length=32), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("current", sa.Boolean(), nullable=False),
        sa.Column("inbound_id", sa.Integer(), nullable=True),
        sa.Column("submitted_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_submission_game_id_game")),
        sa.ForeignKeyConstraint(
            ["inbound_id"], ["inbound_message.id"], name=op.f("fk_submission_inbound_id_inbound_message")
        ),
        sa.ForeignKeyConstraint(["turn_id"], ["turn.id"], name=op.f("fk_submission_turn_id_turn")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_submission")),
    )
    with op.batch_alter_table("submission", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_submission_game_id"), ["game_id"], unique=False)
        batch_op.create_index("ix_submission_turn_power", ["turn_id", "power"], unique=False)


def downgrade() -> None:

    with op.batch_alter_table("submission", schema=None) as batch_op:
        batch_op.drop_index("ix_submission_turn_power")
        batch_op.drop_index(batch_op.f("ix_submission_game_id"))

    op.drop_table("submission")
    with op.batch_alter_table("turn", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_turn_game_id"))

    op.drop_table("turn")
    with op.batch_alter_table("seat", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_seat_game_id"))

    op.drop_table("seat")
    with op.batch_alter_table("press", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_press_game_id"))

    op.drop_table("press")
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_outbox_state"))
        batch_op.drop_index(batch_op.f("ix_outbox_game_id"))

    op.drop_table("outbox")
    with op.batch_alter_table("observer", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_observer_game_id"))

    op.drop_table("observer")
    with op.batch_alter_table("ledger_entry", schema=None) as batch_op:
        batch_op.drop_index("ix_ledger_game_power")

    op.drop_table("ledger_entry")
    with op.batch_alter_table("acceptance", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_acceptance_game_id"))

    op.drop_table("acceptance")
    with op.batch_alter_table("inbound_message", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_inbound_message_state"))
        batch_op.drop_index(batch_op.f("ix_inbound_message_sender"))

    op.drop_table("inbound_message")
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_game_state"))
        batch_op.drop_index(batch_op.f("ix_game_deadline"))

    op.drop_table("game")
