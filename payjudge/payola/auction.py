"""`run_auction`: the Payola order determination of one movement phase (rules 3-6).

Sheets, balances and acceptance lists in; the order of every unit, what each power pays
and its new balance out, with the chart of every unit's bids (rules 3.6, 4.5).
Pure: the only randomness is the expansion of `?` in acceptance lists, drawn from `seed`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Literal, TypeVar

from ..rules.names import PowerName
from ..rules.orders import Hold, Order, Unit
from ..rules.position import Position
from .acceptance import AcceptanceList, expand_all, investor_order
from .book import Book, Entry, EntryKind, UnitBook, compile_book
from .decide import Decision, amounts_at, evaluate, spending
from .offers import Offer, OfferOrder, Sheet, SignalSupport
from .overspend import reduce_overspending
from .reduction import reduce_literal
from .rules import Flag, PayolaRules
from .tincup import screen

# Payment, Bid, ChartUnit: values made by the hundred per auction, never changed once made,
# each by its own `__init__` (run in C when compiled: see book.Entry)


@dataclass(slots=True, unsafe_hash=True)
class Payment:
    """One accepted offer (rule 5.7 item 3): what the power pays for the unit's order."""

    unit: Unit
    order: OfferOrder
    amount: int
    gift: bool = False  # paid by a gift (`&`) for an order the gift did not name

    def __init__(self, unit: Unit, order: OfferOrder, amount: int, gift: bool = False) -> None:
        self.unit = unit
        self.order = order
        self.amount = amount
        self.gift = gift


@dataclass(slots=True, unsafe_hash=True)
class Bid:
    """One candidate order of a unit and what each power offered for it (for the chart)."""

    order: OfferOrder
    offers: tuple[tuple[PowerName, int], ...]  # (power, AgP), every power with an entry
    total: int
    chosen: bool

    def __init__(
        self, order: OfferOrder, offers: tuple[tuple[PowerName, int], ...], total: int, chosen: bool
    ) -> None:
        self.order = order
        self.offers = offers
        self.total = total
        self.chosen = chosen


@dataclass(slots=True, unsafe_hash=True)
class ChartUnit:
    unit: Unit
    owner: PowerName
    bids: tuple[Bid, ...]  # in tie-break order
    total: int  # the total the unit accepted (as reported)
    dummy_hold: bool

    def __init__(
        self, unit: Unit, owner: PowerName, bids: tuple[Bid, ...], total: int, dummy_hold: bool
    ) -> None:
        self.unit = unit
        self.owner = owner
        self.bids = bids
        self.total = total
        self.dummy_hold = dummy_hold


_K = TypeVar("_K")
_V = TypeVar("_V")


def _frozen(d: Mapping[_K, _V]) -> Mapping[_K, _V]:
    return MappingProxyType(dict(d))


@dataclass(frozen=True)
class Auction:
    """The outcome of the auction. Mappings are keyed by province (units) or power name."""

    orders: Mapping[str, OfferOrder]  # every unit's order
    units: Mapping[str, Unit]
    owners: Mapping[str, PowerName]
    totals: Mapping[str, int]  # the total each unit accepted (rule 5.7 item 2)
    # what was paid for each unit's order: its total, except after a dummy's tie HOLD
    # (rule 4.4), whose total is reported one above the tie and is paid by nobody
    received: Mapping[str, int]
    previous: Mapping[PowerName, int]  # balances before the auction
    savings: Mapping[PowerName, int]  # savings requested (rule 3.4)
    spent: Mapping[PowerName, int]  # expenditure (rules 5.5, 5.6)
    balances: Mapping[PowerName, int]  # balances after
    reductions: Mapping[PowerName, int]  # reduction rounds each power went through
    paid: Mapping[PowerName, tuple[Payment, ...]]  # accepted offers, unit order
    accept_used: Mapping[PowerName, tuple[PowerName, ...]]  # each power's list as expanded this phase
    chart: tuple[ChartUnit, ...]
    # FICTIONAL_OK (BLIND, Tin Cup): the offers ignored because they did not fit the board, per power
    ignored: Mapping[PowerName, tuple[Offer, ...]] = field(default_factory=lambda: MappingProxyType({}))

    def adjudication_orders(self) -> dict[str, Order]:
        """The orders to adjudicate: a signal support is a HOLD for the rules engine."""
        return {prov: (o.as_hold() if isinstance(o, SignalSupport) else o) for prov, o in self.orders.items()}

    def order_of(self, unit: Unit) -> OfferOrder:
        return self.orders[unit.province]

    def received_by(self, power: PowerName) -> int:
        """What the offers accepted by `power`'s units paid (ZEROSUM deposits it, rule 6.7)."""
        return sum(amount for prov, amount in self.received.items() if self.owners[prov] == power)


Method = Literal["fast", "lines", "literal"]


