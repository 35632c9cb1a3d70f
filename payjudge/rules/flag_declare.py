"""How a rule flag is declared (`declare`, and `blind_modifier` for the BLIND modifiers of
seed 003 §1.6), for the tables of `flags_game.py`, `flags_play.py` and `flags_payola.py`."""

from __future__ import annotations

from typing import Final

from .flags import Flag as F
from .flags import FlagInfo, Status

S: Final = Status.SUPPORTED
ALWAYS: Final = Status.ALWAYS
NO: Final = Status.NOT_ALLOWED
NOT_YET: Final = Status.NOT_YET

BLIND_MODIFIER: Final = "BLIND modifier: "
# the flags that let players write to each other in some way (NO_PRESS forbids all of them)
PRESS_KINDS: Final = (
    F.PUBLIC_PRESS,
    F.LATE_SEND,
    F.GREY_PRESS,
    F.YELLOW_PRESS,
    F.WHITE_GREY,
    F.FAKE_PRESS,
    F.TOUCH_PRESS,
    F.REMOTE_PRESS,
    F.BACKSEAT_PRESS,
)


def declare(
    flag: F,
    section: str,
    status: Status,
    summary: str,
    *,
    reason: str = "",
    aliases: tuple[str, ...] = (),
    implies: tuple[F, ...] = (),
    defaults: tuple[tuple[F, F], ...] = (),
    excludes: tuple[F, ...] = (),
    requires: tuple[F, ...] = (),
    also: tuple[str, ...] = (),
    disable: tuple[F, ...] = (),
) -> FlagInfo:
    """One flag's declaration: its section of the catalog (and `also` the others that
    name it), status, summary and relations, as sets."""
    return FlagInfo(
        flag,
        (section, *also),
        status,
        summary,
        reason,
        aliases,
        frozenset(implies),
        defaults,
        frozenset(excludes),
        frozenset(requires),
        frozenset(disable),
    )


def blind_modifier(flag: F, summary: str, *brings: F, excludes: tuple[F, ...] = ()) -> FlagInfo:
    """A BLIND modifier (seed 003 §1.6): supported, and it brings BLIND and `brings`."""
    return declare(flag, "1.6", S, BLIND_MODIFIER + summary, implies=(F.BLIND, *brings), excludes=excludes)
