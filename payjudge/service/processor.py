"""Process stored inbound messages, each all or nothing, several per transaction.

A message is all or nothing: if any of its commands is refused, its work is rolled back
and only the reply (naming every bad line) is written. The messages waiting are
processed in batches, one transaction each (one commit, so one `fsync` on PostgreSQL,
per batch rather than per message); the replies are outbox rows of the same
transaction, so none goes out before its message's outcome is committed, and a crash
mid-batch leaves every message of the batch waiting, to be processed again. The writes
every message ends with (its reply, its row marked done) wait for the batch's end, a
statement for them all (`_Held`). A message
whose work raises (refused, or a failure of ours) has the batch rolled back and the
messages before it processed again without it (`_process_batch`). A message that makes
processing crash is quarantined with its traceback; the sender is told it was set
aside, and the loop goes on. A sender over the rate limit waits (the message stays,
with a time before which it is not looked at again), unless the message signs on with
its password. Once processed, a message's passwords are redacted from the stored copy.

Parse before you lock (issue 26): a message is read (its MIME structure, charset, HTML
and command lines) before its batch's transaction opens, so a slow read never holds
SQLite's write lock, for which the listener waits. Its attempt is counted first, in a
short transaction of its own, so a read or a run that never ends (the process killed,
or crashed) still counts: a message whose second attempt did not finish either is
quarantined when it comes back a third time (one kill of the daemon mid-message costs
nothing: the message is processed after the restart), and so is one that spends its CPU
budget (`service.budget`). Counting an attempt also leases the message for the setting
`lease_seconds`, so that a second daemon on the same PostgreSQL leaves it alone while it
is read.
"""

from __future__ import annotations

import enum
import logging
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from ..config import Config
from ..game import webreceipt, websend
from ..game.context import Context, Reply
from ..game.mailer import Mailer
from ..game.security import FailedSignon, password_token, record_failure, redaction_salt
from ..game.timing import Timing
from ..ports import Clock
from ..store import Session, repo
from ..store.db import Database, transient
from ..store.models import InboundMessage, OutboxMail
from ..text.commands import Script, split_commands
from ..text.message import InboundMail, read_message
from ..text.redaction import headers_only, rebuild_message, redact_body, scrub_secrets
from ..text.visible import visible
from ..vocabulary import InboundState, MailKind, OutboxState
from . import budget
from .execute import execute

log = logging.getLogger("payjudge.processor")


class _Undo(Exception):
    """Roll the message's changes back; the reply is written afterwards."""

    def __init__(self, reply: Reply, mail: InboundMail, failure: FailedSignon | None = None):
        self.reply = reply
        self.mail = mail
        self.failure = failure


class _Defer(Exception):
    """Roll back and let the message wait: its sender is over the rate limit."""

    def __init__(self, until: datetime, sender: str, failure: FailedSignon | None = None):
        self.until = until
        self.sender = sender
        self.failure = failure


# A batch ends after this many messages or once its transaction has been open this long
# (its replies wait for its commit). On SQLite a batch is one message: a commit there
# costs no fsync (WAL, synchronous=NORMAL), and the listener, storing mail, waits for
# the write lock while a batch holds it (batches of 15 and 50 ms were tried with the
# processor in its own process: 212 and 193 answered msg/s, against 209-227 for one).
RATE_WINDOW = timedelta(hours=1)  # `rate_limit_per_hour` counts the answers in it
BATCH_MESSAGES = 25
BATCH_SECONDS = {"sqlite": 0.0, "postgresql": 0.1}
# How long counting an attempt keeps other processors off a message is the setting
# `lease_seconds` (30 s): reading a batch ahead takes milliseconds (each message at most
# its budget, and a lease that ran out costs no more than an attempt counted twice); a
# message whose processor died waits this long after the count before it is tried again.
UNFINISHED_ATTEMPTS = 2  # a message starting its next attempt after this many is set aside
UNFINISHED = (
    "two attempts to process this message did not finish (the processor was stopped or "
    "crashed while at it): it is set aside rather than tried a third time"
)


class SetAside(enum.Enum):
    """Why a message was quarantined, as its sender is told (`quarantined.txt.j2`)."""

    CRASH = "crash"  # its processing failed: a fault of ours
    BUDGET = "budget"  # it spent its CPU budget
    UNFINISHED = "unfinished"  # an earlier attempt at it never finished


