"""A party's calendar feed: its game's deadlines as iCalendar (RFC 5545), so that the
player's own calendar reminds it (docs/web.md).

The feed's URL holds a random token, made on the party's page and shown there once; the
store keeps its SHA-256 only. Making a new link revokes the old one, and so does stopping
it; a feed whose party no longer plays (resigned, replaced) answers nothing. A deadline is
public (every player's mail and the status page show it), so the feed tells nothing
private; the token only keeps the feed the party's.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from ..config import Config
from ..store import Session, webrepo
from ..store.models import CalendarFeed, Game
from .state import GameState
from .websession import Current, party_is_live

REMINDER_HOURS = 12  # the calendar's alarm, this long before the deadline


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_feed(s: Session, current: Current, *, now: datetime) -> str:
    """A new feed for the party; revokes its old one. Returns the token (shown once)."""
    stop_feed(s, current, now=now)
    token = secrets.token_urlsafe(24)
    s.add(
        CalendarFeed(
            token_hash=_digest(token), game_id=current.game_id, party=current.party.name, created_at=now
        )
    )
    return token


def stop_feed(s: Session, current: Current, *, now: datetime) -> None:
    webrepo.revoke_feeds(s, current.game_id, current.party.name, now)


def has_feed(s: Session, current: Current) -> bool:
    return webrepo.has_live_feed(s, current.game_id, current.party.name)


def _text(value: str) -> str:
    """An iCalendar TEXT value (RFC 5545 3.3.11)."""
    return value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def _stamp(when: datetime) -> str:
    return when.strftime("%Y%m%dT%H%M%SZ")


def feed(s: Session, config: Config, token: str, *, now: datetime) -> str | None:
    """The feed's iCalendar text; None for a token that is unknown, revoked, too long, or
    whose party no longer plays."""
    if not token or len(token) > 100:
        return None
    row = webrepo.feed_by_token(s, _digest(token))
    if row is None or row.revoked_at is not None:
        return None
    game = s.get(Game, row.game_id)
    if game is None or not party_is_live(s, config, game, row.party):
        return None
    domain = config.judge_address.rpartition("@")[2] or "localhost"
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//payjudge//deadlines//EN",
        "CALSCALE:GREGORIAN",
        f"X-WR-CALNAME:{_text(f'{config.judge_name} {game.name} ({row.party})')}",
    ]
    if game.deadline is not None and game.phase is not None and game.state.is_running:
        title = GameState(s, game, config.maps_path).calendar.title(game.phase)
        summary = _text(f"{game.name}: {title} deadline")
        lines += [
            "BEGIN:VEVENT",
            f"UID:{game.name}-{game.phase}-{_stamp(game.deadline)}@{domain}",
            f"DTSTAMP:{_stamp(now)}",
            f"DTSTART:{_stamp(game.deadline)}",
            f"DTEND:{_stamp(game.deadline + timedelta(minutes=15))}",
            f"SUMMARY:{summary}",
            f"DESCRIPTION:{_text(f'Orders for {title} of {game.name} are due.')}",
            "BEGIN:VALARM",
            "ACTION:DISPLAY",
            f"TRIGGER:-PT{REMINDER_HOURS}H",
            f"DESCRIPTION:{summary}",
            "END:VALARM",
            "END:VEVENT",
        ]
    lines.append("END:VCALENDAR")
    return "\r\n".join(lines) + "\r\n"
