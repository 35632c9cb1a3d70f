"""One exchange phase (docs/exchange.md, "The phases"), steps 1 to 4: dividends to the
register held during the phase, one call market per company, the elections on the register
after the trades, and the worths the CEOs set. Pure: it returns every money and share
movement for the ledgers, and the market after the phase.

Every movement comes in balanced pairs (a dividend's payments sum to what the company
paid out; purchases to sales), so the phase creates no money and no share."""

from __future__ import annotations

import enum
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from ...rules.phase import Phase, PhaseType, Season
from .accounts import investor_name, is_investor
from .dividends import Dividend, dividend
from .election import Election, elect
from .market import Clearing, MarketOrder, Side, clear


@dataclass(frozen=True, slots=True)
class MarketState:
    """The market between two exchange phases. `register`: company -> holder key ->
    shares (the pool under the company's own key); `ceos`: company -> investor name."""

    shares: Mapping[str, int]
    register: Mapping[str, Mapping[str, int]]
    ceos: Mapping[str, str | None]
    worths: Mapping[str, int]
    last_prices: Mapping[str, int]

    def holding(self, company: str, key: str) -> int:
        return self.register.get(company, {}).get(key, 0)

    def companies(self) -> tuple[str, ...]:
        return tuple(sorted(self.shares))


@dataclass(frozen=True, slots=True)
class ExchangeSheet:
    """What one account sent for the phase: its orders; a company's also its dividend
    (None: none declared) and worth changes."""

    account: str
    orders: tuple[MarketOrder, ...] = ()
    dividend: int | None = None
    worths: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))


class MoneyKind(enum.Enum):
    """Why money moves in an exchange phase (the values are the ledger's words)."""

    DIVIDEND_OUT = "dividend_out"
    DIVIDEND_IN = "dividend_in"
    PURCHASE = "purchase"
    SALE = "sale"
    LIQUIDATION_OUT = "liquidation_out"
    LIQUIDATION_IN = "liquidation_in"


class ShareKind(enum.Enum):
    """Why shares move in an exchange phase (the values are the share ledger's words)."""

    PURCHASE = "purchase"
    SALE = "sale"


@dataclass(frozen=True, slots=True)
class MoneyMove:
    account: str
    kind: MoneyKind
    amount: int
    counterparty: str | None
    memo: str


@dataclass(frozen=True, slots=True)
class ShareMove:
    company: str
    holder: str
    kind: ShareKind
    amount: int
    price: int | None


@dataclass(frozen=True, slots=True)
class Cancelled:
    """Orders dropped at processing, and why (the owner is told)."""

    account: str
    company: str | None  # None: all of its buy orders
    reason: str


@dataclass(frozen=True, slots=True)
class ExchangeOutcome:
    state: MarketState
    dividends: tuple[Dividend, ...]
    clearings: tuple[Clearing, ...]
    elections: tuple[Election, ...]
    cancelled: tuple[Cancelled, ...]
    money: tuple[MoneyMove, ...]
    shares: tuple[ShareMove, ...]


def _valid_orders(
    sheets: Mapping[str, ExchangeSheet], state: MarketState, cash: Mapping[str, int]
) -> tuple[list[MarketOrder], list[Cancelled]]:
    """The orders that still meet every limit at processing, and those cancelled."""
    kept: list[MarketOrder] = []
    cancelled: list[Cancelled] = []
    for account in sorted(sheets):
        orders = sheets[account].orders
        buys = [o for o in orders if o.side is Side.BUY]
        committed = sum(o.shares * o.price for o in buys)
        if buys and committed > cash.get(account, 0):
            cancelled.append(
                Cancelled(
                    account,
                    None,
                    f"your buy orders commit {committed} AgP, but you hold {cash.get(account, 0)} AgP",
                )
            )
            orders = tuple(o for o in orders if o.side is Side.SELL)
        for company in sorted({o.company for o in orders}):
            mine = [o for o in orders if o.company == company]
            sides = {o.side for o in mine}
            selling = sum(o.shares for o in mine if o.side is Side.SELL)
            held = state.holding(company, account)
            if not is_investor(account) and company != account:
                reason = f"a company trades only its own stock ({account} cannot trade {company})"
            elif len(sides) > 1:
                reason = f"you cannot both buy and sell {company} in one phase"
            elif selling > held:
                reason = f"you hold {held} {company} shares: you cannot sell {selling}"
            else:
                kept.extend(mine)
                continue
            cancelled.append(Cancelled(account, company, reason))
    return kept, cancelled


@dataclass
class _Books:
    """What the steps of one phase change as they go: cash and the register, and the
    money and share movements for the ledgers."""

    cash: dict[str, int]
    register: dict[str, dict[str, int]]
    money: list[MoneyMove] = field(default_factory=list)
    shares: list[ShareMove] = field(default_factory=list)

    def pay(self, account: str, kind: MoneyKind, amount: int, counterparty: str | None, memo: str) -> None:
        self.money.append(MoneyMove(account, kind, amount, counterparty, memo))
        self.cash[account] = self.cash.get(account, 0) + amount


def _pay_dividends(state: MarketState, sheets: Mapping[str, ExchangeSheet], books: _Books) -> list[Dividend]:
    """Step 1: each managed company's declared dividend, to the register held during the phase."""
    dividends: list[Dividend] = []
    for company in state.companies():
        sheet = sheets.get(company)
        if sheet is None or sheet.dividend is None or state.ceos.get(company) is None:
            continue
        d = dividend(company, sheet.dividend, books.cash.get(company, 0), books.register[company])
        dividends.append(d)
        if d.total:
            memo = f"dividend {d.per_share} AgP a share"
            books.pay(company, MoneyKind.DIVIDEND_OUT, -d.total, None, memo)
            for key, amount in d.payments:
                books.pay(key, MoneyKind.DIVIDEND_IN, amount, company, memo)
    return dividends