@dataclass(frozen=True)
class _Read:
    """A message read before its transaction, and the CPU time its reading took."""

    mail: InboundMail
    script: Script
    spent: float


@dataclass
class _Pass:
    """What one pass over the waiting messages (`process_pending`) keeps across its
    batches: the messages whose attempt it counted, and those it read (None: set aside
    while being read)."""

    lease: datetime  # the time the counted messages are leased until
    counted: set[int] = field(default_factory=set)
    read: dict[int, _Read | None] = field(default_factory=dict)


def pending(db: Database, limit: int = 100, now: datetime | None = None) -> list[tuple[int, str | None]]:
    """The messages due, each with the sender stored at receipt, oldest first."""
    with db.reading() as s:  # the claim checks again: no write lock needed to look
        return repo.pending_inbound(s, limit, now)


def process_pending(
    db: Database,
    config: Config,
    clock: Clock,
    limit: int = 100,
    committed: Callable[[], None] | None = None,
) -> int:
    """Process the messages that are due, in batches; returns how many were looked at.
    `committed` is called once `BATCH_MESSAGES` more messages are committed (the daemon
    wakes the sender; it does again when this returns)."""
    now = clock.now()
    ids = pending(db, limit, now)
    passing = _Pass(lease=now + timedelta(seconds=config.lease_seconds))
    done = told = 0
    try:
        while done < len(ids):
            chunk = ids[done : done + _batch_size(db)]
            _prepare(db, config, clock, [inbound_id for inbound_id, _ in chunk], passing)
            step = _process_batch(db, config, clock, chunk, passing)
            for inbound_id, _ in chunk[:step]:
                passing.read.pop(inbound_id, None)
            done += step
            # every BATCH_MESSAGES messages, not every batch: on SQLite a batch is one
            # message, and a pass of the sender per message costs a write of its own
            if committed is not None and done - told >= BATCH_MESSAGES:
                committed()
                told = done
    except BaseException:
        # the database failed (or we are stopping): the messages not done wait for the
        # next pass, and this one's attempts were not theirs to count
        _uncount(db, passing)
        raise
    return done


def _batch_size(db: Database) -> int:
    return BATCH_MESSAGES if BATCH_SECONDS.get(db.engine.dialect.name, 0.0) else 1


def _prepare(db: Database, config: Config, clock: Clock, ids: list[int], passing: _Pass) -> None:
    """Count an attempt at each message of `ids` not counted yet in this pass, and read
    it, outside any transaction: the slow part of a hostile message holds no lock. A
    message whose two earlier attempts did not finish, whose reading spends its CPU
    budget or crashes, is quarantined here."""
    fresh = [inbound_id for inbound_id in ids if inbound_id not in passing.counted]
    if not fresh:
        return
    with db.transaction() as s:
        counted = repo.start_attempts(s, fresh, clock.now(), passing.lease)
        passing.counted.update(counted)
        for inbound_id, started in counted.items():
            if started.attempts > UNFINISHED_ATTEMPTS:
                passing.read[inbound_id] = None
                _quarantine(s, config, clock, inbound_id, UNFINISHED, None, SetAside.UNFINISHED)
    for inbound_id in fresh:
        if inbound_id not in counted or inbound_id in passing.read:
            continue  # done, or another processor's, or set aside
        try:
            passing.read[inbound_id] = _read(
                config, counted[inbound_id].raw, counted[inbound_id].envelope_from
            )
        except Exception as exc:  # OverBudget, or the email package's RecursionError
            passing.read[inbound_id] = None
            if isinstance(exc, budget.OverBudget):
                error, why = str(exc), SetAside.BUDGET
            else:
                error, why = "".join(traceback.format_exception(exc)), SetAside.CRASH
            with db.transaction() as s:
                _quarantine(s, config, clock, inbound_id, error, None, why)


def _read(config: Config, raw: bytes, envelope_from: str | None) -> _Read:
    """Read a message within its CPU budget (`budget.OverBudget` when it spends it)."""
    started = time.thread_time()
    with budget.message_budget(config.message_cpu_seconds), budget.interrupting():
        mail = read_message(raw, envelope_from=envelope_from)
        script = split_commands([(line.number, line.text) for line in mail.lines])
    return _Read(mail, script, time.thread_time() - started)


def _uncount(db: Database, passing: _Pass) -> None:
    """Take back this pass's attempts at the messages that still wait (best effort: the
    database may be what failed)."""
    if not passing.counted:
        return
    try:
        with db.transaction() as s:
            repo.end_attempts(s, sorted(passing.counted), passing.lease)
    except Exception:
        log.warning("the attempts of an interrupted pass could not be taken back", exc_info=True)


