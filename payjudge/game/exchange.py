"""Exchange Payola's use cases on the store (docs/exchange.md, "In the code"): the market
at the game's start (capital, the pools' issue), the market of a turn (the share ledger's
register and the turn's `market` snapshot), booking an exchange phase's movements in both
append-only ledgers, standing CEO votes, and the rollback of share entries.

Money goes through `money.record` like every other movement; shares through the share
ledger, whose sums are the holdings. Neither is ever updated, only added to."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from datetime import datetime
from typing import Any

from ..payola.exchange.accounts import investor_key
from ..payola.exchange.phase import ExchangeOutcome, MarketState, float_state
from ..rules.phase import Phase
from ..store import Session, repo
from ..store.models import CeoVote, Game, ShareEntry
from ..vocabulary import LedgerKind, ShareKind
from . import money


def market_json(state: MarketState) -> dict[str, Any]:
    """What `turn.market` keeps: everything but the register, which the share ledger keeps."""
    return {
        "shares": dict(state.shares),
        "ceos": dict(state.ceos),
        "worths": dict(state.worths),
        "last_prices": dict(state.last_prices),
    }


def load_market(s: Session, game: Game, snapshot: Mapping[str, Any]) -> MarketState:
    """The market of a turn: its snapshot, with the register summed from the share ledger."""
    register: dict[str, dict[str, int]] = {c: {} for c in snapshot["shares"]}
    for (company, holder), n in repo.holdings(s, game).items():
        if n:
            register.setdefault(company, {})[holder] = n
    return MarketState(
        shares=dict(snapshot["shares"]),
        register=register,
        ceos=dict(snapshot["ceos"]),
        worths=dict(snapshot["worths"]),
        last_prices=dict(snapshot["last_prices"]),
    )


def record_shares(
    s: Session,
    game: Game,
    company: str,
    holder: str,
    kind: ShareKind,
    amount: int,
    *,
    turn_seq: int,
    phase: Phase,
    now: datetime,
    price: int | None = None,
    memo: str = "",
    reverses: int | None = None,
) -> ShareEntry:
    entry = ShareEntry(
        game_id=game.id,
        company=company,
        holder=holder,
        kind=kind,
        amount=amount,
        turn_seq=turn_seq,
        phase=phase,
        price=price,
        memo=memo[:200],
        reverses=reverses,
        created_at=now,
    )
    s.add(entry)
    return entry


def open_market(
    s: Session,
    game: Game,
    companies: Collection[str],
    investors: Collection[str],
    *,
    capital: int,
    shares: int,
    worths: Mapping[str, int],
    reserve: int,
    turn_seq: int,
    phase: Phase,
    now: datetime,
) -> MarketState:
    """The game's start: each investor's capital, each pool all its company's shares (the
    companies' opening treasuries are booked as in every Payola game)."""
    for name in sorted(investors):
        money.record(
            s, game, investor_key(name), LedgerKind.CAPITAL, capital, turn_seq=turn_seq, phase=phase, now=now
        )
    for company in sorted(companies):
        record_shares(
            s, game, company, company, ShareKind.ISSUE, shares, turn_seq=turn_seq, phase=phase, now=now
        )
    return float_state(companies, shares, worths, reserve)


def book(
    s: Session, game: Game, outcome: ExchangeOutcome, *, turn_seq: int, phase: Phase, now: datetime
) -> None:
    """Book an exchange phase's money and share movements in the two ledgers."""
    for m in outcome.money:
        money.record(
            s,
            game,
            m.account,
            LedgerKind(m.kind.value),
            m.amount,
            turn_seq=turn_seq,
            phase=phase,
            now=now,
            counterparty=m.counterparty,
            memo=m.memo,
        )
    for sh in outcome.shares:
        record_shares(
            s,
            game,
            sh.company,
            sh.holder,
            ShareKind(sh.kind.value),
            sh.amount,
            turn_seq=turn_seq,
            phase=phase,
            now=now,
            price=sh.price,
            memo=f"{sh.kind.value} at {sh.price}",
        )


def roll_back_shares(s: Session, game: Game, from_seq: int, *, phase: Phase, now: datetime) -> int:
    """Reverse every share entry made at or after turn `from_seq` by new entries (as
    `money.roll_back` does for money); returns how many."""
    entries = repo.share_entries(s, game)
    done = {e.reverses for e in entries if e.reverses is not None}
    count = 0
    for e in entries:
        if e.turn_seq >= from_seq and e.kind is not ShareKind.ROLLBACK and e.id not in done:
            record_shares(
                s,
                game,
                e.company,
                e.holder,
                ShareKind.ROLLBACK,
                -e.amount,
                turn_seq=from_seq,
                phase=phase,
                now=now,
                price=e.price,
                memo=f"rollback of {e.kind} ({e.phase})",
                reverses=e.id,
            )
            count += 1
    return count


def set_ceo_vote(
    s: Session, game: Game, voter: str, company: str, candidate: str | None, *, now: datetime
) -> None:
    """Record a standing CEO vote (None withdraws it): the latest row counts."""
    s.add(CeoVote(game_id=game.id, voter=voter, company=company, candidate=candidate, set_at=now))


def ceo_votes(s: Session, game: Game) -> dict[str, dict[str, str | None]]:
    """company -> voter -> candidate, as `run_exchange` takes them."""
    out: dict[str, dict[str, str | None]] = {}
    for (voter, company), candidate in repo.ceo_votes(s, game).items():
        out.setdefault(company, {})[voter] = candidate
    return out
