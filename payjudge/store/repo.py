"""Every query the judge makes, as small functions over a session (the only SQL outside
the models). Upper layers never build queries themselves."""

from __future__ import annotations

import functools
import weakref
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Integer, Row, String, Table, bindparam, case, func, insert, or_, select, text, update
from sqlalchemy.orm import Session, aliased, joinedload, with_expression

from ..rules.names import PowerName
from ..vocabulary import GameStatus, InboundState, TurnStatus
from .models import (
    UTC,
    Acceptance,
    CeoVote,
    Game,
    InboundMessage,
    JudgeSetting,
    LedgerEntry,
    Observer,
    OutboxMail,
    Press,
    ShareEntry,
    SignonFailure,
    Submission,
    Turn,
)

# -- games ---------------------------------------------------------------------------------
_GAME_BY_NAME = (
    select(Game).where(Game.name == bindparam("name", type_=String)).options(joinedload(Game.seats))
)
_FAILED_SIGNONS = (
    select(func.count(SignonFailure.id))
    .where(SignonFailure.game_id == Game.id, SignonFailure.at >= bindparam("failures_since", type_=UTC))
    .scalar_subquery()
)
# (only the game's row is locked: the seats come by an outer join)
_COUNTING = _GAME_BY_NAME.options(with_expression(Game.failed_signons, _FAILED_SIGNONS))
_GAMES_BY_NAME = {
    (lock, counting): q.with_for_update(of=Game) if lock else q
    for counting, q in ((False, _GAME_BY_NAME), (True, _COUNTING))
    for lock in (False, True)
}


def game_by_name(
    s: Session, name: str, *, lock: bool = False, failures_since: datetime | None = None
) -> Game | None:
    """The game, with its seats (in the same query: nearly every command by name reads
    them, and a query of their own was one more round trip per message); with
    `failures_since`, `Game.failed_signons` counts the failed sign-ons since then (a
    sign-on's question, in the same query too)."""
    statement = _GAMES_BY_NAME[lock, failures_since is not None]
    params = {"name": name.lower(), "failures_since": failures_since}
    return s.scalars(statement, params).unique().one_or_none()


def game_by_id(s: Session, game_id: int, *, lock: bool = False) -> Game | None:
    q = select(Game).where(Game.id == game_id)
    return s.scalar(q.with_for_update() if lock else q)


def game_exists(s: Session, name: str) -> bool:
    return s.scalar(select(Game.id).where(Game.name == name)) is not None


def games(s: Session, states: Iterable[GameStatus] | None = None, *, seats: bool = False) -> list[Game]:
    """The games (in these `states`), by name; with `seats`, their seats loaded in the same
    query (not one query per game)."""
    q = select(Game).order_by(Game.name)
    if states is not None:
        q = q.where(Game.state.in_(tuple(states)))
    if seats:
        return list(s.scalars(q.options(joinedload(Game.seats))).unique())
    return list(s.scalars(q))


@dataclass(frozen=True)
class GameSearch:
    """Which games the status page lists: those whose name or map holds `words` (any
    case), and only the ended ones (the archive) or only the others, when asked."""

    words: str = ""
    ended: bool | None = None

    def where(self) -> list[Any]:
        out: list[Any] = []
        if self.words:
            like = "%" + self.words.lower().replace("\\", "").replace("%", "").replace("_", "\\_") + "%"
            out.append(
                or_(
                    func.lower(Game.name).like(like, escape="\\"),
                    func.lower(Game.map_name).like(like, escape="\\"),
                )
            )
        over = (GameStatus.COMPLETED, GameStatus.TERMINATED)
        if self.ended is True:
            out.append(Game.state.in_(over))
        elif self.ended is False:
            out.append(Game.state.not_in(over))
        return out


EVERY_GAME = GameSearch()


def games_page(s: Session, offset: int, limit: int, search: GameSearch = EVERY_GAME) -> list[Game]:
    """`limit` games by name from the `offset`-th: a page of the status page's list."""
    query = select(Game).where(*search.where()).order_by(Game.name).offset(offset).limit(limit)
    return list(s.scalars(query))