def run_auction(
    position: Position,
    sheets: Mapping[PowerName, Sheet],
    balances: Mapping[PowerName, int],
    accept: Mapping[PowerName, AcceptanceList],
    rules: PayolaRules,
    dummies: frozenset[PowerName] = frozenset(),
    seed: int = 0,
    *,
    method: Method = "fast",
    investors: Sequence[PowerName] = (),
) -> Auction:
    """Determine every unit's order and every power's expenditure.

    `sheets` holds the accepted sheets only (a rejected sheet is no sheet); a power with no
    sheet still gets the automatic 0 AgP HOLD for its units (rule 3.3). `accept` holds the
    acceptance lists on record (missing: `<own>?`); dummies' lists are never used (4.4).
    `method="literal"` runs the reduction rounds one by one (rule 5.5 as written), `"lines"`
    the line-and-pattern procedure of `overspend/` even where the literal one is cheaper
    (both for tests and benchmarks); `"fast"` picks what is cheaper, with the same result
    (docs/overexpenditure.md). Under FICTIONAL_OK (BLIND: Tin Cup) the offers that do not
    fit the board are dropped first (`tincup.screen`): they cost nothing and are not reduced.

    `investors` (Exchange Payola, docs/exchange.md) are payers beside the powers, keyed by
    their account keys in `sheets` and `balances`: they own no units, and every power's
    list ranks them after every power, among themselves in an order drawn from the seed.
    """
    m = position.map
    ignored: Mapping[PowerName, tuple[Offer, ...]] = {}
    if Flag.FICTIONAL_OK in rules:  # BLIND, Tin Cup: offers that do not fit the board are ignored
        screened = screen(position, sheets, rules, frozenset(dummies))
        sheets, ignored = screened.sheets, screened.ignored
    accept_used = expand_all(accept, m, seed, dummies)
    if investors:
        after = investor_order(investors, seed)
        accept_used = {p: (*lst, *after) for p, lst in accept_used.items()}
    book = compile_book(position, sheets, accept_used, rules, frozenset(dummies), payers=tuple(investors))
    powers = book.powers
    savings = {p: (sheets[p].savings if p in sheets and rules.savings_allowed else 0) for p in powers}
    limits = [max(balances.get(p, 0) - savings[p], 0) for p in powers]
    ebayola, public = Flag.EBAYOLA in rules, Flag.PUBLIC_TOTALS in rules
    if method == "literal":
        k = reduce_literal(book, limits, ebayola, public)
    else:
        k = reduce_overspending(book, limits, ebayola, public, shortcuts=method == "fast")
    decisions = evaluate(book, k, ebayola, public)
    spent = spending(book, decisions)
    auction = _auction(position, book, decisions, k, spent, balances, savings, accept_used)
    return replace(auction, ignored=_frozen(ignored)) if ignored else auction


def _issued(ub: UnitBook, d: Decision[int]) -> OfferOrder:
    order = ub.unit.hold if d.chosen < 0 else ub.candidates[d.chosen].order
    if ub.signal is not None and isinstance(order, Hold):
        return ub.signal
    return order


def _gift_payers(
    entries: tuple[Entry, ...], on_unit: tuple[int, ...], chosen: OfferOrder, amount: list[int]
) -> set[int]:
    """The powers whose gift (rule 3.2: `&` pays whatever the unit does) paid for an order
    the gift's line did not name."""
    out = set()
    for g in on_unit:
        ge = entries[g]
        if ge.kind is not EntryKind.GIFT or not amount[g]:
            continue
        named = {
            e.order
            for e in map(entries.__getitem__, on_unit)
            if e.power == ge.power and e.line == ge.line and e.kind is EntryKind.DIRECT
        }
        if chosen not in named:
            out.add(ge.power)
    return out


def _auction(
    position: Position,
    book: Book,
    decisions: list[Decision[int]],
    k: list[int],
    spent: list[int],
    balances: Mapping[PowerName, int],
    savings: Mapping[PowerName, int],
    accept_used: Mapping[PowerName, tuple[PowerName, ...]],
) -> Auction:
    powers, entries = book.powers, book.entries
    amount = amounts_at(book, k)
    at = amount.__getitem__
    orders, units, owners, totals, received = {}, {}, {}, {}, {}
    paid: dict[PowerName, list[Payment]] = {p: [] for p in powers}
    chart = []
    for ub, d in zip(book.units, decisions):
        prov = ub.unit.province
        order = _issued(ub, d)
        orders[prov], units[prov], owners[prov] = order, ub.unit, powers[ub.owner]
        totals[prov] = d.total
        received[prov] = sum([amt for _, amt in d.payments])
        if d.chosen >= 0 and d.payments:
            chosen = ub.candidates[d.chosen]
            gifts = (
                _gift_payers(entries, ub.entries, chosen.order, amount)
                if any(entries[e].kind is EntryKind.GIFT for e in ub.paying)  # (seldom)
                else ()
            )
            for (p, amt), (_, es) in zip(d.payments, chosen.by_power):  # (one payment per payer)
                # a payment of 0 is an accepted offer if the power made one (not the
                # automatic HOLD of rule 3.3)
                if amt or any(entries[e].kind is not EntryKind.DEFAULT_HOLD for e in es):
                    paid[powers[p]].append(Payment(ub.unit, order, amt, p in gifts))
        bids = []
        for ci, c in enumerate(ub.candidates):
            offers = tuple([(powers[p], sum(map(at, es))) for p, es in c.by_power])
            # (the total of the offers: the entries not paying are at 0 AgP for good)
            bids.append(Bid(c.order, offers, sum(map(at, c.paying)), ci == d.chosen))
        chart.append(ChartUnit(ub.unit, powers[ub.owner], tuple(bids), d.total, d.dummy_hold))
    before = {p: balances.get(p, 0) for p in powers}
    return Auction(
        orders=_frozen(orders),
        units=_frozen(units),
        owners=_frozen(owners),
        totals=_frozen(totals),
        received=_frozen(received),
        previous=_frozen(before),
        savings=_frozen(savings),
        spent=_frozen({p: spent[i] for i, p in enumerate(powers)}),
        balances=_frozen({p: before[p] - spent[i] for i, p in enumerate(powers)}),
        reductions=_frozen({p: k[i] for i, p in enumerate(powers)}),
        paid=_frozen({p: tuple(ps) for p, ps in paid.items()}),
        accept_used=_frozen(accept_used),
        chart=tuple(chart),
    )