@dataclass
class _Held:
    """The writes every message of a batch ends with, held to its end and written there
    in one statement each: on PostgreSQL two round trips of the five or six a message
    costs, a statement for the whole batch instead (the reply rows in one INSERT, the
    rows marked done in one executemany). They are written in the batch's transaction,
    before its commit, so nothing changes about what is committed together.

    The rate limit counts the answers of a sender, and a sender's earlier message in
    the batch is not in the table yet: `answered` keeps when each stored sender was
    answered in the batch, and `_answer` counts those too."""

    outbox: list[OutboxMail] = field(default_factory=list)
    done: list[dict] = field(default_factory=list)  # each a row's primary key and new values
    answered: dict[str, list[datetime]] = field(default_factory=dict)  # by stored sender, in order

    def write(self, s: Session) -> None:
        repo.insert_outbox(s, self.outbox)
        repo.update_inbound(s, self.done)


def _process_batch(
    db: Database, config: Config, clock: Clock, ids: list[tuple[int, str | None]], passing: _Pass
) -> int:
    """Process messages from the start of `ids` in one transaction, as many as a batch
    holds (`BATCH_MESSAGES` within `BATCH_SECONDS`; one where there is no time, as on
    SQLite); returns how many were processed.

    A message's work runs in the transaction itself, without a savepoint (a savepoint and
    its release would be two round trips more per message on PostgreSQL), and is flushed
    at its end, so that a write that fails is the message's failure and not the
    commit's; only its reply and its mark wait for the batch's end (`_Held`, whose
    failure sends the batch's messages through one at a time). Should message k raise
    (refused, over the rate limit, a failure of ours), the transaction is rolled back
    whole, the k messages before it, which went through, are processed again in a
    transaction of their own, and message k then heads the next batch: alone at the
    head, its refusal, wait or quarantine is written in the transaction after its
    rollback (`_undone`). A refusal so costs at most the
    `BATCH_MESSAGES - 1` messages before it a second run; messages that go through cost
    one commit per batch. A failure of the database itself (a lost connection, a deadlock,
    a lock not had, the commit: `store.db.transient`) is raised: the messages wait for
    the next pass."""
    seconds = BATCH_SECONDS.get(db.engine.dialect.name, 0.0)
    size = _batch_size(db)
    try:
        with db.transaction() as s:
            started, done, held = time.monotonic(), 0, _Held()
            for done, (inbound_id, stored_sender) in enumerate(ids[:size], start=1):
                try:
                    _answer(s, config, clock, inbound_id, stored_sender, held, passing)
                    s.flush()
                except Exception as exc:
                    if transient(exc):
                        raise  # the database's failure, not the message's: it waits
                    raise _RolledBack(done - 1, exc) from exc
                # the next message reads everything afresh, as in a session of its own
                s.expunge_all()
                if time.monotonic() - started >= seconds:
                    break
            try:
                held.write(s)
            except Exception as exc:
                if transient(exc):
                    raise
                # not one message's failure that can be told: each of them alone, the
                # first now, so that the one whose writes fail is quarantined
                raise _RolledBack(1 if done > 1 else 0, exc) from exc
            return done
    except _RolledBack as rolled:
        if rolled.at:
            return _process_batch(db, config, clock, ids[: rolled.at], passing)
        read = passing.read.get(ids[0][0])
        with db.transaction() as s:
            _undone(s, config, clock, ids[0][0], rolled.cause, read.mail if read else None)
        return 1


class _RolledBack(Exception):
    """Raised out of a batch's transaction so that it rolls back: the work of its message
    number `at` (from 0) raised `cause`."""

    def __init__(self, at: int, cause: Exception):
        super().__init__(cause)
        self.at = at
        self.cause = cause