def game_count(s: Session, search: GameSearch = EVERY_GAME) -> int:
    return s.scalar(select(func.count(Game.id)).where(*search.where())) or 0


def active_game_keys(s: Session, only: list[int] | None = None) -> dict[int, tuple]:
    """Each active game's (version, deadline, ready_at): what the scheduler watches
    change; of the games `only` when given."""
    query = select(Game.id, Game.version, Game.deadline, Game.ready_at).where(Game.state == GameStatus.ACTIVE)
    if only is not None:
        query = query.where(Game.id.in_(only))
    rows = s.execute(query).all()
    return {gid: (version, deadline, ready_at) for gid, version, deadline, ready_at in rows}


def schedule_rows(s: Session, game_ids: list[int], batch: int = 500) -> list[Row[Any]]:
    """What the scheduler needs to know of these games (id, state, deadline, ready_at,
    timing, reminded), read in batches."""
    out: list[Row[Any]] = []
    for start in range(0, len(game_ids), batch):
        out.extend(
            s.execute(
                select(Game.id, Game.state, Game.deadline, Game.ready_at, Game.timing, Game.reminded).where(
                    Game.id.in_(game_ids[start : start + batch])
                )
            ).all()
        )
    return out


def active_game_ids(s: Session) -> list[int]:
    return list(s.scalars(select(Game.id).where(Game.state == GameStatus.ACTIVE).order_by(Game.id)))


# -- turns ---------------------------------------------------------------------------------
def current_turn(s: Session, game: Game) -> Turn | None:
    return s.scalar(
        select(Turn)
        .where(Turn.game_id == game.id, Turn.status == TurnStatus.OPEN)
        .order_by(Turn.seq.desc())
        .limit(1)
    )


def turns(s: Session, game: Game, *, include_rolled_back: bool = False) -> list[Turn]:
    q = select(Turn).where(Turn.game_id == game.id)
    if not include_rolled_back:
        q = q.where(Turn.status != TurnStatus.ROLLED_BACK)
    return list(s.scalars(q.order_by(Turn.seq)))


def last_turn_seq(s: Session, game: Game) -> int:
    return s.scalar(select(func.max(Turn.seq)).where(Turn.game_id == game.id)) or 0


# -- people --------------------------------------------------------------------------------
def observers(s: Session, game: Game) -> list[Observer]:
    """The observers who confirmed their address: the only ones the judge mails."""
    return list(
        s.scalars(
            select(Observer)
            .where(Observer.game_id == game.id, Observer.confirmed_at.is_not(None))
            .order_by(Observer.id)
        )
    )


def observer(s: Session, game: Game, name: str) -> Observer | None:
    """An observer by name, confirmed or not."""
    return s.scalar(select(Observer).where(Observer.game_id == game.id, Observer.name == name))


def observer_places_taken(s: Session, game: Game, pending_since: datetime) -> int:
    """The observers confirmed, and those waiting to confirm since `pending_since`."""
    return (
        s.scalar(
            select(func.count(Observer.id)).where(
                Observer.game_id == game.id,
                or_(Observer.confirmed_at.is_not(None), Observer.joined_at >= pending_since),
            )
        )
        or 0
    )


def games_created_since(s: Session, since: datetime, master: str | None = None) -> int:
    """How many games were created since then (by this Master's address, if given)."""
    q = select(func.count(Game.id)).where(Game.created_at >= since)
    if master is not None:
        q = q.where(Game.master_address == master)
    return s.scalar(q) or 0


def broadcasts_since(s: Session, game: Game, sender: str, since: datetime) -> int:
    """How many broadcasts this sender (a power, MASTER or an observer) made since then."""
    return (
        s.scalar(
            select(func.count(Press.id)).where(
                Press.game_id == game.id,
                Press.sender == sender,
                Press.broadcast.is_(True),
                Press.created_at >= since,
            )
        )
        or 0
    )


