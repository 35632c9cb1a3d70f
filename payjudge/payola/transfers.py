"""Transfers between treasuries (rule 2.3) and forfeiture on resigning (rule 2.4).

Every restriction is checked here, in the domain, not in a form: NO_TRANSFER,
ONE_TRANSFER (one transfer to each power per phase), NO_DONATIONS (eliminated powers may
not give), NO_LOOTING (nothing may leave a dummy's treasury). ANON_TRANSFER only hides
the giver from the receiver's statement (`giver_label`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

from ..rules.names import PowerName
from ..rules.position import Position
from .exchange.accounts import account_label
from .rules import Flag, PayolaRules


@dataclass(frozen=True, slots=True)
class Transfer:
    sender: PowerName
    recipient: PowerName
    amount: int


def is_eliminated(position: Position, power: PowerName) -> bool:
    """Rule 2.4: a power owning no supply centre."""
    return not position.centers.get(power)


def check_transfer(
    rules: PayolaRules,
    position: Position,
    sender: PowerName,
    recipient: PowerName,
    amount: int,
    balance: int,
    *,
    dummies: Iterable[PowerName] = (),
    sent: Iterable[str] = (),  # the ledger's counterparties: names, compared only
    investors: Collection[PowerName] = (),
) -> str | None:
    """Why this transfer may not be made, or None if it may.

    `balance` is the sender's balance now; `sent` the powers the sender has already sent
    money to in this phase (ONE_TRANSFER); `investors` the accounts of an Exchange game's
    investors (`@ALICE`), payers beside the powers: they may give to anyone and receive
    from investors, while a company pays investors only by dividend (docs/exchange.md,
    choice 13). An investor is never eliminated.
    """
    powers = position.map.power_names
    payers = {*powers, *investors}
    if Flag.NO_TRANSFER in rules:
        return "transfers are not allowed in this game (NO_TRANSFER)"
    if recipient not in payers:
        return f"unknown power {recipient!r}"
    if sender not in payers:
        return f"unknown power {sender!r}"
    company = sender in powers
    if sender == recipient:
        return (
            "a power cannot transfer money to itself" if company else "you cannot transfer money to yourself"
        )
    if type(amount) is not int or amount <= 0:  # (not a bool either: callers may be untyped)
        return "the amount must be a whole number of AgP, at least 1"
    if company and recipient not in powers:
        return "a company pays investors only by DIVIDEND"
    if amount > balance:
        return f"the treasury holds only {balance} AgP" if company else f"you hold only {balance} AgP"
    if Flag.ONE_TRANSFER in rules and recipient in set(sent):
        return f"only one transfer to {account_label(recipient)} is allowed per phase (ONE_TRANSFER)"
    if Flag.NO_DONATIONS in rules and company and is_eliminated(position, sender):
        return "an eliminated power may not transfer money (NO_DONATIONS)"
    if Flag.NO_LOOTING in rules and sender in set(dummies):
        return "money may not be taken from a power nobody plays (NO_LOOTING)"
    return None


def apply_transfer(balances: Mapping[PowerName, int], transfer: Transfer) -> dict[PowerName, int]:
    """The balances after a transfer that `check_transfer` allowed."""
    out = dict(balances)
    out[transfer.sender] = out.get(transfer.sender, 0) - transfer.amount
    out[transfer.recipient] = out.get(transfer.recipient, 0) + transfer.amount
    if out[transfer.sender] < 0:
        raise ValueError("a transfer cannot overdraw the sender")
    return out


def giver_label(rules: PayolaRules, sender: PowerName) -> str:
    """How the receiving power's statement names the giver (an investor by its name)."""
    return "SOMEONE" if Flag.ANON_TRANSFER in rules else account_label(sender)


def forfeit_on_resign(position: Position, power: PowerName, balance: int) -> int:
    """What a resigning power loses (rule 2.4): its whole treasury if it is eliminated.
    A power with centres keeps its money for whoever takes it over."""
    return balance if is_eliminated(position, power) else 0
