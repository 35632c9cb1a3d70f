"""One exchange line of a mail (docs/exchange.md, "Mail commands"): BUY, SELL, PASS,
DIVIDEND or WORTH for an account in the open exchange phase. The line changes the
account's `ExchangeOrders` on record; the whole sheet is checked against the account's
cash and holdings (and a company's treasury and allowance) before it is stored."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar

from ...payola.exchange.accounts import is_investor
from ...payola.exchange.market import Side
from ...payola.exchange.orders import check_orders
from ...payola.exchange.phase import MarketState
from ...payola.exchange.problems import ExchangeProblem, ProblemKind
from ...store.models import Turn
from ...text.exchange import DividendLine, ExchangeLine, PassLine, TradeLine, WorthLine
from ...text.exchange_orders import ExchangeOrders
from .. import money
from ..context import CommandError
from ..state import GameState
from .dividends import DividendTaken, dividend_problems, dividend_taken
from .market import ledger_key, load_market, max_shares
from .sheets import engine_sheet, exchange_turn, parse_line, record_exchange_sheet, stored_orders
from .worths import WorthTaken, owned_centres, worth_problems, worth_taken


@dataclass(frozen=True)
class ExchangeTaken:
    """`templates/notes/exchange_order.txt.j2`: one BUY, SELL or PASS line taken."""

    note: ClassVar[str] = "exchange_order"
    phase: str
    line: TradeLine | None  # None: PASS
    committed: int  # what the account's buy orders now commit
    cash: int
    held: int  # the shares of the line's company the account holds (its pool: a company)
    company_account: bool


@dataclass(frozen=True)
class _Desk:
    """What a line is checked against: the open phase, its market, and the account's cash
    and orders on record."""

    turn: Turn
    state: MarketState
    account: str
    cash: int
    orders: ExchangeOrders

    @property
    def company_account(self) -> bool:
        return not is_investor(self.account)


def _desk(st: GameState, account: str) -> _Desk:
    turn = exchange_turn(st)
    assert turn.market is not None
    state = load_market(st.session, st.game, turn.market)
    cash = money.balance(st.session, st.game, ledger_key(account))
    return _Desk(turn, state, account, cash, stored_orders(st, account, state))


def _check_account(line: ExchangeLine, company_account: bool) -> None:
    """DIVIDEND and WORTH are a company's, PASS an investor's."""
    if isinstance(line, DividendLine | WorthLine) and not company_account:
        word = "DIVIDEND" if isinstance(line, DividendLine) else "WORTH"
        raise CommandError(f"write FOR <company> first: {word} acts for a company you run")
    if isinstance(line, PassLine) and company_account:
        raise CommandError("PASS is for investors: a company without orders sends none")


def _changed(st: GameState, desk: _Desk, line: ExchangeLine, fresh: bool) -> ExchangeOrders:
    """The account's orders with the line in."""
    _check_account(line, desk.company_account)
    orders = desk.orders
    match line:
        case WorthLine(centre, worth) if not centre:
            return orders.with_worth(worth, owned_centres(st, desk.account))
        case TradeLine() | PassLine() | DividendLine() | WorthLine():
            return orders.with_line(line, fresh=fresh)
    raise CommandError("VOTE CEO is written VOTE CEO <company> <investor>")


def _problems(st: GameState, desk: _Desk, orders: ExchangeOrders) -> list[ExchangeProblem]:
    sheet = engine_sheet(desk.account, orders)
    problems = check_orders(desk.account, sheet.orders, desk.state, desk.cash, is_float=desk.turn.seq == 1)
    if desk.company_account:
        problems += dividend_problems(desk.account, orders, desk.state, desk.cash)
        problems += worth_problems(st, desk.account, orders, desk.state)
    return problems


def _taken(
    st: GameState, desk: _Desk, line: ExchangeLine, orders: ExchangeOrders
) -> ExchangeTaken | DividendTaken | WorthTaken:
    if isinstance(line, DividendLine):
        return dividend_taken(desk.account, line.per_share, desk.state, desk.cash)
    if isinstance(line, WorthLine):
        return worth_taken(st, desk.account, orders, desk.state)
    committed = sum(t.shares * t.price for t in orders.trades if t.side is Side.BUY)
    trade = line if isinstance(line, TradeLine) else None
    held = desk.state.holding(trade.company, desk.account) if trade else 0
    return ExchangeTaken(desk.turn.phase.title, trade, committed, desk.cash, held, desk.company_account)


def enter_exchange_line(
    st: GameState, account: str, text: str, *, fresh: bool, now: datetime, allowance_later: bool = False
) -> ExchangeTaken | DividendTaken | WorthTaken:
    """One BUY, SELL, PASS, DIVIDEND or WORTH line for `account` (an investor's key, or a
    company its CEO acts for) in the open exchange phase. Its trade lines are replaced as
    a whole by the next message holding any (`fresh`: this is that message's first trade
    line for the account); DIVIDEND and each centre's WORTH by their latest line
    (`allowance_later`: the worths' total is checked by `check_allowance` once the
    message's every WORTH line is in, so that their order does not matter)."""
    desk = _desk(st, account)
    line = parse_line(st, text, max_shares(desk.state))
    orders = _changed(st, desk, line, fresh)
    problems = [
        p
        for p in _problems(st, desk, orders)
        if not (allowance_later and p.kind is ProblemKind.OVER_ALLOWANCE)
    ]
    if problems:
        raise CommandError("; ".join(map(str, problems)))
    record_exchange_sheet(st, account, orders, now=now)
    return _taken(st, desk, line, orders)
