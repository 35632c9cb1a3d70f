"""A seat's standing vote on ending the game, as one typed value from the VOTE command to
the `seat.vote` column.

A vote is read once, by the VOTE and PROPOSE commands, and kept as a `Vote`; what ends the
game (`game.phases.check_votes`, `game.proposals`) asks the value, never its text. It lives
here, below the store, because the store's column type (`store/types.py: VoteText`) reads
and writes it. No vote at all is `None` (VOTE CONTINUE, a veto, a new player).

Two texts: `str(vote)` is the player's words (`3WAY`, `CONCEDE FRANCE`, `PROPOSE DRAW`),
which replies show; `vote.stored` is the column's form (`draw:3`, `concede:FRANCE`,
`propose_draw`), read back by `Vote.from_stored`. Migration 0007 turned the first into the
second for the votes stored before.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Final

from ..rules.names import PowerName

MAX_DRAW: Final = 99  # VOTE nWAY: more than any map has powers
_WAY: Final = re.compile(r"([0-9]+)WAY")


class VoteKind(enum.StrEnum):
    """What a standing vote says; its value is the stored form's first word."""

    DRAW = "draw"  # a draw (VOTE DRAW, or VOTE nWAY: a draw of at most n powers)
    SOLO = "solo"  # no draw: play on for a win
    CONCEDE = "concede"  # concede the game to a power
    PROPOSE_DRAW = "propose_draw"  # PROPOSE_DIAS: the proposer's draw of every survivor
    PROPOSE_CONCEDE = "propose_concede"  # PROPOSE_DIAS: the proposer's concession to a power
    YES = "yes"  # PROPOSE_DIAS: yes to the open proposal (a NO clears every vote)
    END = "end"  # Exchange Payola: an investor's vote to end the game


# the player's words of the kinds that take no argument
_WORDS: Final = {
    VoteKind.DRAW: "DRAW",
    VoteKind.SOLO: "SOLO",
    VoteKind.PROPOSE_DRAW: "PROPOSE DRAW",
    VoteKind.YES: "YES",
    VoteKind.END: "END",
}
_TO_POWER: Final = {VoteKind.CONCEDE: "CONCEDE", VoteKind.PROPOSE_CONCEDE: "PROPOSE CONCEDE"}


@dataclass(frozen=True)
class Vote:
    """One standing vote. `size`: the largest draw a DRAW vote accepts (None: any);
    `power`: whom a concession (or a proposed one) is to."""

    kind: VoteKind
    size: int | None = None
    power: PowerName | None = None

    def __post_init__(self) -> None:
        if (self.power is not None) != (self.kind in _TO_POWER):
            raise ValueError(f"a {self.kind} vote {'needs' if self.kind in _TO_POWER else 'has no'} power")
        if self.size is not None and (self.kind is not VoteKind.DRAW or self.size < 1):
            raise ValueError(f"a {self.kind} vote has no draw size {self.size}")

    @classmethod
    def draw(cls, size: int | None = None) -> Vote:
        return cls(VoteKind.DRAW, size=size)

    @classmethod
    def concede(cls, power: PowerName) -> Vote:
        return cls(VoteKind.CONCEDE, power=power)

    @classmethod
    def propose(cls, concede_to: PowerName | None = None) -> Vote:
        """PROPOSE DRAW, or PROPOSE CONCEDE <power>."""
        if concede_to is None:
            return cls(VoteKind.PROPOSE_DRAW)
        return cls(VoteKind.PROPOSE_CONCEDE, power=concede_to)

    @property
    def is_proposal(self) -> bool:
        return self.kind in (VoteKind.PROPOSE_DRAW, VoteKind.PROPOSE_CONCEDE)

    @property
    def conceded_to(self) -> PowerName | None:
        """The power a concession, made or proposed, is to."""
        return self.power

    def accepts_draw_of(self, count: int) -> bool:
        """A draw of `count` powers is one this vote agrees to: DRAW and any larger nWAY."""
        return self.kind is VoteKind.DRAW and (self.size is None or self.size >= count)

    def __str__(self) -> str:
        if self.power is not None:
            return f"{_TO_POWER[self.kind]} {self.power}"
        if self.size is not None:
            return f"{self.size}WAY"
        return _WORDS[self.kind]

    @property
    def stored(self) -> str:
        """The column's form: the kind, and its power or draw size after a colon."""
        if self.power is not None:
            return f"{self.kind.value}:{self.power}"
        if self.size is not None:
            return f"{self.kind.value}:{self.size}"
        return self.kind.value

    @classmethod
    def from_stored(cls, text: str) -> Vote:
        word, colon, argument = text.partition(":")
        kind = VoteKind(word)
        if not colon:
            return cls(kind)
        if kind in _TO_POWER:
            return cls(kind, power=PowerName(argument))
        return cls(kind, size=int(argument))


def draw_size(word: str) -> str | None:
    """The digits of a `<n>WAY` word (`3WAY` -> `3`), or None for any other word."""
    match = _WAY.fullmatch(word)
    return match.group(1) if match else None
