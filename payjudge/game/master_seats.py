"""The Master's changes to a power's seat: DUMMY, REVIVE and EJECT (rule 4.4).

Each finds the seat once (`lifecycle.power_seat`), changes it through `lifecycle` (as a
player's RESIGN does), tells the player who lost the seat, and announces a seat that is
now open for a TAKEOVER.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ..rules.names import PowerName
from ..vocabulary import MailKind, SeatStatus
from . import lifecycle
from .context import CommandError
from .mailer import Mailer
from .resignation import announce_open_seat
from .state import GameState


@dataclass(frozen=True)
class SeatChanged:
    """A power's seat after the Master's change."""

    power: PowerName
    status: SeatStatus


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise CommandError(message)


def _tell_old_player(
    st: GameState, mailer: Mailer, address: str | None, power: PowerName, subject: str, status: str
) -> None:
    """The player the Master took a seat from is told (DUMMY, EJECT)."""
    if address:
        mailer.send(
            [address],
            f"Diplomacy: {subject}",
            "seat_change.txt.j2",
            kind=MailKind.NOTICE,
            game=st.game,
            game_name=st.game.name,
            power=power,
            status=status,
        )


def dummy(st: GameState, mailer: Mailer, name: str) -> SeatChanged:
    """DUMMY <power>: a played (or resigned) power becomes a dummy; its player is told."""
    seat, power = lifecycle.power_seat(st, name)
    _require(seat.status in (SeatStatus.PLAYING, SeatStatus.RESIGNED), f"{power} is {seat.status}")
    old = seat.address
    lifecycle.make_dummy(seat)
    _tell_old_player(st, mailer, old, power, f"{power} in {st.game.name} is now a dummy", "dummy")
    return SeatChanged(power, SeatStatus.DUMMY)


def revive(st: GameState, mailer: Mailer, name: str) -> SeatChanged:
    """REVIVE <power>: a dummy is open for TAKEOVER, and everyone is told. No password is
    ever made up and mailed: the newcomer chooses one with TAKEOVER."""
    seat, power = lifecycle.power_seat(st, name)
    _require(seat.status is SeatStatus.DUMMY, f"{power} is {seat.status}, not a dummy")
    lifecycle.reopen(seat)
    announce_open_seat(st, mailer, power, f"Diplomacy takeover wanted {st.game.name}")
    return SeatChanged(power, SeatStatus.RESIGNED)


def eject(st: GameState, mailer: Mailer, name: str, *, now: datetime) -> SeatChanged:
    """EJECT <power>: the player loses the power as if it had resigned (an eliminated
    power forfeits its treasury); the player is told, and everyone that the seat is open."""
    seat, power = lifecycle.power_seat(st, name)
    _require(seat.status is SeatStatus.PLAYING, f"{power} is {seat.status}")
    old = seat.address
    lifecycle.resign(st, seat, now=now)
    _tell_old_player(st, mailer, old, power, f"you no longer play {power} in {st.game.name}", "ejected")
    announce_open_seat(st, mailer, power, f"Diplomacy takeover wanted {st.game.name}")
    return SeatChanged(power, SeatStatus.RESIGNED)
