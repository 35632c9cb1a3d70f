"""RESIGN: a player gives up a power, which is then open for a TAKEOVER (an Exchange
investor its seat: game/investors.py).

An eliminated power forfeits its treasury (rule 2.4: `payola.transfers.forfeit_on_resign`,
booked by `lifecycle.resign`); a power with centres keeps its money for its next player.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar

from ..rules.names import PowerName
from ..vocabulary import SeatKind
from . import lifecycle
from .context import CommandError
from .investors import InvestorResigned, resign_investor
from .mailer import Mailer
from .notify import broadcast
from .state import GameState


@dataclass(frozen=True)
class Resigned:
    """`templates/notes/resigned.txt.j2`."""

    note: ClassVar[str] = "resigned"
    power: PowerName
    game: str
    forfeited: int  # AgP lost under rule 2.4 (0 unless eliminated)


@dataclass(frozen=True)
class OpenSeatMail:
    """`templates/resigned.txt.j2`: a power is open for a new player."""

    game_name: str
    power: PowerName


def announce_open_seat(st: GameState, mailer: Mailer, power: PowerName, subject: str) -> None:
    broadcast(st, mailer, subject, "resigned.txt.j2", v=OpenSeatMail(st.game.name, power))


def resign_power(
    st: GameState, mailer: Mailer, *, power: PowerName, now: datetime
) -> Resigned | InvestorResigned:
    """`power`: a power, or an Exchange investor's account (its companies pass on)."""
    seat = st.seat(power)
    if seat is None:
        raise CommandError(f"{power} has no seat in {st.game.name}")
    if seat.kind is SeatKind.INVESTOR:
        return resign_investor(st, mailer, seat, now=now)
    forfeited = lifecycle.resign(st, seat, now=now)
    announce_open_seat(st, mailer, power, f"Diplomacy resignation {st.game.name}")
    return Resigned(power, st.game.name, forfeited)
