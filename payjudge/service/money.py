"""The money ledger: append-only entries, balances derived by summing them."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ..store.models import Game, LedgerEntry


def balances(s: Session, game: Game) -> dict[str, int]:
    rows = s.execute(select(LedgerEntry.power, func.sum(LedgerEntry.amount))
                     .where(LedgerEntry.game_id == game.id).group_by(LedgerEntry.power)).all()
    return {power: int(total) for power, total in rows}


def balance(s: Session, game: Game, power: str) -> int:
    total = s.scalar(select(func.sum(LedgerEntry.amount))
                     .where(LedgerEntry.game_id == game.id, LedgerEntry.power == power))
    return int(total or 0)


def record(s: Session, game: Game, power: str, kind: str, amount: int, *, turn_seq: int,
           phase: str, now: datetime, counterparty: str | None = None, memo: str = "",
           reverses: int | None = None) -> LedgerEntry:
    entry = LedgerEntry(game_id=game.id, power=power, kind=kind, amount=amount,
                        turn_seq=turn_seq, phase=phase, counterparty=counterparty,
                        memo=memo[:200], reverses=reverses, created_at=now)
    s.add(entry)
    return entry


def entries(s: Session, game: Game, power: str | None = None) -> list[LedgerEntry]:
    q = select(LedgerEntry).where(LedgerEntry.game_id == game.id)
    if power is not None:
        q = q.where(LedgerEntry.power == power)
    return list(s.scalars(q.order_by(LedgerEntry.id)))


def roll_back(s: Session, game: Game, from_seq: int, *, phase: str, now: datetime) -> int:
    """Reverse every entry made at or after turn `from_seq` by new entries; returns how many."""
    done = {e.reverses for e in entries(s, game) if e.reverses is not None}
    count = 0
    for e in entries(s, game):
        if e.turn_seq >= from_seq and e.kind != "rollback" and e.id not in done:
            record(s, game, e.power, "rollback", -e.amount, turn_seq=from_seq, phase=phase,
                   now=now, counterparty=e.counterparty, memo=f"rollback of {e.kind} ({e.phase})",
                   reverses=e.id)
            count += 1
    return count
