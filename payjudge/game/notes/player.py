"""What a player's commands report: the account, press, settings, votes and proposals."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ...rules.phase import Phase
from ...vocabulary import LedgerKind


@dataclass(frozen=True)
class LedgerRow:
    """One entry of BALANCE's recent activity."""

    phase: Phase
    kind: LedgerKind
    amount: int
    counterparty: str | None  # shown by name; None under ANON_TRANSFER for money received


@dataclass(frozen=True)
class BalanceReport:
    """`templates/notes/balance.txt.j2`: BALANCE and STATUS."""

    note: ClassVar[str] = "balance"
    power: str  # a power, or an Exchange investor by its name
    balance: int
    sheet: str | None  # the offer sheet (or orders) on record
    phase: Phase | None
    movement: bool
    accept: str | None  # the acceptance list; None for an investor
    shares: dict[str, int]  # Exchange: company -> shares held
    entries: list[LedgerRow]  # the latest few


@dataclass(frozen=True)
class PressSent:
    """`templates/notes/press_sent.txt.j2`: PRESS and BROADCAST."""

    note: ClassVar[str] = "press_sent"
    to: list[str]
    broadcast: bool


@dataclass(frozen=True)
class WaitSet:
    """`templates/notes/wait.txt.j2`: SET WAIT and SET NOWAIT."""

    note: ClassVar[str] = "wait"
    wait: bool
    phase: str  # the phase's title


@dataclass(frozen=True)
class AbsenceSet:
    """`templates/notes/absence.txt.j2`: SET ABSENCE."""

    note: ClassVar[str] = "absence"
    start: str
    end: str


@dataclass(frozen=True)
class AddressSet:
    """`templates/notes/address.txt.j2`: SET ADDRESS."""

    note: ClassVar[str] = "address"
    address: str


@dataclass(frozen=True)
class MapSet:
    """`templates/notes/map.txt.j2`: SET MAP ON|OFF."""

    note: ClassVar[str] = "map"
    on: bool
    shared: bool  # the game has one picture for everyone (not BLIND)


@dataclass(frozen=True)
class PasswordChanged:
    """`templates/notes/password.txt.j2`: SET PASSWORD (the word is never shown)."""

    note: ClassVar[str] = "password"


@dataclass(frozen=True)
class VoteRecorded:
    """`templates/notes/vote.txt.j2`: VOTE, a standing vote on ending the game."""

    note: ClassVar[str] = "vote"
    vote: str  # as the player may read it back: DRAW, 3WAY, CONCEDE FRANCE, END, …


@dataclass(frozen=True)
class ProposalAnswered:
    """`templates/notes/answered.txt.j2`: VOTE YES or VOTE NO under PROPOSE_DIAS."""

    note: ClassVar[str] = "answered"
    what: str  # the proposal, in words
    yes: bool  # VOTE YES; VOTE NO vetoes it


@dataclass(frozen=True)
class Proposed:
    """`templates/notes/proposed.txt.j2`: PROPOSE under PROPOSE_DIAS."""

    note: ClassVar[str] = "proposed"
    what: str


@dataclass(frozen=True)
class GameEnded:
    """`templates/notes/game_ended.txt.j2`: the votes (or a proposal) ended the game."""

    note: ClassVar[str] = "game_ended"
    game: str
    result: Mapping[str, Any] | None  # the game's stored result