# -- submissions and acceptance lists -------------------------------------------------------
def latest_acceptance(s: Session, game: Game, power: PowerName) -> Acceptance | None:
    return s.scalar(
        select(Acceptance)
        .where(Acceptance.game_id == game.id, Acceptance.power == power)
        .order_by(Acceptance.id.desc())
        .limit(1)
    )


def acceptance_history(s: Session, game: Game) -> list[Acceptance]:
    return list(s.scalars(select(Acceptance).where(Acceptance.game_id == game.id).order_by(Acceptance.id)))


def current_submission(s: Session, turn: Turn, power: PowerName) -> Submission | None:
    return s.scalar(
        select(Submission)
        .where(Submission.turn_id == turn.id, Submission.power == power, Submission.current.is_(True))
        .order_by(Submission.id.desc())
        .limit(1)
    )


def current_submissions(s: Session, turn: Turn) -> dict[PowerName, Submission]:
    rows = s.scalars(
        select(Submission)
        .where(Submission.turn_id == turn.id, Submission.current.is_(True))
        .order_by(Submission.id)
    )
    return {r.power: r for r in rows}


def retire_submissions(s: Session, turn: Turn, power: PowerName | None = None) -> None:
    """Mark the current sheet or orders (of one power, or of everyone) as superseded."""
    q = update(Submission).where(Submission.turn_id == turn.id)
    if power is not None:
        q = q.where(Submission.power == power)
    s.execute(q.values(current=False))


# -- the ledger ------------------------------------------------------------------------------
def balances(s: Session, game: Game) -> dict[PowerName, int]:
    rows = s.execute(
        select(LedgerEntry.power, func.sum(LedgerEntry.amount))
        .where(LedgerEntry.game_id == game.id)
        .group_by(LedgerEntry.power)
    ).all()
    # the column holds names the judge wrote: here they become names again
    return {PowerName(power): int(total) for power, total in rows}


def balance(s: Session, game: Game, power: PowerName) -> int:
    total = s.scalar(
        select(func.sum(LedgerEntry.amount)).where(LedgerEntry.game_id == game.id, LedgerEntry.power == power)
    )
    return int(total or 0)


def ledger_entries(s: Session, game: Game, power: PowerName | None = None) -> list[LedgerEntry]:
    q = select(LedgerEntry).where(LedgerEntry.game_id == game.id)
    if power is not None:
        q = q.where(LedgerEntry.power == power)
    return list(s.scalars(q.order_by(LedgerEntry.id)))


# -- the share register (Exchange Payola) -------------------------------------------------------
def holdings(s: Session, game: Game) -> dict[tuple[str, str], int]:
    """Every (company, holder) and the shares it holds: sums of the share ledger."""
    rows = s.execute(
        select(ShareEntry.company, ShareEntry.holder, func.sum(ShareEntry.amount))
        .where(ShareEntry.game_id == game.id)
        .group_by(ShareEntry.company, ShareEntry.holder)
    ).all()
    return {(company, holder): int(total) for company, holder, total in rows}


def share_entries(s: Session, game: Game, company: str | None = None) -> list[ShareEntry]:
    q = select(ShareEntry).where(ShareEntry.game_id == game.id)
    if company is not None:
        q = q.where(ShareEntry.company == company)
    return list(s.scalars(q.order_by(ShareEntry.id)))


def ceo_votes(s: Session, game: Game) -> dict[tuple[str, str], str | None]:
    """Each (voter, company)'s standing CEO vote: its latest row (None: withdrawn)."""
    rows = s.scalars(select(CeoVote).where(CeoVote.game_id == game.id).order_by(CeoVote.id))
    return {(row.voter, row.company): row.candidate for row in rows}


# -- inbound mail ------------------------------------------------------------------------------
# The processor's queries, built once: a statement built per call costs more than the
# query itself (each clause is coerced and a cache key computed on every build).
_WAITING = InboundMessage.state == InboundState.NEW
_DUE = _WAITING & or_(
    InboundMessage.not_before.is_(None), InboundMessage.not_before <= bindparam("now", type_=UTC)
)
_PENDING = {
    due: select(InboundMessage.id, InboundMessage.sender)
    .where(due)
    .order_by(InboundMessage.id)
    .limit(bindparam("limit", type_=Integer))
    for due in (_WAITING, _DUE)
}


