"""TRANSFER (rule 2.3): money moves from one treasury to another at once (in an Exchange
game between companies and investors: `payola.transfers`, docs/exchange.md choice 13).

The rules are checked by `payola.transfers` (NO_TRANSFER, ONE_TRANSFER, NO_DONATIONS,
NO_LOOTING) and the new balances come from `apply_transfer`; here the two ledger entries
are booked and the receiving power is sent its statement (`templates/transfer.txt.j2`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar

from ..payola.exchange.accounts import account_label
from ..payola.transfers import Transfer, apply_transfer, check_transfer, giver_label
from ..rules.flags import Flag
from ..rules.names import PowerName
from ..vocabulary import LedgerKind, MailKind
from . import money
from .context import CommandError
from .investors import account_named, investor_accounts
from .mailer import Mailer
from .notify import power_address
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
    """`power` gives `amount` AgP to the power named `to` (a name or an initial), or in an
    Exchange game to the company or investor named `to`."""
    exchange = Flag.EXCHANGE in st.rules
    accounts = investor_accounts(st) if exchange else ()
    recipient = account_named(st, to)
    if recipient is None:
        raise CommandError(f"there is no company or investor {to}" if exchange else f"there is no power {to}")
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
        st.rules,
        position,
        power,
        recipient,
        amount,
        balance,
        dummies=st.unplayed(),
        sent=sent_this_phase,
        investors=accounts,
    )
    if problem:
        raise CommandError(problem)
    received = money.balance(st.session, game, recipient)
    after = apply_transfer({power: balance, recipient: received}, Transfer(power, recipient, amount))
    money.record(
        st.session,
        game,
        power,
        LedgerKind.TRANSFER_OUT,
        -amount,
        turn_seq=turn.seq,
        phase=turn.phase,
        now=now,
        counterparty=recipient,
    )
    money.record(
        st.session,
        game,
        recipient,
        LedgerKind.TRANSFER_IN,
        amount,
        turn_seq=turn.seq,
        phase=turn.phase,
        now=now,
        counterparty=power,
    )
    seat = st.seat(recipient)
    # Exchange: a company's mail goes to its CEO, an investor's to its player
    to_addresses = (
        power_address(st, recipient) if exchange else [seat.address] if seat and seat.address else []
    )
    if to_addresses:
        mailer.send(
            to_addresses,
            f"Payola funds transfer {game.name}",
            "transfer.txt.j2",
            kind=MailKind.TRANSFER,
            game=game,
            progressive=Flag.PROGRESSIVE in st.rules,
            v=TransferMail(
                game.name,
                PowerName(account_label(recipient)),
                giver_label(st.rules, power),
                amount,
                before=received,
                after=after[recipient],
            ),
        )
    return Transferred(amount, account_label(recipient), before=balance, after=after[power])