def _undone(
    s: Session, config: Config, clock: Clock, inbound_id: int, exc: Exception, mail: InboundMail | None
) -> None:
    """What becomes of a message whose work was rolled back because it raised `exc`: it
    waits (over the rate limit), its sender is told why it was refused, or it is
    quarantined (a failure of ours, or its CPU budget spent)."""
    if isinstance(exc, _Defer):
        defer = exc
        with s.begin_nested():
            row = _stored(s, inbound_id)
            row.not_before = defer.until
            row.attempts = max(0, row.attempts - 1)  # waiting its turn is no attempt
            if defer.failure is not None:
                _record_failure(s, config, clock.now(), defer.failure, defer.sender, inbound_id)
        log.info(
            "message %s from %s waits until %s (rate limit)",
            inbound_id,
            defer.sender,
            defer.until.isoformat(timespec="seconds"),
        )
        return
    if isinstance(exc, _Undo):
        undo = exc
        try:
            with s.begin_nested():
                row = _stored(s, inbound_id)
                now = clock.now()
                mailer = Mailer(s, config, now)
                game = repo.game_by_name(s, undo.reply.game) if undo.reply.game else None
                if undo.failure is not None:
                    _record_failure(s, config, now, undo.failure, undo.mail.sender or "", inbound_id)
                web = websend.web_party(s, row.source, row.source_key, now)
                _send_reply(
                    mailer, game, undo.mail, undo.reply, ok=False, state=webreceipt.reply_state(game, web)
                )
                row.state, row.processed_at = InboundState.DONE, now
                _redact(s, row, undo.mail)
            return
        except Exception:  # the error reply itself cannot be written
            _quarantine(s, config, clock, inbound_id, traceback.format_exc(), undo.mail)
        return
    if isinstance(exc, budget.OverBudget):
        _quarantine(s, config, clock, inbound_id, str(exc), mail, SetAside.BUDGET)
        return
    _quarantine(s, config, clock, inbound_id, "".join(traceback.format_exception(exc)), mail)


def _answer(
    s: Session,
    config: Config,
    clock: Clock,
    inbound_id: int,
    stored_sender: str | None,
    held: _Held,
    passing: _Pass,
) -> None:
    """Run the message's commands and write its reply (both held in `held`); raises
    `_Defer` (over the rate limit) or `_Undo` (a command refused), after which the caller
    rolls back."""
    now = clock.now()
    if inbound_id not in passing.counted:
        return  # another processor's (it counted the attempt): not even locked here
    row, nth_answer = _claim(s, config, now, inbound_id, stored_sender, held, passing)
    if row is None:
        return  # done, or set aside while it was read
    read = passing.read.get(inbound_id)
    if read is None:  # (always read ahead; a message set aside is no longer claimed)
        read = passing.read[inbound_id] = _read(config, row.raw, row.envelope_from)
    mail = read.mail
    reason = _ignore_reason(config, mail)
    if reason:
        log.info("ignoring message %s: %s", inbound_id, visible(reason))  # (a header's words)
        _done(s, held, row, now, None, error=f"ignored: {reason}")
        return
    sender = mail.sender
    assert sender is not None  # _ignore_reason sets aside mail without a sender
    # the claim's count is for it (row.sender == stored_sender)
    if sender == row.sender and config.rate_limit_per_hour > 0:
        limited = nth_answer + RATE_WINDOW if nth_answer is not None else None
    else:
        limited = _rate_limited(s, config, sender, row, now, held)
    commands = read.script.commands
    signs_on = bool(commands) and commands[0].keyword in ("SIGNON", "RESIGN")
    if limited is not None and not signs_on:
        raise _Defer(limited, sender)
    mailer = Mailer(s, config, now, hold=held.outbox)
    ctx = _run(s, config, now, row, read, mailer)
    if limited is not None and ctx.actor is None:
        # over the limit, only a message that signs on with its password goes on
        raise _Defer(limited, sender, ctx.signon_failure)
    if ctx.reply.problems:
        raise _Undo(ctx.reply, mail, ctx.signon_failure)
    if ctx.state is not None:
        ctx.state.game.version += 1
    game = ctx.state.game if ctx.state else None
    _send_reply(mailer, game, mail, ctx.reply, ok=True, state=webreceipt.reply_state(game, ctx.web_party))
    _done(s, held, row, now, mail)
    if row.sender is not None:
        held.answered.setdefault(row.sender, []).append(now)


def _claim(
    s: Session,
    config: Config,
    now: datetime,
    inbound_id: int,
    stored_sender: str | None,
    held: _Held,
    passing: _Pass,
) -> tuple[repo.Claimed | None, datetime | None]:
    """The message locked for this transaction (None: done, or set aside), and for its
    stored sender when the answer that the rate limit counts back to was."""
    limit = config.rate_limit_per_hour
    # the claim counts the stored answers; those held in this batch are the latest
    earlier = held.answered.get(stored_sender, []) if stored_sender is not None else []
    # due by the lease's end: the lease this pass took when it counted the attempt
    row, nth_answer = repo.claim_inbound_counting(
        s, inbound_id, max(now, passing.lease), since=now - RATE_WINDOW, limit=max(1, limit - len(earlier))
    )
    if row is not None and earlier and len(earlier) >= limit > 0:
        nth_answer = earlier[-limit]
    return row, nth_answer


