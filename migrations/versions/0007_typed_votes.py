"""typed votes: a seat's standing vote is stored in the `Vote` value's column form

`seat.vote` held the words a player wrote (`3WAY`, `CONCEDE FRANCE`, `PROPOSE DRAW`), which
the game layer sliced apart again. It now holds `Vote.stored` (payjudge/text/votes.py):
the kind, and its draw size or power after a colon (`draw:3`, `concede:FRANCE`,
`propose_draw`), read through the `VoteText` column type. The column keeps its type and
length (the longest form is as long as before). A stored text that is no vote stops the
migration, naming it; the downgrade writes the words back.

Revision ID: 0007_typed_votes
Revises: 0006_observer_consent
"""

from __future__ import annotations

import re
from collections.abc import Callable

import sqlalchemy as sa
from alembic import op

revision = "0007_typed_votes"
down_revision = "0006_observer_consent"
branch_labels = None
depends_on = None

# the forms as this revision knows them (payjudge/text/votes.py may grow later):
# (pattern of the old words, its new form) and back, each with one optional argument
WORDS = {"DRAW": "draw", "SOLO": "solo", "PROPOSE DRAW": "propose_draw", "YES": "yes", "END": "end"}
TO_POWER = {"CONCEDE": "concede", "PROPOSE CONCEDE": "propose_concede"}
OLD_WAY = re.compile(r"^([0-9]+)WAY$")
OLD_TO_POWER = re.compile(r"^(CONCEDE|PROPOSE CONCEDE) (\S+)$")


def to_stored(old: str) -> str:
    """`3WAY` -> `draw:3`, `CONCEDE FRANCE` -> `concede:FRANCE`, `SOLO` -> `solo`."""
    if old in WORDS:
        return WORDS[old]
    if way := OLD_WAY.match(old):
        return f"draw:{int(way.group(1))}"
    if to := OLD_TO_POWER.match(old):
        return f"{TO_POWER[to.group(1)]}:{to.group(2)}"
    raise RuntimeError(f"seat.vote holds {old!r}, which is no vote this payjudge knows: mend the row first")


def to_words(stored: str) -> str:
    """The way back: `draw:3` -> `3WAY`, `concede:FRANCE` -> `CONCEDE FRANCE`."""
    kind, colon, argument = stored.partition(":")
    words = {new: old for old, new in {**WORDS, **TO_POWER}.items()}
    if not colon and kind in WORDS.values():
        return words[kind]
    if colon and kind == "draw":
        return f"{argument}WAY"
    if colon and kind in TO_POWER.values():
        return f"{words[kind]} {argument}"
    raise RuntimeError(f"seat.vote holds {stored!r}, which is no stored vote: mend the row first")


def _rewrite(convert: Callable[[str], str]) -> None:
    conn = op.get_bind()
    seat = sa.table("seat", sa.column("id", sa.Integer()), sa.column("vote", sa.String(32)))
    rows = conn.execute(sa.select(seat.c.id, seat.c.vote).where(seat.c.vote.is_not(None))).all()
    for sid, vote in rows:
        new = convert(vote)
        if new != vote:
            conn.execute(seat.update().where(seat.c.id == sid).values(vote=new))


def upgrade() -> None:
    _rewrite(to_stored)


def downgrade() -> None:
    _rewrite(to_words)
