"""The money ledger: append-only entries, balances derived by summing them."""

from __future__ import annotations

from datetime import datetime

from ..rules.names import PowerName
from ..rules.phase import Phase
from ..store import Session, repo
from ..store.models import Game, LedgerEntry
from ..vocabulary import LedgerKind

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
    entry = LedgerEntry(
        game_id=game.id,
        power=power,
        kind=kind,
        amount=amount,
        turn_seq=turn_seq,
        phase=phase,
        counterparty=counterparty,
        memo=memo[:200],
        reverses=reverses,
        created_at=now,
    )
    s.add(entry)
    return entry


def roll_back(s: Session, game: Game, from_seq: int, *, phase: Phase, now: datetime) -> int:
    """Reverse every entry made at or after turn `from_seq` by new entries; returns how many."""
    done = {e.reverses for e in entries(s, game) if e.reverses is not None}
    count = 0
    for e in entries(s, game):
        if e.turn_seq >= from_seq and e.kind is not LedgerKind.ROLLBACK and e.id not in done:
            record(
                s,
                game,
                e.power,
                LedgerKind.ROLLBACK,
                -e.amount,
                turn_seq=from_seq,
                phase=phase,
                now=now,
                counterparty=e.counterparty,
                memo=f"rollback of {e.kind} ({e.phase})",
                reverses=e.id,
            )
            count += 1
    return count
