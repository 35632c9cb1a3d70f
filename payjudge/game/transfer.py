"""TRANSFER (rule 2.3): money moves from one treasury to another at once.

The rules are checked by `payola.transfers` (NO_TRANSFER, ONE_TRANSFER, NO_DONATIONS,
NO_LOOTING) and the new balances come from `apply_transfer`; here the two ledger entries
are booked and the receiving power is sent its statement (`templates/transfer.txt.j2`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar

from ..payola.transfers import Transfer, apply_transfer, check_transfer, giver_label
from ..rules.flags import Flag
from ..rules.names import PowerName
from ..vocabulary import LedgerKind
from . import money
from .context import CommandError
from .mailer import Mailer
from .state import GameState


@dataclass(frozen=True)
class Transferred:
    """The giver's result (`templates/notes/transferred.txt.j2`)."""

    note: ClassVar[str] = "transferred"
    amount: int
    to: str
    before: int
    after: int


@dataclass(frozen=True)
class TransferMail:
    """The receiver's statement (`templates/transfer.txt.j2`)."""

    game_name: str
    power: PowerName  # the receiver
    sender: str  # the giver, or SOMEONE under ANON_TRANSFER
    amount: int
    before: int
    after: int


def transfer(
    st: GameState, mailer: Mailer, *, power: PowerName, to: str, amount: int, now: datetime
) -> Transferred:
    """`power` gives `amount` AgP to the power named `to` (a name or an initial)."""
    target = st.map.power(to)
    if target is None:
        raise CommandError(f"there is no power {to}")
    turn, position = st.turn, st.position
    if turn is None or position is None:
        raise CommandError(f"{st.game.name} is {st.game.state}: nothing can be ordered now")
    game = st.game
    balance = money.balance(st.session, game, power)
    sent_this_phase = [
        e.counterparty
        for e in money.entries(st.session, game, power)
        if e.kind is LedgerKind.TRANSFER_OUT and e.turn_seq == turn.seq and e.counterparty
    ]
    # NO_LOOTING protects every unplayed power, a controlled one too: its controller may
    # not empty its treasury
    problem = check_transfer(
        st.rules, position, power, target.name, amount, balance, dummies=st.unplayed(), sent=sent_this_phase
    )
    if problem:
        raise CommandError(problem)
    received = money.balance(st.session, game, target.name)
    after = apply_transfer({power: balance, target.name: received}, Transfer(power, target.name, amount))
    money.record(
        st.session,
        game,
        power,
        LedgerKind.TRANSFER_OUT,
        -amount,
        turn_seq=turn.seq,
        phase=turn.phase,
        now=now,
        counterparty=target.name,
    )
    money.record(
        st.session,
        game,
        target.name,
        LedgerKind.TRANSFER_IN,
        amount,
        turn_seq=turn.seq,
        phase=turn.phase,
        now=now,
        counterparty=power,
    )
    seat = st.seat(target.name)
    if seat and seat.address:
        mailer.send(
            [seat.address],
            f"Payola funds transfer {game.name}",
            "transfer.txt.j2",
            kind="transfer",
            game=game,
            progressive=Flag.PROGRESSIVE in st.rules,
            v=TransferMail(
                game.name,
                target.name,
                giver_label(st.rules, power),
                amount,
                before=received,
                after=after[target.name],
            ),
        )
    return Transferred(amount, target.name, before=balance, after=after[power])
