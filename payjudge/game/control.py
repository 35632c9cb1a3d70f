"""Power control (seed 003 §1.8): the Master gives a power nobody plays to another power's
player, who then orders for it (FOR <power> after signing on), or takes it back.

The control is kept in the current phase's position document (`state.CONTROL_KEY`), so it
goes on from phase to phase, changes with the vassal states (VASSAL_DUMMIES) and comes
back as it was with a rollback.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from ..payola.exchange.accounts import investor_name, is_investor
from ..rules.names import PowerName
from ..store.models import Turn
from ..vocabulary import MailKind, SeatStatus
from .context import CommandError
from .exchange import ceo_of
from .mailer import Mailer
from .notify import power_address
from .state import CONTROL_KEY, GameState


@dataclass(frozen=True)
class ControlChanged:
    """The reply's note: `power` is now controlled by `controller` (None: by nobody)."""

    note: ClassVar[str] = "control"
    power: PowerName
    controller: PowerName | None


def _turn(st: GameState) -> Turn:
    turn = st.turn
    if turn is None or not st.game.state.is_running:
        raise CommandError(f"{st.game.name} is {st.game.state}: control is given once the game has started")
    return turn


def _write(turn: Turn, control: dict[PowerName, PowerName]) -> None:
    document = {k: v for k, v in turn.position.items() if k != CONTROL_KEY}
    if control:
        document[CONTROL_KEY] = dict(sorted(control.items()))
    turn.position = document  # a new dict: the JSON column sees the change


def give_control(st: GameState, mailer: Mailer, power: PowerName, controller: PowerName) -> ControlChanged:
    """CONTROL <power> BY <controller>: `power` must be unplayed (a dummy, or resigned and
    not taken over), `controller` played by someone, and neither controlled already by
    a third power in a chain (a controlled power controls nothing)."""
    turn = _turn(st)
    seat, by = st.seat(power), st.seat(controller)
    if seat is None or not seat.status.is_unplayed:
        raise CommandError(f"{power} is played: only a power nobody plays can be controlled")
    if by is None or by.status is not SeatStatus.PLAYING or power == controller:
        raise CommandError(f"{controller} has no player to control {power}")
    control = st.control()
    if controller in control:
        raise CommandError(f"{controller} is itself controlled by {control[controller]}")
    if any(c == power for c in control.values()):
        raise CommandError(f"{power} controls other powers: a controlled power controls nothing")
    before = dict(control)
    control[power] = controller
    _write(turn, control)
    tell_controllers(st, mailer, before, control)
    return ControlChanged(power, controller)


def take_control(st: GameState, mailer: Mailer, power: PowerName) -> ControlChanged:
    """UNCONTROL <power>: nobody controls it any more (it is a plain dummy again)."""
    turn = _turn(st)
    control = st.control()
    if power not in control:
        raise CommandError(f"nobody controls {power}")
    before = dict(control)
    del control[power]
    _write(turn, control)
    tell_controllers(st, mailer, before, control)
    return ControlChanged(power, None)


def tell_controllers(
    st: GameState,
    mailer: Mailer,
    before: Mapping[PowerName, PowerName],
    after: Mapping[PowerName, PowerName],
    *,
    vassal: bool = False,
) -> None:
    """Each player who gained or lost a power between the control `before` and `after`
    (CONTROL, UNCONTROL; `vassal`: a vassal state changing hands at the end of the year)
    is told, privately: under HIDE_DUMMIES nothing public says it."""
    for power in sorted(set(before) | set(after)):
        old, new = before.get(power), after.get(power)
        if old == new:
            continue
        for controller, gained in ((old, False), (new, True)):
            if controller is None:
                continue
            mailer.send(
                power_address(st, controller, {}),
                f"Diplomacy: you {'now' if gained else 'no longer'} control {power} in {st.game.name}",
                "control_change.txt.j2",
                kind=MailKind.NOTICE,
                game=st.game,
                game_name=st.game.name,
                power=power,
                controller=controller,
                gained=gained,
                vassal=vassal,
            )


def may_act_for(st: GameState, player: str, power: PowerName) -> bool:
    """Whether `player`'s player may give orders for `power`: its own, or one it controls,
    or (Exchange Payola; `player` an investor's account) a company it is the CEO of."""
    if is_investor(player):
        return ceo_of(st, power) == investor_name(player)
    return power == player or st.control().get(power) == player