def pending_inbound(s: Session, limit: int, now: datetime | None = None) -> list[tuple[int, str | None]]:
    """Messages waiting to be processed, each with its stored sender; with `now`, not
    those deferred beyond it."""
    statement = _PENDING[_WAITING if now is None else _DUE]
    return [(id_, sender) for id_, sender in s.connection().execute(statement, {"limit": limit, "now": now})]


def _answered(sender, exclude_id) -> tuple:
    """The messages answered (processed and not ignored) from `sender`, the message
    `exclude_id` aside, since the bound `since` (the arguments are SQL expressions)."""
    return (
        InboundMessage.sender == sender,
        InboundMessage.id != exclude_id,
        InboundMessage.processed_at >= bindparam("since", type_=UTC),
        InboundMessage.state.in_((InboundState.DONE, InboundState.QUARANTINED)),
        or_(InboundMessage.error.is_(None), ~InboundMessage.error.startswith("ignored")),
    )


@dataclass(frozen=True, slots=True)
class Claimed:
    """What the processor reads of a message it claimed: the row's columns, not an ORM
    object (its changes are written by primary key at the end of the batch)."""

    id: int
    raw: bytes
    sender: str | None
    envelope_from: str | None
    attempts: int
    redacted: bool
    source: str = ""
    source_key: str | None = None  # the web's "web:<session>:<nonce>" (game/websend.py)


_CLAIMED = aliased(InboundMessage, name="claimed")
# the claim and the rate limit's question in one query (one round trip less per message)
_CLAIM_COUNTING = (
    select(
        _CLAIMED.id,
        _CLAIMED.raw,
        _CLAIMED.sender,
        _CLAIMED.envelope_from,
        _CLAIMED.attempts,
        _CLAIMED.redacted,
        select(InboundMessage.processed_at)
        .where(*_answered(_CLAIMED.sender, _CLAIMED.id))
        .order_by(InboundMessage.processed_at.desc())
        .limit(1)
        .offset(bindparam("nth", type_=Integer))
        .correlate(_CLAIMED)
        .scalar_subquery(),
        _CLAIMED.source,
        _CLAIMED.source_key,
    )
    .where(_CLAIMED.id == bindparam("inbound_id", type_=Integer), _CLAIMED.state == InboundState.NEW)
    .where(or_(_CLAIMED.not_before.is_(None), _CLAIMED.not_before <= bindparam("now", type_=UTC)))
    .with_for_update(of=_CLAIMED, skip_locked=True)
)


def claim_inbound_counting(
    s: Session, inbound_id: int, now: datetime, *, since: datetime, limit: int
) -> tuple[Claimed | None, datetime | None]:
    """The message, locked for this transaction, if it still waits and is due (another
    processor skips it); and for its stored sender what `inbound_answered_since` would
    tell the rate limit: when the `limit`-th latest answer since `since` was (None: fewer
    answers than that)."""
    found = (
        s.connection()
        .execute(
            _CLAIM_COUNTING, {"inbound_id": inbound_id, "now": now, "since": since, "nth": max(0, limit - 1)}
        )
        .first()
    )
    if found is None:
        return None, None
    return Claimed(*found[:6], source=found[7], source_key=found[8]), found[6]


_OUTBOX_COLUMNS = frozenset(column.key for column in OutboxMail.__table__.columns)
_INSERT_OUTBOX = insert(OutboxMail)


def insert_outbox(s: Session, mails: list[OutboxMail]) -> None:
    """Write mail made but not added to the session, in one executemany (a Core
    statement: nothing reads their ids, and the ORM's flush of them cost more than the
    statement for a batch of one)."""
    if mails:
        # the values the mail was made with (`Mailer.send` sets the same ones on every
        # mail); the columns it leaves alone take their defaults
        rows = [{k: v for k, v in vars(mail).items() if k in _OUTBOX_COLUMNS} for mail in mails]
        s.connection().execute(_INSERT_OUTBOX, rows)


