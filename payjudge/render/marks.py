"""The marks a picture may draw, each with the words the legend explains it in.

The board records which marks it drew (`Mark`), and the legend shows those and only
those, each beside a small copy of the mark itself (`legend.py`).
"""

from __future__ import annotations

import enum


class Mark(enum.Enum):
    """A kind of mark on the board; the value is its explanation in the legend."""

    ARMY = "army"
    FLEET = "fleet"
    CENTRE = "supply centre (white: unowned)"
    COAST = "coast of a fleet"
    MOVE = "move"
    CONVOYED = "move by convoy"
    BOUNCED = "bounced"
    FAILED = "order failed"
    SUPPORT = "support"
    SUPPORT_HOLD = "supported in place"
    CONVOY = "convoy"
    HOLD = "hold"
    DISLODGED = "dislodged"
    RETREAT_OPTION = "may retreat to"
    BUILT = "built"
    VOID_BUILD = "build not made"
    REMOVED = "removed or disbanded"
    INSET = "area enlarged below"
    INSET_APART = "area enlarged in the picture of its number"
