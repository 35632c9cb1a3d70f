"""hardening: content hashes and deferral of inbound mail, sign-on failures, the redaction salt

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("inbound_message", schema=None) as batch_op:
        batch_op.add_column(sa.Column("content_hash", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("not_before", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("redacted", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch_op.create_unique_constraint(batch_op.f("uq_inbound_message_content_hash"), ["content_hash"])

    op.create_table(
        "signon_failure",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("who", sa.String(length=32), nullable=False),
        sa.Column("trusted", sa.Boolean(), nullable=False),
        sa.Column("sender", sa.String(length=254), nullable=False),
        sa.Column("inbound_id", sa.Integer(), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_signon_failure_game_id_game")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_signon_failure")),
        sa.UniqueConstraint("inbound_id", name=op.f("uq_signon_failure_inbound_id")),
    )
    with op.batch_alter_table("signon_failure", schema=None) as batch_op:
        batch_op.create_index("ix_signon_failure_seat", ["game_id", "who", "at"], unique=False)

    setting = op.create_table(
        "judge_setting",
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_judge_setting")),
    )
    # made here, once per database, so every process of the judge uses the same one
    op.bulk_insert(setting, [{"name": "redaction_salt", "value": secrets.token_hex(16)}])


def downgrade() -> None:
    op.drop_table("judge_setting")
    with op.batch_alter_table("signon_failure", schema=None) as batch_op:
        batch_op.drop_index("ix_signon_failure_seat")
    op.drop_table("signon_failure")
    with op.batch_alter_table("inbound_message", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_inbound_message_content_hash"), type_="unique")
        batch_op.drop_column("redacted")
        batch_op.drop_column("not_before")
        batch_op.drop_column("content_hash")
