"""The market of an Exchange game on the store (docs/exchange.md, "In the code"): the
turn's `market` snapshot with the register summed from the share ledger, the market at
the game's start, booking an exchange phase's movements in both append-only ledgers, and
their rollback. Money goes through `money.record`; shares through the same `ledger.post`."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from ...payola.exchange.accounts import investor_key, is_investor
from ...payola.exchange.phase import ExchangeOutcome, MarketState, MoneyMove, float_state
from ...rules.names import PowerName
from ...rules.phase import Phase
from ...store import Session, repo
from ...store.models import Game, ShareEntry
from ...vocabulary import LedgerKind, ShareKind
from .. import ledger, money
from ..ledger import Posting
from ..state import GameState

_V = TypeVar("_V")


def by_account(by_name: Mapping[PowerName, _V]) -> dict[str, _V]:
    """The store's accounts (companies' names and investors' keys, kept in the ledger's
    power column) as the exchange engine keys them: by account key, plain text."""
    return {str(k): v for k, v in by_name.items()}


def ledger_key(account: str) -> PowerName:
    # the ledger keeps every account, an investor's key included, in its power column
    return PowerName(account)


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


def max_shares(state: MarketState) -> int:
    """The most shares one order may name: the game's SHARES."""
    return max(state.shares.values(), default=1)


def record_shares(
    s: Session,
    game: Game,
    company: str,
    holder: str,
    kind: ShareKind,
    amount: int,
    at: Posting,
    *,
    price: int | None = None,
    memo: str = "",
) -> ShareEntry:
    account = {"company": company, "holder": holder, "price": price}
    return ledger.post(s, ShareEntry, game, kind, amount, at, account, memo=memo)


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
    at = Posting(turn_seq, phase, now)
    for name in sorted(investors):
        key = ledger_key(investor_key(name))
        money.record(s, game, key, LedgerKind.CAPITAL, capital, turn_seq=turn_seq, phase=phase, now=now)
    for company in sorted(companies):
        record_shares(s, game, company, company, ShareKind.ISSUE, shares, at)
    return float_state(companies, shares, worths, reserve)


def record_money(s: Session, game: Game, move: MoneyMove, at: Posting) -> None:
    """One money movement of the exchange engine (a phase's or the liquidation's) in the ledger."""
    money.record(
        s,
        game,
        ledger_key(move.account),
        LedgerKind(move.kind.value),
        move.amount,
        turn_seq=at.turn_seq,
        phase=at.phase,
        now=at.now,
        counterparty=move.counterparty,
        memo=move.memo,
    )


def book(
    s: Session, game: Game, outcome: ExchangeOutcome, *, turn_seq: int, phase: Phase, now: datetime
) -> None:
    """Book an exchange phase's money and share movements in the two ledgers."""
    at = Posting(turn_seq, phase, now)
    for m in outcome.money:
        record_money(s, game, m, at)
    for sh in outcome.shares:
        memo = f"{sh.kind.value} at {sh.price}"
        record_shares(
            s, game, sh.company, sh.holder, ShareKind(sh.kind.value), sh.amount, at, price=sh.price, memo=memo
        )


def roll_back_shares(s: Session, game: Game, from_seq: int, *, phase: Phase, now: datetime) -> int:
    """Reverse every share entry made at or after turn `from_seq` by new entries (as
    `money.roll_back` does for money); returns how many."""
    at = Posting(from_seq, phase, now)
    return ledger.roll_back(s, game, repo.share_entries(s, game), ShareKind.ROLLBACK, at)


def holdings(st: GameState, account: str) -> dict[str, int]:
    """company -> the shares `account` holds (a company's own key: its pool)."""
    return {
        company: n
        for (company, holder), n in sorted(repo.holdings(st.session, st.game).items())
        if holder == account and n
    }


@dataclass(frozen=True)
class CompanyStanding:
    """What everyone may know of a company (docs/exchange.md, "What each party sees"): its
    CEO and how many of its shares investors hold, for SUMMARY."""

    company: str
    ceo: str | None
    outstanding: int
    shares: int


def company_standings(st: GameState) -> list[CompanyStanding]:
    """Each company's CEO and shares outstanding now, in the map's order (empty before the
    game starts: there is no market yet)."""
    market = st.market()
    if market is None:
        return []
    held = repo.holdings(st.session, st.game)
    return [
        CompanyStanding(
            company,
            market["ceos"].get(company),
            sum(n for (c, holder), n in held.items() if c == company and is_investor(holder)),
            int(market["shares"].get(company, 0)),
        )
        for company in map(str, st.map.power_names)
    ]
