"""The queries of the web pages' sessions and calendar feeds (game/websession.py,
game/websend.py, game/webcalendar.py): the game layer asks, the store answers."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from ..vocabulary import MailKind
from .models import CalendarFeed, InboundMessage, OutboxMail, Press, WebSession


def session_by_token(s: Session, token_hash: str) -> WebSession | None:
    return s.scalar(select(WebSession).where(WebSession.token_hash == token_hash))


def party_session_ids(s: Session, game_id: int, party: str) -> set[int]:
    """Every session a party has had in a game."""
    return set(
        s.scalars(select(WebSession.id).where(WebSession.game_id == game_id, WebSession.party == party))
    )


def inbound_by_message_id(s: Session, message_id: str) -> InboundMessage | None:
    return s.scalar(select(InboundMessage).where(InboundMessage.message_id == message_id))


def outbox_since(s: Session, since: datetime, limit: int = 500) -> list[OutboxMail]:
    """The mails made from `since` on, oldest first, at most `limit`."""
    query = select(OutboxMail).where(OutboxMail.created_at >= since).order_by(OutboxMail.id).limit(limit)
    return list(s.scalars(query))


def feed_by_token(s: Session, token_hash: str) -> CalendarFeed | None:
    return s.scalar(select(CalendarFeed).where(CalendarFeed.token_hash == token_hash))


def _live_feeds(game_id: int, party: str):
    return (CalendarFeed.game_id == game_id, CalendarFeed.party == party, CalendarFeed.revoked_at.is_(None))


def has_live_feed(s: Session, game_id: int, party: str) -> bool:
    return s.scalar(select(CalendarFeed.id).where(*_live_feeds(game_id, party))) is not None


def revoke_feeds(s: Session, game_id: int, party: str, now: datetime) -> None:
    s.execute(update(CalendarFeed).where(*_live_feeds(game_id, party)).values(revoked_at=now))


def press_mails(s: Session, game_id: int, limit: int = 2000) -> list[OutboxMail]:
    """The game's press as it was mailed (one row per reader), newest first."""
    query = (
        select(OutboxMail)
        .where(OutboxMail.game_id == game_id, OutboxMail.kind == MailKind.PRESS)
        .order_by(OutboxMail.id.desc())
        .limit(limit)
    )
    return list(s.scalars(query))


def press_by(s: Session, game_id: int, sender: str, limit: int = 200) -> list[Press]:
    """The press a party of the game wrote (its real name), newest first."""
    query = (
        select(Press)
        .where(Press.game_id == game_id, Press.sender == sender)
        .order_by(Press.id.desc())
        .limit(limit)
    )
    return list(s.scalars(query))