def _run(
    s: Session, config: Config, now: datetime, row: repo.Claimed, read: _Read, mailer: Mailer
) -> Context:
    """Execute the message's commands in a new context, within the message's CPU budget;
    a message the judge refuses to read runs none."""
    mail, script = read.mail, read.script
    reply = Reply()
    ctx = Context(
        session=s,
        config=config,
        now=now,
        sender=mail.sender or "",
        message_id=mail.message_id,
        reply=reply,
        mailer=mailer,
        inbound_id=row.id,
        web_party=websend.web_party(s, row.source, row.source_key, now),
    )
    for problem in mail.problems:
        if problem.refused:
            reply.problem(None, "", problem.message)
    if reply.problems:
        script = Script(())  # a message the judge refuses to read runs no command
    elif not script.commands and not script.problems:
        reply.problem(None, "", "the message has no commands (HELP lists them)")
    # the CPU time the reading took is the message's too
    with budget.message_budget(max(config.message_cpu_seconds - read.spent, 1e-9)):
        execute(ctx, script)
    return ctx


def _done(
    s: Session, held: _Held, row: repo.Claimed, now: datetime, mail: InboundMail | None, **values
) -> None:
    """Mark the message processed, redacted, at the batch's end."""
    # (the attempt was counted before the message was read: `_prepare`)
    new = {"id": row.id, "state": InboundState.DONE, "processed_at": now, "attempts": row.attempts}
    raw = _redacted_raw(s, row, mail)
    if raw is not None:
        new["raw"] = raw
    held.done.append(new | values | {"redacted": True})


def _stored(s, inbound_id: int) -> InboundMessage:
    """A stored message: the processor never deletes one, so it is there."""
    row = s.get(InboundMessage, inbound_id)
    if row is None:
        raise LookupError(f"inbound message {inbound_id} is not in the store")
    return row


def _quarantine(
    s: Session,
    config: Config,
    clock: Clock,
    inbound_id: int,
    error: str,
    mail: InboundMail | None,
    why: SetAside = SetAside.CRASH,
) -> None:
    """Set the message aside with its traceback (its passwords masked), and tell its
    sender. The message is never read again here (reading it may be what failed): the
    sender is `mail`'s when it was read, else the one stored at receipt."""
    row = _stored(s, inbound_id)
    if mail is not None:
        error = scrub_secrets(error, mail.body)
    error = error if len(error) <= 20_000 else "…\n" + error[-20_000:]  # a RecursionError's frames
    log.error("message %s quarantined:\n%s", inbound_id, error)
    with s.begin_nested():
        repo.quarantine(s, inbound_id, error, clock.now())
        if mail is not None:
            to, automated, subject, msgid = mail.sender, mail.automated, mail.subject, mail.message_id
        else:
            # what the store read from the headers when the message came in
            to, automated, subject, msgid = row.sender, row.envelope_from == "", None, row.message_id
        if to and not automated and to != config.judge_address.lower():
            Mailer(s, config, clock.now()).send(
                [to],
                f"Re: {subject or 'your message'}"[:200],
                "quarantined.txt.j2",
                kind=MailKind.REPLY,
                in_reply_to=msgid,
                auto="auto-replied",
                reference=row.id,
                why=why,
            )
        if mail is not None:
            _redact(s, row, mail)


def _record_failure(
    s, config: Config, now: datetime, failure: FailedSignon, sender: str, inbound_id: int
) -> None:
    game = repo.game_by_id(s, failure.game_id)
    zone = Timing.from_json(game.timing).zone if game is not None else "UTC"
    record_failure(
        s, config, Mailer(s, config, now), failure, sender=sender, inbound_id=inbound_id, now=now, zone=zone
    )


def _redact(s, row: InboundMessage, mail: InboundMail | None) -> None:
    """Redact the stored message now (`_redacted_raw`)."""
    raw = _redacted_raw(s, row, mail)
    if raw is not None:
        row.raw = raw
    row.redacted = True


