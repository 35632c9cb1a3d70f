"""Outgoing mail: render a template, compose the message, queue it in the outbox.

Mail is written to the outbox in the same transaction as the change it reports and sent
after commit by the outbox sender; nothing is ever sent from the middle of a turn.

Every recipient gets a mail of their own, with only their address in To: a mail to the
whole game would tell each player which address plays which power.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from ..config import Config
from ..rules.calendar import Calendar, calendar_of
from ..rules.mapfile import MapError, load_variant
from ..store import Session
from ..store.models import Game, OutboxMail
from ..templating import render
from ..text.compose import Attachment, compose_mail, new_message_id
from ..vocabulary import MailKind, OutboxState

# one address, no list: no spaces, commas, angle brackets or quotes; a domain of labels
_SPECIALS = r"\s@,;:<>()\[\]\"\\"
_ADDRESS = re.compile(rf"[^{_SPECIALS}]+@[^{_SPECIALS}.]+(?:\.[^{_SPECIALS}.]+)*")


def is_mail_address(text: str) -> bool:
    """A single plain address like `name@example.org` (not a list, not `Name <…>`)."""
    return len(text) <= 254 and _ADDRESS.fullmatch(text) is not None


class Mailer:
    def __init__(self, session: Session, config: Config, now: datetime, hold: list[OutboxMail] | None = None):
        self.session = session
        self.config = config
        self.now = now
        self.queued: list[OutboxMail] = []
        # where the rows wait instead of the session, when whoever made the mailer adds
        # them later in the same transaction (the processor, at the end of its batch)
        self.hold = hold

    def calendar(self, game: Game) -> Calendar | None:
        """The calendar of the game's map, by which every mail of the game names its phases
        (`|phase` in the templates); None if the map cannot be loaded."""
        try:
            return calendar_of(load_variant(game.map_name, self.config.maps_path))
        except MapError:
            return None

    def send(
        self,
        to: Iterable[str | None],
        subject: str,
        template: str,
        *,
        kind: MailKind,
        game: Game | None = None,
        in_reply_to: str | None = None,
        auto: str = "auto-generated",
        attachments: Sequence[Attachment] = (),
        outbox_state: OutboxState = OutboxState.PENDING,
        **view: Any,
    ) -> list[OutboxMail]:
        """Queue one mail per distinct recipient (never the judge itself), each with
        `attachments` (the map picture of a results mail); with `outbox_state` KEPT, written for
        the record and the web page only, never sent."""
        recipients: list[str] = []
        for address in to:
            if (
                address
                and address.lower() not in recipients
                and address.lower() != self.config.judge_address.lower()
            ):
                recipients.append(address.lower())
        if not recipients:
            return []
        if game is not None and "calendar" not in view:
            view["calendar"] = self.calendar(game)
        body = render(template, judge=self.config.judge_name, **view)
        domain = self.config.judge_address.rpartition("@")[2] or "localhost"
        rows = []
        for recipient in recipients:
            unique = f"{self.now.strftime('%Y%m%d%H%M%S')}.{secrets.token_hex(8)}.{kind}"
            message_id, raw = compose_mail(
                self.config.judge_address,
                [recipient],
                subject,
                body,
                message_id=new_message_id(domain, unique),
                in_reply_to=in_reply_to,
                references=(in_reply_to,) if in_reply_to else (),
                auto_submitted=auto,
                date=self.now,
                attachments=attachments,
            )
            row = OutboxMail(
                message_id=message_id,
                sender=self.config.judge_address,
                recipients=[recipient],
                subject=subject[:255],
                raw=raw,
                game_id=game.id if game else None,
                kind=kind,
                created_at=self.now,
                state=outbox_state,
                attempts=0,
                next_attempt_at=self.now,
            )
            if self.hold is None:
                self.session.add(row)
            else:
                self.hold.append(row)
            rows.append(row)
        self.queued.extend(rows)
        return rows
