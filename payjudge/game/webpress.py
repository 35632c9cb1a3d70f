"""Press to and from a party, on its web page (docs/web.md): only what it sent or read by
mail, shown as the mail showed it.

What a party read is the press mail the judge wrote to it (the outbox keeps it): the
sender and addressees there are those `press.send_press` chose for that reader, so GREY,
FAKE AS, CLAIM TO and the game's press flags are kept exactly, with nothing stored anew and
nothing decided twice. The Master's copies say who really wrote each. What a party wrote is
its row of the press table, which it may read as written: it knows whom it sent it to.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ..store import Session, webrepo
from ..store.models import Game
from .press import titles
from .websend import mail_text

SHOWN = 100  # the latest, on the page


@dataclass(frozen=True)
class PressItem:
    """One press message on a party's page."""

    at: datetime
    heading: str  # who it shows as sender and addressees
    body: str
    sent: bool  # written by the party; otherwise read by it


def _read(s: Session, game: Game, addresses: set[str]) -> list[PressItem]:
    items = []
    for mail in webrepo.press_mails(s, game.id):
        if not addresses & {a.lower() for a in mail.recipients}:
            continue
        _, subject, text = mail_text(mail.raw)
        # the mail's first line names the shown sender, addressees and phase; the body follows
        head, _, body = text.partition("\n")
        items.append(PressItem(mail.created_at, head.strip() or subject, body.strip("\n"), sent=False))
    return items


def _written(s: Session, game: Game, party: str) -> list[PressItem]:
    return [
        PressItem(
            p.created_at,
            f"You to {'everyone' if p.broadcast else titles(list(p.recipients))}"
            + (f" ({p.phase})" if p.phase is not None else ""),
            p.body,
            sent=True,
        )
        for p in webrepo.press_by(s, game.id, party)
    ]


def party_press(s: Session, game: Game, party: str, address: str | None) -> tuple[PressItem, ...]:
    """The press `party` (a power, MASTER, an observer) wrote and the press mailed to its
    `address`, newest first."""
    items = _written(s, game, party)
    if address:
        items += _read(s, game, {address.lower()})
    items.sort(key=lambda i: (i.at, i.sent), reverse=True)
    return tuple(items[:SHOWN])