def _redacted_raw(s, row: InboundMessage | repo.Claimed, mail: InboundMail | None) -> bytes | None:
    """What the stored message becomes once processed, None if it stays as it is. It
    keeps no password: each is replaced by its token (`security.password_token`), the
    message rebuilt as one text part that reads as the original did, so `payjudge
    replay` does what the original did. A message that was never read (ignored) keeps
    its headers only."""
    if row.redacted:
        return None
    if mail is None:
        return headers_only(row.raw)
    salts: list[str] = []  # read only for a message that holds a password (most do not)

    def token(word: str) -> str:
        if not salts:
            salts.append(redaction_salt(s))
        return password_token(salts[0], word)

    body = redact_body(mail.body, token)
    return rebuild_message(row.raw, body) if body != mail.body else None


def _ignore_reason(config: Config, mail: InboundMail) -> str | None:
    if mail.automated:
        return mail.automated_reason or "automated mail"
    if not mail.sender:
        return "no usable sender address"
    if mail.sender == config.judge_address.lower():
        return "mail from the judge itself"
    return None


def _rate_limited(
    s, config: Config, sender: str, row: repo.Claimed, now: datetime, held: _Held
) -> datetime | None:
    """When the sender may be answered again, if it was answered `rate_limit_per_hour`
    times in the last hour (in this batch too). From can be forged, so being over the
    limit never drops a message: it waits its turn, and one that signs on with its
    password goes at once."""
    limit = config.rate_limit_per_hour
    if limit <= 0:
        return None  # no limit (it quarantined every message before: an empty list's last)
    stored = repo.inbound_answered_since(s, sender, exclude_id=row.id, since=now - RATE_WINDOW, limit=limit)
    times = sorted([*held.answered.get(sender, []), *stored], reverse=True)[:limit]
    if len(times) < limit:
        return None
    return times[-1] + RATE_WINDOW


def _reply_to(
    mail: InboundMail, reply: Reply, state: OutboxState
) -> list[tuple[list[str | None], OutboxState]]:
    """Who gets the reply, and how it is written: the sender, and the addresses a command
    added (an address changed: the old and the new one). Only the sender's copy is ever
    kept from the mail (its receipt turned off on the web page, `game/webreceipt.py`)."""
    if state is OutboxState.PENDING:
        return [([mail.sender, *reply.extra_recipients], state)]
    sender = (mail.sender or "").lower()
    others = [a for a in reply.extra_recipients if a and a.lower() != sender]
    return [([mail.sender], state), (list(others), OutboxState.PENDING)]


def _send_reply(
    mailer: Mailer,
    game,
    mail: InboundMail,
    reply: Reply,
    *,
    ok: bool,
    state: OutboxState = OutboxState.PENDING,
) -> None:
    subject = (
        f"Re: {mail.subject}" if mail.subject else f"payjudge reply{f' ({reply.game})' if reply.game else ''}"
    )
    if not subject.lower().startswith("re:"):
        subject = "Re: " + subject
    to = [mail.sender, *reply.extra_recipients]
    skipped = mail.skipped
    reply.skipped = {
        "quoted": skipped.quoted,
        "comments": skipped.comments,
        "after_" + (skipped.end or "end"): skipped.after_end,
    }
    view = reply.view(ok=ok)
    for recipients, written in _reply_to(mail, reply, state):
        mailer.send(
            recipients,
            subject[:200],
            "reply.txt.j2",
            kind=MailKind.REPLY,
            game=game,
            in_reply_to=mail.message_id,
            auto="auto-replied",
            outbox_state=written,
            v=view,
        )
    # the parts others get: each power's of the Master's FOR sections, the Master's of a
    # player's order update under ALWAYS_CONFIRM (none for an address the reply went to)
    parts = [
        (
            address,
            f"Diplomacy: the Master acted for {power} in {reply.game}",
            part.copy_view(ok=ok, copy_for=power),
        )
        for address, (power, part) in reply.copies().items()
    ]
    confirmation = reply.master_copy()
    if confirmation is not None:
        address, power, part = confirmation
        subject = f"Diplomacy: {power}'s orders in {reply.game} (ALWAYS_CONFIRM)"
        parts.append((address, subject, part.copy_view(ok=ok, confirm_for=power)))
    for address, subject, view in parts:
        if address not in to:
            mailer.send(
                [address],
                subject,
                "reply.txt.j2",
                kind=MailKind.REPLY,
                game=game,
                auto="auto-generated",
                v=view,
            )
