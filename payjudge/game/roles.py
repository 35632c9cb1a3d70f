"""Whom a mail command is for: the role a handler declares and a sign-on gives.

`commands/base.py` handlers name their role (`who`), `service/execute.py` builds the
context of that role before running one (`Context.player()`, `.master()`, `.signed()`),
and HELP lists the commands by role. The Master's name as an actor (`state.MASTER`,
stored as a press sender or a failed sign-on's `who`) is a name beside the powers', not
a role: a power's player and the Master after FOR both act in the PLAYER role.
"""

from __future__ import annotations

import enum


class Role(enum.StrEnum):
    """A handler's role; the values are the HELP template's section keys."""

    OPENER = "opener"  # anyone, before (or without) a sign-on: SIGNON, JOIN, LIST, HELP, …
    SIGNED = "signed"  # anyone signed on: a power, the Master or an observer (press)
    PLAYER = "player"  # a power: its player's, or the Master's after FOR <power>
    MASTER = "master"  # the game's Master
