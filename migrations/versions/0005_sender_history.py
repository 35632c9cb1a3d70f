"""inbound mail: one index on (sender, processed_at) instead of one on sender

Every message processed asks when its sender's latest answers were (the rate limit, in
the claim itself: `repo.claim_inbound_counting`, and `repo.inbound_answered_since`). With
an index on `sender` alone, the database read every message that sender ever sent, kept
for good, and sorted them: a claim cost 0.3 ms with no history, 2 ms after 10,000
messages from the same sender, 10 ms after 50,000 (SQLite). On (sender, processed_at) it
reads the last hour's answers only, in the index's order. The new index serves every
query by sender alone too, so the old one goes (one index less to keep up per message).

Revision ID: 0005_sender_history
Revises: 0004_exchange
"""

from __future__ import annotations

from alembic import op

revision = "0005_sender_history"
down_revision = "0004_exchange"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("inbound_message") as batch_op:
        batch_op.create_index("ix_inbound_message_sender_processed", ["sender", "processed_at"], unique=False)
        batch_op.drop_index("ix_inbound_message_sender")


def downgrade() -> None:
    with op.batch_alter_table("inbound_message") as batch_op:
        batch_op.create_index("ix_inbound_message_sender", ["sender"], unique=False)
        batch_op.drop_index("ix_inbound_message_sender_processed")
