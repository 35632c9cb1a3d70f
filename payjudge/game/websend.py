"""Entering things through a web page is sending a message (docs/web.md).

The form's text becomes an inbound message like any mail: stored with `source` "web",
processed by the same processor, in the same transaction, with the same reply (mailed to
the party's registered address, and shown on the page). What makes it the party's is its
session, not a password: the message signs on with `SIGNON <party>@<game> WEB_WORD`, and
the processor, seeing a message the web stored (`source_key` "web:<session>:<nonce>",
which no mail can set), finds the session and lets the sign-on through when the session
is live and bound to that game and party (`web_party`). Mail that writes WEB_WORD as a
password is only a wrong password.

Each form carries a random nonce: the message's Message-ID is made of it, and the store
keeps one message per Message-ID, so a reload or a second click sends nothing twice.
"""

from __future__ import annotations

import email
import email.policy
import re
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime

from ..config import Config
from ..store import Session, webrepo
from ..store.models import Game, WebSession
from ..vocabulary import InboundState
from .state import GameState, find_observer
from .websession import Current, Party

WEB_WORD = "web-session"  # the SIGNON password of a message the web stored
SOURCE = "web"
REPLAYED = "replayed"  # a web message's key in a replay's database (`replayed_key`)
NONCE = re.compile(r"[A-Za-z0-9_-]{16,64}")


def message_id(nonce: str, config: Config) -> str:
    domain = config.judge_address.rpartition("@")[2] or "localhost"
    return f"<web.{nonce}@{domain}>"


def source_key(current: Current, nonce: str) -> str:
    return f"{SOURCE}:{current.session_id}:{nonce}"


def address_of(s: Session, config: Config, current: Current) -> str | None:
    """Where the reply goes: the party's registered address."""
    game = s.get(Game, current.game_id)
    return party_address(s, config, game, current.party) if game is not None else None


def party_address(s: Session, config: Config, game: Game, party: Party) -> str | None:
    """The party's registered address in `game`."""
    if party.is_master:
        return game.master_address
    if party.is_observer:
        obs = find_observer(s, game, party.name)
        return obs.address if obs is not None else None
    power = party.power
    seat = GameState(s, game, config.maps_path).seat(power) if power is not None else None
    return seat.address if seat is not None else None


def compose(config: Config, current: Current, address: str, text: str, nonce: str, now: datetime) -> bytes:
    """The message the form stands for."""
    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"] = address
    msg["To"] = config.judge_address
    msg["Subject"] = f"web: {current.party.game}"
    msg["Date"] = format_datetime(now)
    msg["Message-ID"] = message_id(nonce, config)
    # as by mail: `SIGNON <name>@<game>` for an investor (its account is `@NAME`)
    signer = "master" if current.party.is_master else (current.party.investor or current.party.name).lower()
    msg.set_content(f"SIGNON {signer}@{current.party.game} {WEB_WORD}\n{text.strip()}\n", cte="8bit")
    return bytes(msg)


def web_party(s: Session, source: str, key: str | None, now: datetime) -> tuple[str, str] | None:
    """The (game, party) a message stored by the web speaks for: its session's, when the
    session is live; None for any other message."""
    if source != SOURCE or not key:
        return None
    parts = key.split(":")
    if len(parts) == 4 and parts[0] == REPLAYED:
        return parts[1], parts[2]  # the replay found the session live then (`replayed_key`)
    if len(parts) != 3 or parts[0] != SOURCE or not parts[1].isdigit():
        return None
    row = s.get(WebSession, int(parts[1]))
    if row is None or not _live(row, now):
        return None
    game = s.get(Game, row.game_id)
    return (game.name, row.party) if game is not None else None


def _live(row: WebSession, when: datetime) -> bool:
    """Whether the session was live at `when` (signed out at that very moment: still, as
    a message processed then was read before the sign-out was)."""
    return (row.ended_at is None or row.ended_at >= when) and row.expires_at > when


def replayed_key(s: Session, key: str | None, when: datetime) -> str | None:
    """`payjudge replay` plays a game's messages into a fresh database, where the web's
    sessions are not: for a message the web stored, the key it is stored with there, which
    says for whom it signs on, when its session (read here, in the original database) was
    live at `when`, the moment it was processed; None when it was not (it fails to sign
    on again, as it failed then)."""
    parts = (key or "").split(":")
    if len(parts) != 3 or parts[0] != SOURCE or not parts[1].isdigit():
        return None
    row = s.get(WebSession, int(parts[1]))
    game = s.get(Game, row.game_id) if row is not None else None
    if row is None or game is None or not _live(row, when):
        return None
    return f"{REPLAYED}:{game.name}:{row.party}:{parts[2]}"


@dataclass(frozen=True)
class Answer:
    """What became of a message sent from the page."""

    state: InboundState | None  # None: no such message of this party
    reply: str | None  # the reply's text, once processed
    sent: str = ""  # the text the form sent (shown again in the form, to correct)
    # the other mails the message made for the party at the same moment (the Master's
    # PREVIEW, for one): (subject, text)
    others: tuple[tuple[str, str], ...] = ()


def mail_text(raw: bytes) -> tuple[str, str, str]:
    """(In-Reply-To, Subject, plain text) of a stored mail."""
    parsed = email.message_from_bytes(raw, policy=email.policy.default)
    body = parsed.get_body(("plain",))
    text = body.get_content() if body is not None else ""
    return parsed.get("In-Reply-To", "").strip(), str(parsed.get("Subject", "")), str(text)


def answer(s: Session, config: Config, current: Current, nonce: str) -> Answer:
    """The state and reply of the message the form with `nonce` sent, if the party sent it
    (from any of its sessions: a reply stays readable after a new sign-in)."""
    session_ids = party_sessions(s, current)
    row = webrepo.inbound_by_message_id(s, message_id(nonce, config))
    if row is None or row.source != SOURCE or not row.source_key:
        return Answer(None, None)
    parts = row.source_key.split(":")
    if len(parts) != 3 or not parts[1].isdigit() or int(parts[1]) not in session_ids:
        return Answer(None, None)
    sent = mail_text(row.raw)[2].split("\n", 1)[-1].strip()  # after the page's SIGNON line
    if row.state is InboundState.NEW:
        return Answer(row.state, None, sent=sent)
    wanted = message_id(nonce, config)
    # the reply is the mail to the message's sender that answers its Message-ID (a copy
    # to the Master, under ALWAYS_CONFIRM, answers it too, but goes elsewhere); the
    # processor writes a message's mails with one timestamp
    later = webrepo.outbox_since(s, row.received_at)
    # processor writes a message's mails in order, its reply last: the others are those
    # since the reply to the message before, of the same moment
    since: list[tuple[datetime, str, str]] = []
    for mail in later:
        if row.sender not in mail.recipients:
            continue
        parent, subject, text = mail_text(mail.raw)
        if parent == wanted:
            others = tuple((sub, body) for at, sub, body in since if at == mail.created_at)
            return Answer(row.state, text, sent=sent, others=others)
        since = [] if parent else [*since, (mail.created_at, subject, text)]
    return Answer(row.state, None, sent=sent)


def party_sessions(s: Session, current: Current) -> set[int]:
    """Every session of the party in its game."""
    return webrepo.party_session_ids(s, current.game_id, current.party.name)
