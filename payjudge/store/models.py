"""The SQL schema: games, seats, phases, submissions, the money ledger, press, mail.

Positions, reports and charts are JSON documents (the judge-json shapes); money is an
append-only ledger whose sums are the balances; raw mail is kept as bytes.
"""

from __future__ import annotations

from datetime import UTC as UTC_ZONE  # (UTC below is the column type)
from datetime import datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, query_expression, relationship
from sqlalchemy.types import TypeDecorator

from ..rules.names import PowerName
from ..rules.phase import Phase
from ..text.votes import Vote
from ..vocabulary import (
    GameStatus,
    InboundState,
    LedgerKind,
    MailKind,
    OutboxState,
    SeatKind,
    SeatStatus,
    ShareKind,
    SubmissionKind,
    TurnStatus,
)
from .types import EnumText, PhaseText, VoteText

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UTCDateTime(TypeDecorator):
    """Timezone-aware UTC in, timezone-aware UTC out, on SQLite as on PostgreSQL."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the store")
        value = value.astimezone(UTC_ZONE)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value, dialect):
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC_ZONE)
        return value.astimezone(UTC_ZONE)


UTC = UTCDateTime()


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class Game(Base):
    __tablename__ = "game"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(32), unique=True)
    variant: Mapped[str] = mapped_column(String(32))  # "payola"
    map_name: Mapped[str] = mapped_column(String(32))  # "standard"
    state: Mapped[GameStatus] = mapped_column(EnumText(GameStatus), index=True)
    master_address: Mapped[str] = mapped_column(String(254))
    master_password: Mapped[str] = mapped_column(String(255))  # a hash, never the password
    rules: Mapped[list] = mapped_column(JSON, default=list)
    settings: Mapped[dict] = mapped_column(JSON, default=dict)
    timing: Mapped[dict] = mapped_column(JSON, default=dict)
    phase: Mapped[Phase | None] = mapped_column(PhaseText(), nullable=True)
    deadline: Mapped[datetime | None] = mapped_column(UTC, nullable=True, index=True)
    ready_at: Mapped[datetime | None] = mapped_column(UTC, nullable=True)  # early processing
    reminded: Mapped[list] = mapped_column(JSON, default=list)  # reminder offsets already sent
    late_noticed_at: Mapped[datetime | None] = mapped_column(UTC, nullable=True)
    # the phase whose preview the deadline sent the Master (rule PREVIEW), and the one whose
    # civil-disorder preview it sent (CIVIL_PREVIEW): each is sent once a phase
    previewed_phase: Mapped[Phase | None] = mapped_column(PhaseText(), nullable=True)
    cd_previewed_phase: Mapped[Phase | None] = mapped_column(PhaseText(), nullable=True)
    result: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTC, index=True)  # CREATEs per hour (0006)
    started_at: Mapped[datetime | None] = mapped_column(UTC, nullable=True)
    ended_at: Mapped[datetime | None] = mapped_column(UTC, nullable=True)
    # bumped by every transaction that changes the game: a conditional update on it is
    # how a turn is claimed, so two daemons never process the same phase twice
    version: Mapped[int] = mapped_column(Integer, default=0)

    seats: Mapped[list[Seat]] = relationship(back_populates="game", order_by="Seat.id")
    # not a column: the failed sign-ons to any seat since a time, which the game's query
    # for a sign-on counts in passing (`repo.game_by_name(failures_since=…)`; None when
    # not asked), so that a sign-on looks for its own seat's only when there are some
    failed_signons: Mapped[int | None] = query_expression()


class Seat(Base):
    """A player's place in a game: before the start a numbered seat, then a power; in an
    Exchange game an investor, whose name (`investor_name`) stands where a power would."""

    __tablename__ = "seat"
    __table_args__ = (UniqueConstraint("game_id", "power"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id"), index=True)
    power: Mapped[PowerName | None] = mapped_column(String(32), nullable=True)
    kind: Mapped[SeatKind] = mapped_column(EnumText(SeatKind), default=SeatKind.POWER)
    investor_name: Mapped[str | None] = mapped_column(String(32), nullable=True)
    address: Mapped[str | None] = mapped_column(String(254), nullable=True)
    password: Mapped[str | None] = mapped_column(String(255), nullable=True)
    status: Mapped[SeatStatus] = mapped_column(EnumText(SeatStatus), default=SeatStatus.PLAYING)
    wait: Mapped[bool] = mapped_column(Boolean, default=False)
    vote: Mapped[Vote | None] = mapped_column(VoteText(), nullable=True)  # the standing vote
    absences: Mapped[list] = mapped_column(JSON, default=list)
    missed: Mapped[int] = mapped_column(Integer, default=0)  # consecutive late phases
    joined_at: Mapped[datetime] = mapped_column(UTC)

    game: Mapped[Game] = relationship(back_populates="seats")


class Observer(Base):
    __tablename__ = "observer"
    __table_args__ = (UniqueConstraint("game_id", "name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id"), index=True)
    name: Mapped[str] = mapped_column(String(32))
    address: Mapped[str] = mapped_column(String(254))
    password: Mapped[str] = mapped_column(String(255))
    joined_at: Mapped[datetime] = mapped_column(UTC)
    # None until the address answers the code mailed to it (`lifecycle.confirm_observer`):
    # until then the judge sends it nothing and accepts nothing from it
    confirmed_at: Mapped[datetime | None] = mapped_column(UTC, nullable=True)


class Turn(Base):
    """One phase of a game: the position it starts from, and what happened in it."""

    __tablename__ = "turn"
    __table_args__ = (UniqueConstraint("game_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    phase: Mapped[Phase] = mapped_column(PhaseText())
    position: Mapped[dict] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)  # fixes every random choice
    status: Mapped[TurnStatus] = mapped_column(EnumText(TurnStatus), default=TurnStatus.OPEN)
    opened_at: Mapped[datetime] = mapped_column(UTC)
    processed_at: Mapped[datetime | None] = mapped_column(UTC, nullable=True)
    report: Mapped[dict | None] = mapped_column(JSON, nullable=True)  # public results
    chart: Mapped[dict | None] = mapped_column(JSON, nullable=True)  # bids (secret until the end)
    # Exchange Payola: the market at the start of the turn (CEOs, worths, last prices), so
    # a rollback to the turn restores it as it restores the position
    market: Mapped[dict | None] = mapped_column(JSON, nullable=True)


class Submission(Base):
    """An offer sheet or a set of orders, as accepted from one message."""

    __tablename__ = "submission"
    __table_args__ = (Index("ix_submission_turn_power", "turn_id", "power"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id"), index=True)
    turn_id: Mapped[int] = mapped_column(ForeignKey("turn.id"))
    power: Mapped[PowerName] = mapped_column(String(32))
    kind: Mapped[SubmissionKind] = mapped_column(EnumText(SubmissionKind))
    text: Mapped[str] = mapped_column(Text)  # normalised
    current: Mapped[bool] = mapped_column(Boolean, default=True)
    inbound_id: Mapped[int | None] = mapped_column(ForeignKey("inbound_message.id"), nullable=True)
    submitted_at: Mapped[datetime] = mapped_column(UTC)


class Acceptance(Base):
    __tablename__ = "acceptance"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id"), index=True)
    power: Mapped[PowerName] = mapped_column(String(32))
    text: Mapped[str] = mapped_column(String(64))
    set_at: Mapped[datetime] = mapped_column(UTC)


class LedgerEntry(Base):
    """Append-only: a balance is the sum of a power's entries; nothing is ever updated."""

    __tablename__ = "ledger_entry"
    __table_args__ = (Index("ix_ledger_game_power", "game_id", "power"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id"))
    power: Mapped[PowerName] = mapped_column(String(32))
    turn_seq: Mapped[int] = mapped_column(Integer)  # the phase it belongs to
    phase: Mapped[Phase] = mapped_column(PhaseText())
    kind: Mapped[LedgerKind] = mapped_column(EnumText(LedgerKind))
    amount: Mapped[int] = mapped_column(Integer)
    counterparty: Mapped[str | None] = mapped_column(String(32), nullable=True)
    memo: Mapped[str] = mapped_column(String(200), default="")
    reverses: Mapped[int | None] = mapped_column(Integer, nullable=True)  # for rollbacks
    created_at: Mapped[datetime] = mapped_column(UTC)


class ShareEntry(Base):
    """Append-only, like the money ledger: a holding is the sum of a holder's entries for
    one company (Exchange Payola). The holder is an account key: the company itself (its
    pool) or `@` and an investor's name."""

    __tablename__ = "share_entry"
    __table_args__ = (Index("ix_share_entry_game_company", "game_id", "company"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id"))
    company: Mapped[str] = mapped_column(String(32))
    holder: Mapped[str] = mapped_column(String(33))
    amount: Mapped[int] = mapped_column(Integer)  # shares, + in, - out
    kind: Mapped[ShareKind] = mapped_column(EnumText(ShareKind))
    turn_seq: Mapped[int] = mapped_column(Integer)
    phase: Mapped[Phase] = mapped_column(PhaseText())
    price: Mapped[int | None] = mapped_column(Integer, nullable=True)  # AgP a share, for trades
    memo: Mapped[str] = mapped_column(String(200), default="")
    reverses: Mapped[int | None] = mapped_column(Integer, nullable=True)  # for rollbacks
    created_at: Mapped[datetime] = mapped_column(UTC)


class CeoVote(Base):
    """A standing CEO vote (Exchange Payola): the latest row per voter and company counts;
    a null candidate withdraws the vote. Append-only, like acceptance lists."""

    __tablename__ = "ceo_vote"
    __table_args__ = (Index("ix_ceo_vote_game_company", "game_id", "company"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id"))
    voter: Mapped[str] = mapped_column(String(32))
    company: Mapped[str] = mapped_column(String(32))
    candidate: Mapped[str | None] = mapped_column(String(32), nullable=True)
    set_at: Mapped[datetime] = mapped_column(UTC)


class Press(Base):
    __tablename__ = "press"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id"), index=True)
    phase: Mapped[Phase | None] = mapped_column(PhaseText(), nullable=True)
    sender: Mapped[str] = mapped_column(String(32))  # a power, or MASTER
    recipients: Mapped[list] = mapped_column(JSON)  # powers; empty for a broadcast
    broadcast: Mapped[bool] = mapped_column(Boolean, default=False)
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTC)


class InboundMessage(Base):
    __tablename__ = "inbound_message"
    # the rate limit asks, for every message, when its sender's latest answers were: by
    # this index it reads the last hour's, not the sender's whole history (0005)
    __table_args__ = (Index("ix_inbound_message_sender_processed", "sender", "processed_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    message_id: Mapped[str | None] = mapped_column(String(255), unique=True, nullable=True)
    source: Mapped[str] = mapped_column(String(8))  # smtp | imap | cli
    source_key: Mapped[str | None] = mapped_column(String(255), unique=True, nullable=True)
    envelope_from: Mapped[str | None] = mapped_column(String(254), nullable=True)
    sender: Mapped[str | None] = mapped_column(String(254), nullable=True)
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    received_at: Mapped[datetime] = mapped_column(UTC)
    state: Mapped[InboundState] = mapped_column(EnumText(InboundState), default=InboundState.NEW, index=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    processed_at: Mapped[datetime | None] = mapped_column(UTC, nullable=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    # a digest of what makes a message without a Message-ID the same message (its
    # sender, recipients, subject, date and body): a second delivery is recognised by it
    content_hash: Mapped[str | None] = mapped_column(String(64), unique=True, nullable=True)
    # a rate-limited message waits (state NEW) until then
    not_before: Mapped[datetime | None] = mapped_column(UTC, nullable=True)
    redacted: Mapped[bool] = mapped_column(Boolean, default=False)  # passwords replaced


class SignonFailure(Base):
    """A sign-on refused for a wrong password: counted per seat to throttle guessing."""

    __tablename__ = "signon_failure"
    __table_args__ = (Index("ix_signon_failure_seat", "game_id", "who", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id"))
    who: Mapped[str] = mapped_column(String(32))  # a power, MASTER, an observer
    # whether the message came from the seat's registered address (counted apart, so a
    # stranger's guesses never lock the owner out)
    trusted: Mapped[bool] = mapped_column(Boolean)
    sender: Mapped[str] = mapped_column(String(254))
    # one failure per message, however often the message is looked at
    inbound_id: Mapped[int | None] = mapped_column(Integer, unique=True, nullable=True)
    at: Mapped[datetime] = mapped_column(UTC)


class WebSession(Base):
    """A sign-in on the web pages (docs/web.md): bound to one game and one party. The
    cookie holds a random token; only its SHA-256 is kept. `credential` is a digest of the
    party's password hash when it signed in: a changed password ends the session."""

    __tablename__ = "web_session"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    csrf: Mapped[str] = mapped_column(String(64))
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id"), index=True)
    party: Mapped[str] = mapped_column(String(32))  # a power, MASTER, an observer
    credential: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTC)
    expires_at: Mapped[datetime] = mapped_column(UTC)
    ended_at: Mapped[datetime | None] = mapped_column(UTC, nullable=True)


class CalendarFeed(Base):
    """A party's iCalendar feed of its game's deadlines (docs/web.md): the URL holds a
    random token, kept only as its SHA-256; a new link, or stopping it, revokes the old."""

    __tablename__ = "calendar_feed"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id"), index=True)
    party: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(UTC)
    revoked_at: Mapped[datetime | None] = mapped_column(UTC, nullable=True)


class JudgeSetting(Base):
    """Values the judge makes once for a database (the salt of password redaction)."""

    __tablename__ = "judge_setting"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class OutboxMail(Base):
    __tablename__ = "outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    message_id: Mapped[str] = mapped_column(String(255), unique=True)
    sender: Mapped[str] = mapped_column(String(254))
    recipients: Mapped[list] = mapped_column(JSON)
    subject: Mapped[str] = mapped_column(String(255))
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("game.id"), nullable=True, index=True)
    kind: Mapped[MailKind] = mapped_column(EnumText(MailKind, 32))
    created_at: Mapped[datetime] = mapped_column(UTC)
    state: Mapped[OutboxState] = mapped_column(EnumText(OutboxState), default=OutboxState.PENDING, index=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(UTC)
    last_error: Mapped[str | None] = mapped_column(Text, nullable=True)
    sent_at: Mapped[datetime | None] = mapped_column(UTC, nullable=True)