def update_inbound(s: Session, rows: list[dict[str, Any]]) -> None:
    """Give stored messages new values, each dict a row's `id` and its new values: one
    executemany for each set of columns (a Core statement: the ORM's bulk update by
    primary key cost more than the statement itself for a batch of one, SQLite's)."""
    by_columns: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for row in rows:
        by_columns.setdefault(tuple(sorted(row)), []).append(row)
    connection = s.connection()
    for columns, group in by_columns.items():
        connection.execute(
            _inbound_update(columns), [{f"new_{k}": v for k, v in row.items()} for row in group]
        )


@functools.cache
def _inbound_update(columns: tuple[str, ...]):
    table = InboundMessage.__table__
    assert isinstance(table, Table)
    return (
        update(table)
        .where(table.c.id == bindparam("new_id"))
        .values({name: bindparam(f"new_{name}") for name in columns if name != "id"})
    )


def quarantine(s: Session, inbound_id: int, error: str, now: datetime) -> None:
    s.execute(
        update(InboundMessage)
        .where(InboundMessage.id == inbound_id)
        .values(state=InboundState.QUARANTINED, error=error, processed_at=now)
    )


def inbound_messages(s: Session) -> list[InboundMessage]:
    return list(s.scalars(select(InboundMessage).order_by(InboundMessage.id)))


def quarantined(s: Session, ids: Iterable[int] | None = None) -> list[InboundMessage]:
    q = select(InboundMessage).where(InboundMessage.state == InboundState.QUARANTINED)
    if ids is not None:
        q = q.where(InboundMessage.id.in_(tuple(ids)))
    return list(s.scalars(q.order_by(InboundMessage.id)))


def requeue(s: Session, ids: Iterable[int]) -> int:
    ids = tuple(ids)
    if ids:
        s.execute(
            update(InboundMessage)
            .where(InboundMessage.id.in_(ids), InboundMessage.state == InboundState.QUARANTINED)
            # its attempts start again from none: its second would set it aside at once
            .values(state=InboundState.NEW, error=None, not_before=None, attempts=0)
        )
    return len(ids)


def ping(s: Session) -> None:
    s.execute(text("SELECT 1"))


_ANSWERED_SINCE = (
    select(InboundMessage.processed_at)
    .where(*_answered(bindparam("sender", type_=String), bindparam("exclude_id", type_=Integer)))
    .order_by(InboundMessage.processed_at.desc())
    .limit(bindparam("limit", type_=Integer))
)


def inbound_answered_since(
    s: Session, sender: str, *, exclude_id: int, since: datetime, limit: int
) -> list[datetime]:
    """When the latest `limit` messages from `sender` were processed (newest first),
    counting only those processed since `since` and not ignored. A Core query, so without
    flushing first: the changes pending are those of the message being processed, which
    is excluded."""
    parameters = {"sender": sender, "exclude_id": exclude_id, "since": since, "limit": limit}
    times = s.connection().execute(_ANSWERED_SINCE, parameters).scalars()
    return [at for at in times if at is not None]  # (none is: processed_at >= since)


# -- sign-on failures --------------------------------------------------------------------------
def signon_failure_times(
    s: Session, game_id: int, who: str, *, trusted: bool, since: datetime
) -> list[datetime]:
    return list(
        s.scalars(
            select(SignonFailure.at)
            .where(
                SignonFailure.game_id == game_id,
                SignonFailure.who == who,
                SignonFailure.trusted.is_(trusted),
                SignonFailure.at >= since,
            )
            .order_by(SignonFailure.at)
        )
    )


def add_signon_failure(
    s: Session, *, game_id: int, who: str, trusted: bool, sender: str, inbound_id: int | None, at: datetime
) -> bool:
    """Record a failure; False if this message's failure was recorded already."""
    if (
        inbound_id is not None
        and s.scalar(select(SignonFailure.id).where(SignonFailure.inbound_id == inbound_id)) is not None
    ):
        return False
    s.add(
        SignonFailure(
            game_id=game_id, who=who, trusted=trusted, sender=sender[:254], inbound_id=inbound_id, at=at
        )
    )
    s.flush()
    return True


