"""The sealed call market of one company (docs/exchange.md, "Trading"): every order of the
phase is cleared at once, at one price for everyone.

The price is the limit price that trades the most shares; among those, the one that
leaves the least surplus |D - S|; then, if buyers are left over at all of them, the
highest (if sellers are, the lowest); then the one nearest the last price; then the lower.
Buy orders fill from the highest limit down, sell orders from the lowest up; orders at the
marginal limit share what is left one share at a time, in an order drawn from the seed,
so that nothing depends on who mailed first."""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from dataclasses import dataclass


class Side(enum.Enum):
    BUY = "buy"
    SELL = "sell"


@dataclass(frozen=True, slots=True)
class MarketOrder:
    """Buy (or sell) up to `shares` of `company`, paying at most (taking at least) `price`
    AgP each. `account` is a ledger key: `@ALICE`, or the company itself for its pool."""

    account: str
    side: Side
    company: str
    shares: int
    price: int


@dataclass(frozen=True, slots=True)
class Fill:
    """What one order got: `shares` at the clearing `price` (0 shares: unfilled)."""

    order: MarketOrder
    shares: int
    price: int

    @property
    def amount(self) -> int:
        """AgP paid (a buy) or received (a sell)."""
        return self.shares * self.price


@dataclass(frozen=True, slots=True)
class Clearing:
    """One company's market in one phase: the price (None: no trade) and every order's fill,
    in the order the orders were given."""

    company: str
    price: int | None
    volume: int
    fills: tuple[Fill, ...]


def _demand(orders: Sequence[MarketOrder], p: int) -> int:
    return sum(o.shares for o in orders if o.side is Side.BUY and o.price >= p)


def _supply(orders: Sequence[MarketOrder], p: int) -> int:
    return sum(o.shares for o in orders if o.side is Side.SELL and o.price <= p)


def clearing_price(orders: Sequence[MarketOrder], reference: int) -> int | None:
    """The uniform price of these orders (None when no share can change hands);
    `reference` is the company's last price (at the float, the reserve)."""
    candidates = sorted({o.price for o in orders})
    book = {p: (_demand(orders, p), _supply(orders, p)) for p in candidates}
    volume = {p: min(d, s) for p, (d, s) in book.items()}
    best = max(volume.values(), default=0)
    if best == 0:
        return None
    left = [p for p in candidates if volume[p] == best]
    least = min(abs(book[p][0] - book[p][1]) for p in left)
    left = [p for p in left if abs(book[p][0] - book[p][1]) == least]
    if all(book[p][0] > book[p][1] for p in left):
        return max(left)  # buyers left over everywhere: the market presses up
    if all(book[p][0] < book[p][1] for p in left):
        return min(left)  # sellers left over everywhere: it presses down
    return min(left, key=lambda p: (abs(p - reference), p))


def _ration(
    orders: Sequence[MarketOrder], volume: int, rng: random.Random, *, highest_first: bool
) -> dict[int, int]:
    """Shares per order index: whole orders by limit, the marginal limit round robin."""
    got = dict.fromkeys(range(len(orders)), 0)
    left = volume
    limits = sorted({o.price for o in orders}, reverse=highest_first)
    for limit in limits:
        if left == 0:
            break
        group = [i for i, o in enumerate(orders) if o.price == limit]
        wanted = sum(orders[i].shares for i in group)
        if wanted <= left:
            for i in group:
                got[i] = orders[i].shares
            left -= wanted
            continue
        # a seeded order over a canonical one: the order of the mails never matters
        turn = sorted(group, key=lambda i: (orders[i].account, orders[i].shares))
        rng.shuffle(turn)
        while left > 0:
            for i in turn:
                if left > 0 and got[i] < orders[i].shares:
                    got[i] += 1
                    left -= 1
    return got


def clear(company: str, orders: Sequence[MarketOrder], last_price: int, seed: int | str) -> Clearing:
    """Clear `company`'s market: every order in `orders` must be for it."""
    if any(o.company != company for o in orders):
        raise ValueError(f"an order for another company in {company}'s market")
    price = clearing_price(orders, last_price)
    if price is None:
        return Clearing(company, None, 0, tuple(Fill(o, 0, 0) for o in orders))
    buys = [i for i, o in enumerate(orders) if o.side is Side.BUY and o.price >= price]
    sells = [i for i, o in enumerate(orders) if o.side is Side.SELL and o.price <= price]
    volume = min(sum(orders[i].shares for i in buys), sum(orders[i].shares for i in sells))
    got = [0] * len(orders)
    for side, chosen, highest_first in ((Side.BUY, buys, True), (Side.SELL, sells, False)):
        rng = random.Random(f"payjudge-exchange:{seed}:{company}:{side.value}")
        rationed = _ration([orders[i] for i in chosen], volume, rng, highest_first=highest_first)
        for j, i in enumerate(chosen):
            got[i] = rationed[j]
    return Clearing(company, price, volume, tuple(Fill(o, got[i], price) for i, o in enumerate(orders)))
