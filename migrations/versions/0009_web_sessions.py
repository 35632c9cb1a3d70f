"""web sessions: a party signed in on the web pages

A sign-in with the game's own credentials (issue 29) opens a session bound to one game and
one party; the cookie's token is kept only as its SHA-256, with a CSRF token, an expiry,
and a digest of the password hash it was opened with (a changed password ends it). A
party's iCalendar feed of its game's deadlines is a random token too, kept as its SHA-256,
revoked by a new link or on request.

Revision ID: 0009_web_sessions
Revises: 0007_typed_votes
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_web_sessions"
down_revision = "0007_typed_votes"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "web_session",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("csrf", sa.String(length=64), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("party", sa.String(length=32), nullable=False),
        sa.Column("credential", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name="fk_web_session_game_id_game"),
        sa.PrimaryKeyConstraint("id", name="pk_web_session"),
        sa.UniqueConstraint("token_hash", name="uq_web_session_token_hash"),
    )
    with op.batch_alter_table("web_session") as batch_op:
        batch_op.create_index("ix_web_session_game_id", ["game_id"], unique=False)
    op.create_table(
        "calendar_feed",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("party", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name="fk_calendar_feed_game_id_game"),
        sa.PrimaryKeyConstraint("id", name="pk_calendar_feed"),
        sa.UniqueConstraint("token_hash", name="uq_calendar_feed_token_hash"),
    )
    with op.batch_alter_table("calendar_feed") as batch_op:
        batch_op.create_index("ix_calendar_feed_game_id", ["game_id"], unique=False)


def downgrade() -> None:
    op.drop_table("calendar_feed")
    op.drop_table("web_session")
