"""The money ledger: append-only entries, balances derived by summing them."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from ..payola.income import income_year
from ..rules.names import PowerName
from ..rules.phase import Phase
from ..store import Session, repo
from ..store.models import Game, LedgerEntry
from ..vocabulary import LedgerKind
from . import ledger

balances = repo.balances
balance = repo.balance
entries = repo.ledger_entries


def record(
    s: Session,
    game: Game,
    power: PowerName,
    kind: LedgerKind,
    amount: int,
    *,
    turn_seq: int,
    phase: Phase,
    now: datetime,
    counterparty: str | None = None,
    memo: str = "",
    reverses: int | None = None,
) -> LedgerEntry:
    at = ledger.Posting(turn_seq, phase, now)
    account = {"power": power, "counterparty": counterparty}
    return ledger.post(s, LedgerEntry, game, kind, amount, at, account, memo=memo, reverses=reverses)


def record_opening(
    s: Session, game: Game, opening: Mapping[PowerName, int], *, phase: Phase, now: datetime
) -> None:
    """Each power's opening balance, booked at turn 0 (a game's start, Exchange's float too)."""
    for power, amount in opening.items():
        record(
            s,
            game,
            power,
            LedgerKind.OPENING,
            amount,
            turn_seq=0,
            phase=phase,
            now=now,
            memo="opening balance",
        )


def income_paid(s: Session, game: Game, year: int, opening_year: int) -> dict[PowerName, int]:
    """What each power has been paid as income for `year` so far (CAP caps a year's income):
    the income entries whose payment falls before a movement phase of that year, and the
    opening balance when the game's first movement phase (`opening_year`) is in it;
    entries a rollback reversed do not count."""
    rows = entries(s, game)
    reversed_ids = {e.reverses for e in rows if e.reverses is not None}
    out: dict[PowerName, int] = {}
    for e in rows:
        if e.id in reversed_ids:
            continue
        if e.kind is LedgerKind.INCOME:
            counts = income_year(e.phase) == year
        else:
            counts = e.kind is LedgerKind.OPENING and opening_year == year
        if counts:
            out[e.power] = out.get(e.power, 0) + e.amount
    return out


def roll_back(s: Session, game: Game, from_seq: int, *, phase: Phase, now: datetime) -> int:
    """Reverse every entry made at or after turn `from_seq` by new entries; returns how many."""
    return ledger.roll_back(
        s, game, entries(s, game), LedgerKind.ROLLBACK, ledger.Posting(from_seq, phase, now)
    )
