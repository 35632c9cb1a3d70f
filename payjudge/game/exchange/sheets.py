"""An account's exchange sheet on the store (docs/exchange.md, "Trading"): the open
exchange phase a line is for, the line read with the game's companies, and the sheet kept
as a current submission whose text is `ExchangeOrders`' stored form, read back into that
value and handed to the engine as its `ExchangeSheet`."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from ...payola.exchange.market import MarketOrder
from ...payola.exchange.phase import ExchangeSheet, MarketState
from ...rules.phase import Phase, PhaseType, Season
from ...store import repo
from ...store.models import Submission, Turn
from ...text.exchange import ExchangeLine, parse_exchange_line
from ...text.exchange_orders import ExchangeOrders, read_exchange_orders
from ...text.problems import LineError
from ...vocabulary import SubmissionKind
from ..context import CommandError
from ..state import GameState
from .market import ledger_key, max_shares


def companies(st: GameState) -> dict[str, str]:
    """Every word that names a company (its name or initial) -> its name."""
    out: dict[str, str] = {}
    for p in st.map.powers:
        out[str(p.name)] = str(p.name)
        if p.initial:
            out[p.initial] = str(p.name)
    return out


def parse_line(st: GameState, text: str, shares: int) -> ExchangeLine:
    """One line of a mail, or the command is refused with the parser's words."""
    try:
        return parse_exchange_line(
            text, companies=companies(st), shares=shares, centres=st.map.supply_centers
        )
    except LineError as exc:
        raise CommandError(str(exc)) from None


def exchange_turn(st: GameState) -> Turn:
    """The open exchange phase, or the command is refused saying when the next one is."""
    turn = st.turn
    if turn is None or not st.game.state.is_running:
        raise CommandError(f"{st.game.name} is {st.game.state}: nothing can be ordered now")
    if not turn.phase.is_exchange or turn.market is None:
        following = Phase(turn.phase.year, Season.WINTER, PhaseType.EXCHANGE)
        raise CommandError(
            f"exchange orders are for exchange phases (now: {st.calendar.title(turn.phase)}; "
            f"the next is {st.calendar.title(following)})"
        )
    return turn


def read_orders(text: str, state: MarketState, centres: Collection[str]) -> ExchangeOrders:
    """A stored sheet as its value (stored lines name companies by their names)."""
    names = {c: c for c in state.companies()}
    return read_exchange_orders(text, companies=names, shares=max_shares(state), centres=centres)


def stored_orders(st: GameState, account: str, state: MarketState) -> ExchangeOrders:
    """What `account` has on record for the open exchange phase (nothing: empty)."""
    sub = st.submission(ledger_key(account))
    if sub is None or sub.kind is not SubmissionKind.EXCHANGE:
        return ExchangeOrders()
    return read_orders(sub.text, state, st.map.supply_centers)


def engine_sheet(account: str, orders: ExchangeOrders) -> ExchangeSheet:
    """The orders as the exchange engine takes them."""
    market = tuple(MarketOrder(account, t.side, t.company, t.shares, t.price) for t in orders.trades)
    dividend = orders.dividend.per_share if orders.dividend else None
    return ExchangeSheet(account, market, dividend, orders.worth_changes)


def record_exchange_sheet(st: GameState, account: str, orders: ExchangeOrders, *, now: datetime) -> None:
    """Store an account's exchange sheet for the open phase, replacing its previous one,
    as offer sheets are replaced."""
    turn = st.turn
    assert turn is not None
    repo.retire_submissions(st.session, turn, ledger_key(account))
    st.session.add(
        Submission(
            game_id=st.game.id,
            turn_id=turn.id,
            power=account,
            kind=SubmissionKind.EXCHANGE,
            text=str(orders),
            current=True,
            submitted_at=now,
        )
    )