def judge_setting(s: Session, name: str) -> str | None:
    with s.no_autoflush:  # a row of its own: nothing pending changes it
        row = s.get(JudgeSetting, name)
    return row.value if row is not None else None


_constants: weakref.WeakKeyDictionary[Any, dict[str, str]] = weakref.WeakKeyDictionary()


def judge_constant(s: Session, name: str) -> str | None:
    """A judge setting written once (by a migration: the redaction salt) and never
    changed: read once per database (engine) and process."""
    known = _constants.setdefault(s.get_bind(), {})
    if name not in known:
        value = judge_setting(s, name)
        if value is None:
            return None
        known[name] = value
    return known[name]


def outbox_mails(s: Session, *, newest: int, recipient: str | None = None) -> list[OutboxMail]:
    """The `newest` mails of the outbox, newest first (`recipient`: only those to it), for
    `payjudge outbox show`; sent ones too: the table keeps every mail the judge made."""
    query = select(OutboxMail).order_by(OutboxMail.id.desc())
    if recipient is None:
        return list(s.scalars(query.limit(newest)))
    wanted = recipient.lower()
    found: list[OutboxMail] = []
    for mail in s.scalars(query.execution_options(yield_per=200)):
        if wanted in (r.lower() for r in mail.recipients):
            found.append(mail)
            if len(found) == newest:
                break
    return found


@dataclass(frozen=True, slots=True)
class Started:
    """A message whose attempt was counted: what reading it needs."""

    attempts: int  # counting this one
    raw: bytes
    envelope_from: str | None


def start_attempts(s: Session, ids: list[int], now: datetime, lease_until: datetime) -> dict[int, Started]:
    """Count an attempt at each message of `ids` that still waits and is due, before it
    is read (so that a processor killed or crashed on it has counted it), and lease it to
    `lease_until` (another processor's pass takes it for not due meanwhile): the messages
    counted, by id (one statement, which returns the raw messages too)."""
    table = InboundMessage.__table__
    assert isinstance(table, Table)
    rows = s.connection().execute(
        update(table)
        .where(
            table.c.id.in_(ids),
            table.c.state == InboundState.NEW,
            or_(table.c.not_before.is_(None), table.c.not_before <= now),
        )
        .values(attempts=table.c.attempts + 1, not_before=lease_until)
        .returning(table.c.id, table.c.attempts, table.c.raw, table.c.envelope_from)
    )
    return {row[0]: Started(row[1], row[2], row[3]) for row in rows}


def end_leases(s: Session, now: datetime) -> int:
    """At the start of the only processor of a database (a SQLite file's daemon): end the
    leases a killed processor left on the messages it was reading, so that they are taken
    again at once, not when the lease runs out. A message waiting for its sender's rate
    limit is let go too: the processor's claim asks the rate limit again and sets it back
    to wait. Returns how many were let go."""
    table = InboundMessage.__table__
    assert isinstance(table, Table)
    done = s.connection().execute(
        update(table)
        .where(table.c.state == InboundState.NEW, table.c.attempts > 0, table.c.not_before > now)
        .values(not_before=None)
    )
    return int(done.rowcount or 0)


def end_attempts(s: Session, ids: list[int], lease_until: datetime) -> None:
    """Take back the attempts counted at the messages of `ids` that still wait (their
    pass ended before them), and end the lease taken with them."""
    table = InboundMessage.__table__
    assert isinstance(table, Table)
    s.connection().execute(
        update(table)
        .where(table.c.id.in_(ids), table.c.state == InboundState.NEW)
        .values(
            attempts=case((table.c.attempts > 0, table.c.attempts - 1), else_=0),
            not_before=case((table.c.not_before == lease_until, None), else_=table.c.not_before),
        )
    )
