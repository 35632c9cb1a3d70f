"""observers confirm their address; games are found by creation time

An observer was registered at the From of its OBSERVE, forgeable, and mailed results and
broadcasts from then on (issue 26). `observer.confirmed_at` stays empty until the address
answers the code mailed to it; the judge sends nothing to an observer without it. The
observers registered before keep their place: they are marked confirmed when they joined.
CREATE is limited per sender and in all per hour: the count reads the last hour's games
through an index on `game.created_at`.

Revision ID: 0006_observer_consent
Revises: 0005_sender_history
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_observer_consent"
down_revision = "0005_sender_history"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("observer") as batch_op:
        batch_op.add_column(sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=True))
    op.execute("UPDATE observer SET confirmed_at = joined_at")
    with op.batch_alter_table("game") as batch_op:
        batch_op.create_index("ix_game_created_at", ["created_at"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("game") as batch_op:
        batch_op.drop_index("ix_game_created_at")
    with op.batch_alter_table("observer") as batch_op:
        batch_op.drop_column("confirmed_at")
