"""The two append-only ledgers (shared/STYLE.md §11), money (`LedgerEntry`) and Exchange
shares (`ShareEntry`), written the one same way: an entry is added with the turn it
belongs to, and a rollback reverses entries by new ones that name what they reverse.
Only what names the account differs, and the caller gives it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TypeVar

from ..rules.phase import Phase
from ..store import Session
from ..store.models import Game, LedgerEntry, ShareEntry

Entry = TypeVar("Entry", LedgerEntry, ShareEntry)

# what names an entry's account, copied onto the entry that reverses it
_ACCOUNT_FIELDS: dict[type, tuple[str, ...]] = {
    LedgerEntry: ("power", "counterparty"),
    ShareEntry: ("company", "holder", "price"),
}


@dataclass(frozen=True, slots=True)
class Posting:
    """When an entry is made: the turn it belongs to, and the clock's time."""

    turn_seq: int
    phase: Phase
    now: datetime


def post(
    s: Session,
    entry: type[Entry],
    game: Game,
    kind: object,
    amount: int,
    at: Posting,
    account: Mapping[str, object],
    *,
    memo: str = "",
    reverses: int | None = None,
) -> Entry:
    """Add one entry of type `entry`; `account`: the fields that name its account."""
    row = entry(
        game_id=game.id,
        kind=kind,
        amount=amount,
        turn_seq=at.turn_seq,
        phase=at.phase,
        memo=memo[:200],  # the column's width: a memo is for reading, never parsed
        reverses=reverses,
        created_at=at.now,
        **account,
    )
    s.add(row)
    return row


def roll_back(s: Session, game: Game, entries: Sequence[Entry], rollback: object, at: Posting) -> int:
    """Reverse every entry of `entries` made at or after turn `at.turn_seq` and not
    reversed yet, by new entries of kind `rollback`; returns how many."""
    done = {e.reverses for e in entries if e.reverses is not None}
    count = 0
    for e in entries:
        if e.turn_seq >= at.turn_seq and e.kind is not rollback and e.id not in done:
            account = {name: getattr(e, name) for name in _ACCOUNT_FIELDS[type(e)]}
            memo = f"rollback of {e.kind} ({e.phase})"
            post(s, type(e), game, rollback, -e.amount, at, account, memo=memo, reverses=e.id)
            count += 1
    return count