def _settle(company: str, result: Clearing, books: _Books) -> None:
    """Every fill of a company's market in money and shares."""
    for f in result.fills:
        if not f.shares:
            continue
        buy = f.order.side is Side.BUY
        sign = -1 if buy else 1
        memo = f"{'bought' if buy else 'sold'} {f.shares} {company} at {f.price}"
        books.pay(
            f.order.account, MoneyKind.PURCHASE if buy else MoneyKind.SALE, sign * f.amount, company, memo
        )
        kind = ShareKind.PURCHASE if buy else ShareKind.SALE
        books.shares.append(ShareMove(company, f.order.account, kind, -sign * f.shares, f.price))
        held = books.register[company].get(f.order.account, 0) - sign * f.shares
        books.register[company][f.order.account] = held


def _trade(
    state: MarketState,
    orders: list[MarketOrder],
    books: _Books,
    seed: int | str,
    float_price: int | None,
) -> tuple[list[Clearing], dict[str, int]]:
    """Step 2: one call market per company; returns the clearings and the last prices."""
    if float_price is not None:  # the float: every pool offered at the reserve
        pools = {c: books.register[c].get(c, 0) for c in state.companies()}
        orders = orders + [MarketOrder(c, Side.SELL, c, n, float_price) for c, n in pools.items() if n > 0]
    last_prices = dict(state.last_prices)
    clearings: list[Clearing] = []
    for company in state.companies():
        book = [o for o in orders if o.company == company]
        if not book:
            continue
        reference = float_price if float_price is not None else last_prices.get(company, 1)
        result = clear(company, book, reference, seed)
        clearings.append(result)
        if result.price is not None:
            last_prices[company] = result.price
            _settle(company, result, books)
    return clearings, last_prices


def _elect_all(
    state: MarketState,
    register: Mapping[str, Mapping[str, int]],
    votes: Mapping[str, Mapping[str, str | None]],
    playing: Collection[str],
    seed: int | str,
) -> list[Election]:
    """Step 3: every company's CEO, on the register after the trades."""
    elections: list[Election] = []
    for company in state.companies():
        holders = {investor_name(k): n for k, n in register[company].items() if is_investor(k)}
        elections.append(
            elect(company, holders, votes.get(company, {}), state.ceos.get(company), playing, seed)
        )
    return elections


def _set_worths(state: MarketState, sheets: Mapping[str, ExchangeSheet]) -> dict[str, int]:
    """Step 4: the worths the (outgoing) CEOs set."""
    worths = dict(state.worths)
    for company in state.companies():
        sheet = sheets.get(company)
        if sheet is not None and state.ceos.get(company) is not None:
            worths.update(sheet.worths)
    return worths


def run_exchange(
    state: MarketState,
    sheets: Mapping[str, ExchangeSheet],
    balances: Mapping[str, int],
    votes: Mapping[str, Mapping[str, str | None]],
    playing: Collection[str],
    seed: int | str,
    *,
    float_price: int | None = None,
) -> ExchangeOutcome:
    """Process an exchange phase. `sheets` and `balances` are keyed by account key; `votes`:
    company -> voter -> candidate (investor names); `playing`: investor names. With
    `float_price` it is the float: every pool is offered at that price, and companies
    neither pay dividends nor trade nor set worths."""
    books = _Books(dict(balances), {c: dict(state.register.get(c, {})) for c in state.companies()})
    if float_price is not None:
        sheets = {k: s for k, s in sheets.items() if is_investor(k)}
    dividends = _pay_dividends(state, sheets, books)
    orders, cancelled = _valid_orders(sheets, state, books.cash)
    clearings, last_prices = _trade(state, orders, books, seed, float_price)
    elections = _elect_all(state, books.register, votes, playing, seed)
    after = MarketState(
        shares=state.shares,
        register={c: {k: n for k, n in sorted(r.items()) if n} for c, r in books.register.items()},
        ceos={**state.ceos, **{e.company: e.ceo for e in elections}},
        worths=_set_worths(state, sheets) if float_price is None else dict(state.worths),
        last_prices=last_prices,
    )
    return ExchangeOutcome(
        after,
        tuple(dividends),
        tuple(clearings),
        tuple(elections),
        tuple(cancelled),
        tuple(books.money),
        tuple(books.shares),
    )


def float_state(
    companies: Collection[str], shares: int, worths: Mapping[str, int], reserve: int
) -> MarketState:
    """The market when the game starts: every pool holds all its company's shares."""
    return MarketState(
        shares=dict.fromkeys(sorted(companies), shares),
        register={c: {c: shares} for c in sorted(companies)},
        ceos=dict.fromkeys(sorted(companies)),
        worths=dict(worths),
        last_prices=dict.fromkeys(sorted(companies), reserve),
    )


def phase_after(current: Phase, following: Phase | None = None) -> Phase:
    """The phase that opens after `current` in an Exchange game. `following` is the one
    ordinary play opens (None after an exchange phase): a year's exchange phase comes
    after its last Diplomacy phase, whether or not there were adjustments; after it (and
    after the float) comes the next spring."""
    if current.is_exchange:
        return Phase(current.year + 1, Season.SPRING, PhaseType.MOVEMENT)
    if following is None:
        raise ValueError(f"the phase after {current} needs the one ordinary play opens")
    if following.year > current.year:
        return Phase(current.year, Season.WINTER, PhaseType.EXCHANGE)
    return following
