"""The receipt flag of the web pages (issue 29, docs/web.md): whether the judge's reply to a
message sent from a party's page is mailed too, or only shown on the page.

The reply is mailed unless the party turns its receipt off on its page. It is a choice of
the seat, kept in the game's settings like `SET MAP OFF` (no column of its own), so it stays
with the power when another player takes it over. Under ALWAYS_CONFIRM (DPjudge removed
"the e-mail receipt flag on the order page" there) the reply is always mailed and the
Master copied, as by mail. A reply not mailed is still written to the outbox, as KEPT: the
record and the page have it, the outbox sender never sends it.
"""

from __future__ import annotations

from ..rules.flags import Flag
from ..store import Session, repo
from ..store.models import Game
from ..vocabulary import OutboxState
from .websession import Current

_KEY = "web_no_receipt"  # the parties (power names, MASTER, observers) that turned it off


def always_mailed(game: Game) -> bool:
    """Under ALWAYS_CONFIRM the receipt cannot be turned off."""
    return Flag.ALWAYS_CONFIRM.value in (game.rules or [])


def receipt_on(game: Game, party: str) -> bool:
    """Whether `party`'s web messages have their reply mailed too."""
    return always_mailed(game) or party not in (game.settings or {}).get(_KEY, [])


def set_receipt(game: Game, party: str, on: bool) -> None:
    """The party's choice, on its page."""
    settings = dict(game.settings or {})
    off = set(settings.get(_KEY, []))
    if on:
        off.discard(party)
    else:
        off.add(party)
    settings[_KEY] = sorted(off)
    if not settings[_KEY]:
        del settings[_KEY]
    game.settings = settings  # a new dict: the JSON column sees the change


def reply_state(game: Game | None, web_party: tuple[str, str] | None) -> OutboxState:
    """How the processor writes the reply to a message: KEPT (not mailed) only for a
    message the web stored for a live session of a party of `game` whose receipt is off
    (`web_party` from `websend.web_party`); PENDING (mailed) for everything else."""
    if game is None or web_party is None or web_party[0] != game.name:
        return OutboxState.PENDING
    return OutboxState.PENDING if receipt_on(game, web_party[1]) else OutboxState.KEPT


def choose(s: Session, current: Current, on: bool) -> None:
    """The signed-in party turns its receipt on or off (the game's row locked: the
    processor writes the settings too)."""
    game = repo.game_by_id(s, current.game_id, lock=True)
    if game is not None:
        set_receipt(game, current.party.name, on)
        game.version += 1
