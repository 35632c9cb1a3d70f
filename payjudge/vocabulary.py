"""The judge's words for the state of its records: a game's state, a seat's and a turn's
status, the kind of a ledger entry and of a submission, the state of inbound and outgoing
mail.

Each is an enum whose values are the strings the database stores (the store's `EnumText`
column type reads them back as members and refuses any other value). They are `StrEnum`s,
so a template or a JSON document shows a member as the word it stands for; the code
compares members, never strings (a test scans for comparisons with string literals).

Pure: no imports from the rest of the judge, so every layer, the store included, may use it.
"""

from __future__ import annotations

import enum


class GameStatus(enum.StrEnum):
    """The `state` of a game (`Game.state`)."""

    FORMING = "forming"  # created, waiting for players to JOIN
    ACTIVE = "active"  # phases are processed at their deadlines
    PAUSED = "paused"  # the Master stopped the clock (PAUSE), RESUME restarts it
    WAITING = "waiting"  # stopped, waiting for the Master (no command sets it yet)
    COMPLETED = "completed"  # ended by a victory, a draw or a concession
    TERMINATED = "terminated"  # ended by the Master

    @property
    def is_over(self) -> bool:
        return self in (GameStatus.COMPLETED, GameStatus.TERMINATED)

    @property
    def is_running(self) -> bool:
        """Started and not over: a phase is open (its clock may be stopped)."""
        return self in (GameStatus.ACTIVE, GameStatus.PAUSED, GameStatus.WAITING)

    @property
    def is_open(self) -> bool:
        """Not over: listed by LIST, can still be joined or played."""
        return not self.is_over


class SeatStatus(enum.StrEnum):
    """The `status` of a seat (`Seat.status`)."""

    OPEN = "open"  # nobody has joined it yet
    PLAYING = "playing"
    RESIGNED = "resigned"  # given up: open for a TAKEOVER, its units stay as a dummy's
    DUMMY = "dummy"  # nobody plays it (rule 4.4)
    ELIMINATED = "eliminated"  # out of the game (no command sets it yet)

    @property
    def is_unplayed(self) -> bool:
        """A power nobody plays (rule 4.4): a dummy, or resigned and not yet taken over."""
        return self in (SeatStatus.DUMMY, SeatStatus.RESIGNED)


class TurnStatus(enum.StrEnum):
    """The `status` of a turn, one phase of a game (`Turn.status`)."""

    OPEN = "open"  # the current phase
    PROCESSED = "processed"
    ROLLED_BACK = "rolled_back"  # undone by ROLLBACK: kept, but no longer part of the game


class LedgerKind(enum.StrEnum):
    """Why money moved (`LedgerEntry.kind`)."""

    OPENING = "opening"  # the opening balance (rule 2.1)
    INCOME = "income"  # year-end income (rule 2.1)
    BRIBES = "bribes"  # bribes paid in a movement phase
    TRANSFER_IN = "transfer_in"  # TRANSFER from another power (rule 2.3)
    TRANSFER_OUT = "transfer_out"  # TRANSFER to another power
    ROLLBACK = "rollback"  # reverses an entry of a rolled-back phase
    FORFEIT = "forfeit"  # an eliminated power's treasury on resigning (rule 2.4)
    ADJUSTMENT = "adjustment"  # a correction by the Master
    # Exchange Payola (docs/exchange.md): an account is a company (its power's name) or
    # an investor (`@` and its name)
    CAPITAL = "capital"  # an investor's starting cash
    DIVIDEND_OUT = "dividend_out"  # a company pays its stockholders
    DIVIDEND_IN = "dividend_in"  # a stockholder's share of a dividend
    PURCHASE = "purchase"  # shares bought in an exchange phase (negative)
    SALE = "sale"  # shares sold in an exchange phase (positive)
    LIQUIDATION_OUT = "liquidation_out"  # a company paid out at the end of the game
    LIQUIDATION_IN = "liquidation_in"  # a stockholder's part of a liquidation


class SubmissionKind(enum.StrEnum):
    """What a power sent for a phase (`Submission.kind`)."""

    SHEET = "sheet"  # an offer sheet (movement phases)
    # an offer sheet with no offer in it (savings, comments) from a power that owns a
    # centre: kept, but not counted as sent (rule 3.3), so the power is still late
    NO_OFFER = "no_offer"
    ORDERS = "orders"  # orders (retreats and adjustments)
    EXCHANGE = "exchange"  # exchange orders, a dividend, worths (Exchange Payola)


class SeatKind(enum.StrEnum):
    """Who holds a seat (`Seat.kind`): a power, or an investor of Exchange Payola."""

    POWER = "power"
    INVESTOR = "investor"


class ShareKind(enum.StrEnum):
    """Why shares moved (`ShareEntry.kind`, Exchange Payola)."""

    ISSUE = "issue"  # a company's pool gets all its shares at the start
    PURCHASE = "purchase"  # shares bought in an exchange phase (positive)
    SALE = "sale"  # shares sold in an exchange phase (negative)
    ROLLBACK = "rollback"  # reverses an entry of a rolled-back phase


class InboundState(enum.StrEnum):
    """Where an inbound message is in its handling (`InboundMessage.state`)."""

    NEW = "new"  # stored, waiting to be processed (maybe deferred)
    DONE = "done"  # processed (answered, or ignored with a reason)
    QUARANTINED = "quarantined"  # processing failed: kept with the error for `payjudge requeue`


class OutboxState(enum.StrEnum):
    """Where an outgoing mail is (`OutboxMail.state`)."""

    PENDING = "pending"  # to be sent (again, after a temporary failure)
    SENT = "sent"
    FAILED = "failed"  # given up after a permanent failure or too many tries
    # never to be sent: the reply to a message sent from a web page whose party turned
    # its receipt off (game/webreceipt.py); the page shows it, the sender leaves it
    KEPT = "kept"


class MailKind(enum.StrEnum):
    """What an outgoing mail is (`OutboxMail.kind`): its Message-ID carries it too."""

    REPLY = "reply"  # the answer to a player's message
    WELCOME = "welcome"  # a game started: each player's power and password
    NOTICE = "notice"  # news of a game: a rollback, an absence, a control change, …
    RESULTS = "results"  # a processed phase's results
    PREVIEW = "preview"  # the would-be results, to the Master only (PREVIEW)
    STATEMENT = "statement"  # a power's spending and balance after a phase
    INCOME = "income"  # a power's year-end income statement
    MASTER_REPORT = "master_report"  # the Master's whole-game report of a phase
    REPORT = "report"  # Exchange Payola: a company's annual report to its stockholders
    GAME_END = "game_end"  # the end of a game, with everything it publishes
    PRESS = "press"  # press and broadcasts between the players
    TRANSFER = "transfer"  # the recipient's notice of a TRANSFER
    LATE = "late"  # a late power's notice, after the deadline
    REMINDER = "reminder"  # a late power's reminder, before the deadline
    SECURITY = "security"  # a seat's owner warned of failed sign-ons
