"""The order book of a phase: every sheet's offers as numbered entries, and every unit's
candidate orders with the entries that pay for each (rules 3.1-3.3, 5.1).

Each power's entries are numbered in sheet order, as DPjudge numbered them, because
ties are broken by these numbers (rules 5.3, 5.4):

- a direct offer `n : U o1 | o2` is one entry of n AgP per order, in the order written;
- a move, hold or gift offer names its orders with 0 AgP entries (n AgP for an order its
  wildcard would not cover: a `>` offer naming a HOLD, an `@` offer naming a move), then
  one wildcard entry of n AgP that pays for every candidate it covers;
- a negative offer is a 0 AgP entry for HOLD just above the negative entry itself, which
  pays for every candidate it does not name;
- each repetition (`3*`) and each augmentation (`+`) is a separate entry;
- a unit whose owner made it no offer of any kind gets the owner's 0 AgP HOLD last (3.3).

The candidates of a unit are the orders of its direct entries; a wildcard entry is added
to every candidate it covers. Candidates are kept in tie-break order: an owner's
acceptance list is read from the top, and the first power with an entry on only one
of the tied orders decides, by its lowest entry number (rules 5.2-5.4).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from ..rules.names import PowerName
from ..rules.orders import Hold, Unit
from ..rules.position import Position
from .offers import Offer, OfferKind, OfferOrder, Sheet, SignalSupport, is_move
from .rules import Flag, PayolaRules


class EntryKind(enum.Enum):
    DIRECT = "direct"  # pays for its own order
    NEGATIVE = "negative"  # pays for every candidate but the ones named
    MOVE = "move"  # pays for every move
    HOLD = "hold"  # pays for every hold, support, convoy
    GIFT = "gift"  # pays for every candidate
    BUILT_HOLD = "built hold"  # the 0 AgP HOLD of a negative offer (rule 3.1)
    DEFAULT_HOLD = "default"  # the owner's 0 AgP HOLD of rule 3.3


_WILDCARD: Final = {
    OfferKind.NEGATIVE: EntryKind.NEGATIVE,
    OfferKind.MOVE: EntryKind.MOVE,
    OfferKind.HOLD: EntryKind.HOLD,
    OfferKind.GIFT: EntryKind.GIFT,
}


@dataclass(slots=True, unsafe_hash=True)
class Entry:
    """One entry of the book: a value, never changed once made.

    Entries, candidates and unit books are made by the thousand, so each class has its
    own `__init__`, which the compiled engines run in C (a frozen dataclass sets each field
    through `object.__setattr__`, a NamedTuple's `__new__` is Python code: both cost
    several times as much when compiled)."""

    power: int  # index into Book.powers
    num: int  # sequence number within the power's entries
    kind: EntryKind
    unit: Unit
    order: OfferOrder | None  # a direct entry's order
    excluded: tuple[OfferOrder, ...]  # a negative entry's orders
    amount: int
    plateau: int
    line: int  # sheet line (0 for a default hold)

    def __init__(
        self,
        power: int,
        num: int,
        kind: EntryKind,
        unit: Unit,
        order: OfferOrder | None,
        excluded: tuple[OfferOrder, ...],
        amount: int,
        plateau: int,
        line: int,
    ) -> None:
        self.power = power
        self.num = num
        self.kind = kind
        self.unit = unit
        self.order = order
        self.excluded = excluded
        self.amount = amount
        self.plateau = plateau
        self.line = line

    def covers(self, order: OfferOrder) -> bool:
        k = self.kind
        if k is EntryKind.NEGATIVE:
            return order not in self.excluded
        if k is EntryKind.MOVE:
            return is_move(order)
        if k is EntryKind.HOLD:
            return not is_move(order)
        if k is EntryKind.GIFT:
            return True
        return order == self.order


@dataclass(slots=True, unsafe_hash=True)
class Candidate:  # (a value, made by its own __init__: see Entry)
    order: OfferOrder
    entries: tuple[int, ...]  # every entry paying for it
    by_power: tuple[tuple[int, tuple[int, ...]], ...]  # per payer, in the owner's list order
    payers: frozenset[int]  # powers with an entry of any amount
    paying: tuple[int, ...]  # the entries above 0 AgP (the others stay at 0)

    def __init__(
        self,
        order: OfferOrder,
        entries: tuple[int, ...],
        by_power: tuple[tuple[int, tuple[int, ...]], ...],
        payers: frozenset[int],
        paying: tuple[int, ...],
    ) -> None:
        self.order = order
        self.entries = entries
        self.by_power = by_power
        self.payers = payers
        self.paying = paying


@dataclass(slots=True, unsafe_hash=True)
class UnitBook:  # (a value, made by its own __init__: see Entry)
    unit: Unit
    owner: int
    dummy: bool  # an unplayed power's unit: any tie at the top HOLDs (rule 4.4)
    candidates: tuple[Candidate, ...]  # in tie-break order
    entries: tuple[int, ...]  # every entry on the unit
    paying: tuple[int, ...]  # the entries above 0 AgP
    hold: int  # index of the HOLD candidate, or -1
    signal: SignalSupport | None  # RESTRICT_SIGNAL: replaces a winning HOLD

    def __init__(
        self,
        unit: Unit,
        owner: int,
        dummy: bool,
        candidates: tuple[Candidate, ...],
        entries: tuple[int, ...],
        paying: tuple[int, ...],
        hold: int,
        signal: SignalSupport | None,
    ) -> None:
        self.unit = unit
        self.owner = owner
        self.dummy = dummy
        self.candidates = candidates
        self.entries = entries
        self.paying = paying
        self.hold = hold
        self.signal = signal


@dataclass(frozen=True, slots=True)
class Book:
    powers: tuple[PowerName, ...]
    entries: tuple[Entry, ...]
    units: tuple[UnitBook, ...]
    flat: tuple[int, ...]  # per power: K of schedule.py
    accept: Mapping[PowerName, tuple[PowerName, ...]]
    rows: tuple[tuple[int, int, int], ...]  # per entry: (amount, plateau, power), for schedule.values
    # per power, its entries above 0 AgP (a power's rounds change their amounts only), and
    # per entry, the index of its unit in `units` (whose decision its amount may change)
    paying_of: tuple[tuple[int, ...], ...]
    unit_of: tuple[int, ...]
    # the last evaluation of the book, kept by `decide.evaluate` so that the next one (the
    # literal reduction's next round, the auction's final reading) decides again only the
    # units with an entry whose amount changed: a cache, no part of the value
    memo: dict[tuple[bool, bool], Any] = field(default_factory=dict, compare=False, repr=False)


def _signal(offer: Offer) -> SignalSupport | None:
    return next((o for o in offer.orders if isinstance(o, SignalSupport)), None)


# an entry of an offer before it is numbered: (kind, order, excluded, amount, plateau)
_Raw = tuple[EntryKind, OfferOrder | None, tuple[OfferOrder, ...], int, int]


def _expand(offer: Offer) -> list[_Raw]:
    """Each entry of the offer, in order."""
    out: list[_Raw] = []
    u, kind = offer.unit, offer.kind
    for term in offer.terms:
        amount, plateau = term.amount, term.plateau
        for _ in range(term.repeat):  # `3*` and `+`: separate entries (rule 3.1)
            if kind is OfferKind.NEGATIVE:
                out.append((EntryKind.BUILT_HOLD, u.hold, (), 0, 0))
                out.append((EntryKind.NEGATIVE, None, offer.orders, amount, plateau))
                continue
            for order in offer.orders:
                if kind is OfferKind.DIRECT:
                    paid = True
                elif kind is OfferKind.MOVE:
                    paid = not is_move(order)
                elif kind is OfferKind.HOLD:
                    paid = is_move(order)
                else:
                    paid = False
                out.append((EntryKind.DIRECT, order, (), amount if paid else 0, plateau if paid else 0))
            if kind is not OfferKind.DIRECT:
                out.append((_WILDCARD[kind], None, (), amount, plateau))
    return out


def compile_book(
    position: Position,
    sheets: Mapping[PowerName, Sheet],
    accept: Mapping[PowerName, tuple[PowerName, ...]],
    rules: PayolaRules,
    dummies: frozenset[PowerName] = frozenset(),
    payers: tuple[PowerName, ...] = (),  # investors' account keys, paying like powers
) -> Book:
    """Number every entry and gather each unit's candidates, in tie-break order.

    `accept` is each power's acceptance list as used this phase (every power, expanded).
    `payers` are payers beside the map's powers (Exchange Payola's investors): they own
    no units, and come after the powers in `Book.powers`.
    """
    powers = position.map.power_names + payers
    restrict = Flag.RESTRICT_SIGNAL in rules
    signals: dict[str, SignalSupport] = {}
    entries: list[Entry] = []
    on_unit: dict[str, list[int]] = {}  # per province: its entries, numbered in book order
    flat = [0] * len(powers)  # K of schedule.py, per power
    paying_of = []
    for pi, p in enumerate(powers):
        first = len(entries)
        sheet = sheets.get(p)
        for offer in sheet.offers if sheet else ():
            if restrict and (signal := _signal(offer)) is not None:
                signals.setdefault(offer.unit.province, signal)
                continue
            u, line = offer.unit, offer.line
            ids = on_unit.setdefault(u.province, [])
            for kind, order, excluded, amount, plateau in _expand(offer):
                ids.append(len(entries))
                num = len(entries) - first
                entries.append(Entry(pi, num, kind, u, order, excluded, amount, plateau, line))
                if amount - plateau > flat[pi]:
                    flat[pi] = amount - plateau
        for unit in position.units.get(p, ()):
            # a power's entries come last so far: its unit has one of them (every offer
            # names orders of its unit, a negative one the HOLD it builds) if it has the last
            ids = on_unit.setdefault(unit.province, [])
            if not ids or ids[-1] < first:
                ids.append(len(entries))
                num = len(entries) - first
                entries.append(Entry(pi, num, EntryKind.DEFAULT_HOLD, unit, unit.hold, (), 0, 0, 0))
        paying_of.append(tuple(i for i in range(first, len(entries)) if entries[i].amount > 0))
    pindex = {p: i for i, p in enumerate(powers)}
    ranks: dict[PowerName, dict[int, int]] = {}  # per owner: each power's place in its list
    units = []
    for owner, unit in sorted(position.all_units(), key=lambda pu: pu[1].province):
        if owner not in ranks:
            ranks[owner] = {pindex[x]: n for n, x in enumerate(accept[owner])}
        units.append(
            _unit_book(
                unit,
                pindex[owner],
                owner in dummies,
                on_unit.get(unit.province, []),
                entries,
                ranks[owner],
                signals.get(unit.province) if restrict else None,
            )
        )
    unit_of = [-1] * len(entries)  # (-1: no unit there; not under FICTIONAL_OK's screen)
    for ui, ub in enumerate(units):
        for i in ub.entries:
            unit_of[i] = ui
    return Book(
        powers,
        tuple(entries),
        tuple(units),
        tuple(flat),
        dict(accept),
        tuple((e.amount, e.plateau, e.power) for e in entries),
        tuple(paying_of),
        tuple(unit_of),
    )


def _unit_book(
    unit: Unit,
    owner: int,
    dummy: bool,
    ids: list[int],
    entries: list[Entry],
    position_of: dict[int, int],
    signal: SignalSupport | None,
) -> UnitBook:
    if len(ids) == 1:  # most units: one entry (a direct one, or the automatic HOLD)
        order = entries[ids[0]].order
        assert order is not None  # (a wildcard comes with the entries naming its orders)
        cand = _candidate(order, ids, entries, position_of)
        hold = 0 if isinstance(order, Hold) else -1
        return UnitBook(unit, owner, dummy, (cand,), cand.entries, cand.paying, hold, signal)
    paying_on_unit = tuple(i for i in ids if entries[i].amount > 0)
    # each order named, with its direct entries, by its text: equal orders are equal texts
    # (the canonical text parses back to an equal order), and an order's text is made once,
    # while hashing an order hashes its unit and places again every time
    orders: dict[str, list[int]] = {}
    wild = []
    for i in ids:
        e = entries[i]
        if e.order is None:
            wild.append(i)
        elif e.kind in _NAMING:
            orders.setdefault(str(e.order), []).append(i)
    cands = []
    for direct in orders.values():
        order = entries[direct[0]].order
        assert order is not None  # (a naming entry)
        paying = sorted(direct + [i for i in wild if entries[i].covers(order)]) if wild else direct
        cands.append((_candidate(order, paying, entries, position_of), direct))
    if len(cands) > 1:  # (a lone candidate has nothing to break)
        cands.sort(key=lambda cd: _rank(cd[0], cd[1], entries, position_of))
    ordered = tuple(c for c, _ in cands)
    hold = next((n for n, c in enumerate(ordered) if isinstance(c.order, Hold)), -1)
    return UnitBook(unit, owner, dummy, ordered, tuple(ids), paying_on_unit, hold, signal)


_NAMING: Final = (
    EntryKind.DIRECT,
    EntryKind.BUILT_HOLD,
    EntryKind.DEFAULT_HOLD,
)  # candidates' kinds (a tuple: enums compare fast, hash slowly)


def _candidate(
    order: OfferOrder, paying: list[int], entries: list[Entry], position_of: dict[int, int]
) -> Candidate:
    if len(paying) == 1:  # (most candidates: its parts are all that one entry)
        e = entries[paying[0]]
        alone = (paying[0],)
        live: tuple[int, ...] = alone if e.amount > 0 else ()
        return Candidate(order, alone, ((e.power, alone),), frozenset((e.power,)), live)
    groups: dict[int, list[int]] = {}
    for i in paying:
        p = entries[i].power
        if p in groups:
            groups[p].append(i)
        else:
            groups[p] = [i]
    order_of = sorted(groups, key=position_of.__getitem__) if len(groups) > 1 else list(groups)
    by_power = tuple((p, tuple(groups[p])) for p in order_of)
    live = tuple(i for i in paying if entries[i].amount > 0)
    return Candidate(order, tuple(paying), by_power, frozenset(groups), live)


def _rank(
    c: Candidate, direct: list[int], entries: list[Entry], position_of: dict[int, int]
) -> tuple[tuple[float, ...], tuple[int, int]]:
    """The static tie-break key of a candidate (lower wins, rules 5.2-5.4): down the owner's
    list, each power's earliest entry on it (a power with none loses to any entry)."""
    seqs = [_NEVER] * len(position_of)
    for p, es in c.by_power:  # (a power's entries are in book order: the first is its earliest)
        seqs[position_of[p]] = entries[es[0]].num
    # Rule 5.4 claims this always decides; when it does not (two candidates whose every
    # payer's earliest entry is one shared wildcard), the earliest direct entry does.
    fallback = min((position_of[entries[i].power], entries[i].num) for i in direct)
    return tuple(seqs), fallback


_NEVER: Final = float("inf")  # the sequence number of a power with no entry on a candidate
