"""exchange: the share register, standing CEO votes, investor seats, the market snapshot

Exchange Payola (docs/exchange.md) adds a second append-only ledger, `share_entry` (a
holding is a sum of entries), the standing CEO votes (`ceo_vote`, the latest row per voter
and company counts), a seat's kind (`power` for every existing seat) with an investor's
name, and `turn.market`, the market at the start of a turn. Columns are only added, so
existing rows keep their meaning.

Revision ID: 0004_exchange
Revises: 0003_typed_vocabulary
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_exchange"
down_revision = "0003_typed_vocabulary"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "share_entry",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("company", sa.String(length=32), nullable=False),
        sa.Column("holder", sa.String(length=33), nullable=False),
        sa.Column("amount", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("turn_seq", sa.Integer(), nullable=False),
        sa.Column("phase", sa.String(length=16), nullable=False),
        sa.Column("price", sa.Integer(), nullable=True),
        sa.Column("memo", sa.String(length=200), nullable=False),
        sa.Column("reverses", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_share_entry_game_id_game")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_share_entry")),
    )
    op.create_index("ix_share_entry_game_company", "share_entry", ["game_id", "company"], unique=False)
    op.create_table(
        "ceo_vote",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("voter", sa.String(length=32), nullable=False),
        sa.Column("company", sa.String(length=32), nullable=False),
        sa.Column("candidate", sa.String(length=32), nullable=True),
        sa.Column("set_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], name=op.f("fk_ceo_vote_game_id_game")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ceo_vote")),
    )
    op.create_index("ix_ceo_vote_game_company", "ceo_vote", ["game_id", "company"], unique=False)
    # plain ADD COLUMNs (no table rebuild on SQLite): every existing seat is a power's
    op.add_column("seat", sa.Column("kind", sa.String(length=16), nullable=False, server_default="power"))
    op.add_column("seat", sa.Column("investor_name", sa.String(length=32), nullable=True))
    op.add_column("turn", sa.Column("market", sa.JSON(), nullable=True))


def downgrade() -> None:
    # plain DROP COLUMNs (SQLite 3.35 and later): a batch rebuild of `turn` would break
    # the foreign keys that refer to it
    op.drop_column("turn", "market")
    op.drop_column("seat", "investor_name")
    op.drop_column("seat", "kind")
    op.drop_index("ix_ceo_vote_game_company", table_name="ceo_vote")
    op.drop_table("ceo_vote")
    op.drop_index("ix_share_entry_game_company", table_name="share_entry")
    op.drop_table("share_entry")
