"""Process stored inbound messages, one per transaction.

A message is all or nothing: its commands run in one transaction, and if any command is
refused the transaction is rolled back and only the reply (naming every bad line) is
written. A message that makes processing crash is quarantined with its traceback; the
sender is told it was set aside, and the loop goes on.
"""

from __future__ import annotations

import logging
import traceback
from datetime import datetime, timedelta

from ..config import Config
from ..ports import Clock
from ..store.db import Database
from ..store import repo
from ..store.models import InboundMessage
from ..text.commands import split_commands
from ..text.message import InboundMail, read_message
from ..game.context import Context, Reply
from .execute import execute
from ..game.mailer import Mailer

log = logging.getLogger("payjudge.processor")


class _Undo(Exception):
    """Roll the message's changes back; the reply is written afterwards."""

    def __init__(self, reply: Reply, mail: InboundMail):
        self.reply = reply
        self.mail = mail


def pending_ids(db: Database, limit: int = 100) -> list[int]:
    with db.transaction() as s:
        return repo.pending_inbound_ids(s, limit)


def process_pending(db: Database, config: Config, clock: Clock, limit: int = 100) -> int:
    done = 0
    for message_id in pending_ids(db, limit):
        process_one(db, config, clock, message_id)
        done += 1
    return done


def process_one(db: Database, config: Config, clock: Clock, inbound_id: int) -> str:
    """Process one stored message; returns its final state (done, quarantined, skipped)."""
    try:
        with db.transaction() as s:
            row = repo.claim_inbound(s, inbound_id)
            if row is None:
                return "skipped"
            now = clock.now()
            row.attempts += 1
            mail = read_message(row.raw, envelope_from=row.envelope_from)
            reason = _ignore_reason(s, config, mail, row, now)
            if reason:
                log.info("ignoring message %s: %s", inbound_id, reason)
                row.state, row.processed_at, row.error = "done", now, f"ignored: {reason}"
                return "done"
            reply = Reply()
            mailer = Mailer(s, config, now)
            ctx = Context(session=s, config=config, now=now, sender=mail.sender or "",
                          message_id=mail.message_id, reply=reply, mailer=mailer,
                          inbound_id=row.id)
            for problem in mail.problems:
                if problem.kind.value in ("fatal",):
                    reply.problem(None, "", problem.message)
            script = split_commands([(line.number, line.text) for line in mail.lines])
            if not script.commands and not script.problems:
                reply.problem(None, "", "the message has no commands (HELP lists them)")
            execute(ctx, script)
            if reply.problems:
                raise _Undo(reply, mail)
            if ctx.state is not None:
                ctx.state.game.version += 1
            _send_reply(mailer, ctx.state.game if ctx.state else None, mail, reply, ok=True)
            row.state, row.processed_at = "done", now
            return "done"
    except _Undo as undo:
        with db.transaction() as s:
            row = s.get(InboundMessage, inbound_id)
            now = clock.now()
            mailer = Mailer(s, config, now)
            game = repo.game_by_name(s, undo.reply.game) if undo.reply.game else None
            _send_reply(mailer, game, undo.mail, undo.reply, ok=False)
            row.state, row.processed_at = "done", now
        return "done"
    except Exception:
        error = traceback.format_exc()
        log.exception("message %s quarantined", inbound_id)
        with db.transaction() as s:
            repo.quarantine(s, inbound_id, error, clock.now())
            row = s.get(InboundMessage, inbound_id)
            try:
                mail = read_message(row.raw, envelope_from=row.envelope_from)
            except Exception:
                mail = None
            if mail is not None and mail.sender and not mail.automated:
                Mailer(s, config, clock.now()).send(
                    [mail.sender], f"Re: {mail.subject or 'your message'}", "quarantined.txt.j2",
                    kind="reply", in_reply_to=mail.message_id, auto="auto-replied",
                    reference=row.id)
        return "quarantined"


def _ignore_reason(s, config: Config, mail: InboundMail, row: InboundMessage, now: datetime) -> str | None:
    if mail.automated:
        return mail.automated_reason or "automated mail"
    if not mail.sender:
        return "no usable sender address"
    if mail.sender == config.judge_address.lower():
        return "mail from the judge itself"
    recent = repo.messages_from(s, mail.sender, before_id=row.id, since=now - timedelta(hours=1))
    if recent >= config.rate_limit_per_hour:
        return f"rate limit: more than {config.rate_limit_per_hour} messages in an hour"
    return None


def _send_reply(mailer: Mailer, game, mail: InboundMail, reply: Reply, *, ok: bool) -> None:
    subject = f"Re: {mail.subject}" if mail.subject else \
        f"payjudge reply{f' ({reply.game})' if reply.game else ''}"
    if not subject.lower().startswith("re:"):
        subject = "Re: " + subject
    to = [mail.sender, *reply.extra_recipients]
    mailer.send(to, subject[:200], "reply.txt.j2", kind="reply", game=game,
                in_reply_to=mail.message_id, auto="auto-replied", ok=ok, copy_for=None,
                understood=sorted(reply.understood), notes=reply.notes,
                problems=sorted(reply.problems, key=lambda p: p.line or 0),
                ignored=sorted(reply.ignored), game_name=reply.game)
    for address, (power, part) in reply.copies().items():
        if address in (mail.sender, *reply.extra_recipients):
            continue
        mailer.send([address], f"Diplomacy: the Master acted for {power} in {reply.game}",
                    "reply.txt.j2", kind="reply", game=game, auto="auto-generated", ok=ok,
                    understood=sorted(part.understood), notes=part.notes, problems=sorted(part.problems, key=lambda p: p.line or 0),
                    ignored=[], game_name=reply.game, copy_for=power)
