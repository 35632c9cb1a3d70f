"""What the openers that bring someone into a game report: CREATE, JOIN, OBSERVE, CONFIRM,
SIGNON and TAKEOVER."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...rules.phase import Phase
from ...vocabulary import GameStatus


@dataclass(frozen=True)
class GameCreated:
    """`templates/notes/created.txt.j2`: CREATE."""

    note: ClassVar[str] = "created"
    game: str
    rules: list[str]  # as `gamerules.listed_rules` names them
    timing: str
    map: str
    seats: int  # Exchange: the investors' seats (INVESTORS)
    exchange: bool
    private: bool
    example: str  # a power's name, lower case, for the JOIN <power>@<game> example


@dataclass(frozen=True)
class RuleAlways:
    """`templates/notes/rule_always.txt.j2`: a RULE line naming a flag every Payola game has."""

    note: ClassVar[str] = "rule_always"
    name: str
    summary: str


@dataclass(frozen=True)
class Joined:
    """`templates/notes/joined.txt.j2`: JOIN."""

    note: ClassVar[str] = "joined"
    game: str
    power: str | None  # the power, or an Exchange investor's name
    left: int  # seats still open


@dataclass(frozen=True)
class Observing:
    """`templates/notes/observing.txt.j2`: OBSERVE, waiting for the address to CONFIRM."""

    note: ClassVar[str] = "observing"
    game: str
    name: str
    identity: str  # `<name>@<game>`, as CONFIRM wants it
    code: str
    address: str
    days: int  # how long the code holds


@dataclass(frozen=True)
class ObserverConfirmed:
    """`templates/notes/observer_confirmed.txt.j2`: CONFIRM."""

    note: ClassVar[str] = "observer_confirmed"
    game: str
    name: str


@dataclass(frozen=True)
class SignedOn:
    """`templates/notes/signed_on.txt.j2`: SIGNON."""

    note: ClassVar[str] = "signed_on"
    who: str  # a power, MASTER, an observer, or an investor by its name
    game: str
    phase: Phase | None
    state: GameStatus


@dataclass(frozen=True)
class TookOver:
    """`templates/notes/took_over.txt.j2`: TAKEOVER."""

    note: ClassVar[str] = "took_over"
    power: str  # `lifecycle.seat_label`: a power, or an investor's name
    game: str
    deadline: str
