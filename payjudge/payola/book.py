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
from dataclasses import dataclass
from typing import NamedTuple

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


_WILDCARD = {
    OfferKind.NEGATIVE: EntryKind.NEGATIVE,
    OfferKind.MOVE: EntryKind.MOVE,
    OfferKind.HOLD: EntryKind.HOLD,
    OfferKind.GIFT: EntryKind.GIFT,
}


class Entry(NamedTuple):
    """One entry of the book (an immutable record: a NamedTuple, since a phase has thousands)."""

    power: int  # index into Book.powers
    num: int  # sequence number within the power's entries
    kind: EntryKind
    unit: Unit
    order: OfferOrder | None  # a direct entry's order
    excluded: tuple[OfferOrder, ...]  # a negative entry's orders
    amount: int
    plateau: int
    line: int  # sheet line (0 for a default hold)

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


class Candidate(NamedTuple):  # (immutable records made by the thousand: NamedTuples)
    order: OfferOrder
    entries: tuple[int, ...]  # every entry paying for it
    by_power: tuple[tuple[int, tuple[int, ...]], ...]  # per payer, in the owner's list order
    payers: frozenset[int]  # powers with an entry of any amount
    rank: tuple[tuple[float, ...], tuple[int, int]]  # the static tie-break key (lower wins)
    paying: tuple[int, ...]  # the entries above 0 AgP (the others stay at 0)


class UnitBook(NamedTuple):
    unit: Unit
    owner: int
    dummy: bool  # an unplayed power's unit: ties between payers HOLD
    candidates: tuple[Candidate, ...]  # in tie-break order
    entries: tuple[int, ...]  # every entry on the unit
    paying: tuple[int, ...]  # the entries above 0 AgP
    hold: int  # index of the HOLD candidate, or -1
    signal: SignalSupport | None  # RESTRICT_SIGNAL: replaces a winning HOLD


@dataclass(frozen=True, slots=True)
class Book:
    powers: tuple[PowerName, ...]
    entries: tuple[Entry, ...]
    units: tuple[UnitBook, ...]
    flat: tuple[int, ...]  # per power: K of schedule.py
    accept: Mapping[PowerName, tuple[PowerName, ...]]
    rows: tuple[tuple[int, int, int], ...]  # per entry: (amount, plateau, power), for schedule.values


# an entry before it is numbered: (kind, unit, order, excluded, amount, plateau, line)
_Raw = tuple[EntryKind, Unit, OfferOrder | None, tuple[OfferOrder, ...], int, int, int]


def _entries_of(
    power: int, sheet: Sheet, restrict_signal: bool, signals: dict[str, SignalSupport]
) -> list[_Raw]:
    """(kind, unit, order, excluded, amount, plateau, line) for each entry, in sheet order."""
    out: list[_Raw] = []
    for offer in sheet.offers:
        signal = next((o for o in offer.orders if isinstance(o, SignalSupport)), None)
        if restrict_signal and signal is not None:
            signals.setdefault(offer.unit.province, signal)
            continue
        for amount, plateau in offer.amounts():
            out.extend(_expand(offer, amount, plateau))
    return out


def _expand(offer: Offer, amount: int, plateau: int) -> list[_Raw]:
    u, line = offer.unit, offer.line
    if offer.kind is OfferKind.NEGATIVE:
        return [
            (EntryKind.BUILT_HOLD, u, Hold(u), (), 0, 0, line),
            (EntryKind.NEGATIVE, u, None, offer.orders, amount, plateau, line),
        ]
    out: list[_Raw] = []
    for order in offer.orders:
        if offer.kind is OfferKind.DIRECT:
            paid = True
        elif offer.kind is OfferKind.MOVE:
            paid = not is_move(order)
        elif offer.kind is OfferKind.HOLD:
            paid = is_move(order)
        else:
            paid = False
        out.append((EntryKind.DIRECT, u, order, (), amount if paid else 0, plateau if paid else 0, line))
    if offer.kind is not OfferKind.DIRECT:
        out.append((_WILDCARD[offer.kind], u, None, (), amount, plateau, line))
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
    pindex = {p: i for i, p in enumerate(powers)}
    restrict = Flag.RESTRICT_SIGNAL in rules
    signals: dict[str, SignalSupport] = {}
    raw: list[tuple[int, *_Raw]] = []  # (power index, *entry)
    for p in powers:
        sheet = sheets.get(p)
        own = _entries_of(pindex[p], sheet, restrict, signals) if sheet else []
        offered = {e[1].province for e in own if e[0] in (EntryKind.DIRECT, EntryKind.BUILT_HOLD)}
        for unit in position.units.get(p, ()):
            if unit.province not in offered:
                own.append((EntryKind.DEFAULT_HOLD, unit, Hold(unit), (), 0, 0, 0))
        raw.extend((pindex[p],) + e for e in own)
    entries: list[Entry] = []
    counters = [0] * len(powers)
    for pi, kind, unit, order, excluded, amount, plateau, line in raw:
        entries.append(Entry(pi, counters[pi], kind, unit, order, excluded, amount, plateau, line))
        counters[pi] += 1

    flat_of = [0] * len(powers)
    for e in entries:
        if e.amount - e.plateau > flat_of[e.power]:
            flat_of[e.power] = e.amount - e.plateau
    flat = tuple(flat_of)  # K of schedule.py, per power
    on_unit: dict[str, list[int]] = {}
    for i, e in enumerate(entries):
        on_unit.setdefault(e.unit.province, []).append(i)
    units = []
    ranks: dict[str, dict[int, int]] = {}  # per owner: each power's place in its list
    for owner, unit in position.all_units():
        ids = on_unit.get(unit.province, [])
        if owner not in ranks:
            ranks[owner] = {pindex[x]: n for n, x in enumerate(accept[owner])}
        units.append(
            _unit_book(
                unit,
                pindex[owner],
                owner in dummies,
                ids,
                entries,
                ranks[owner],
                signals.get(unit.province) if restrict else None,
            )
        )
    units.sort(key=lambda ub: ub.unit.province)
    rows = tuple((e.amount, e.plateau, e.power) for e in entries)
    return Book(powers, tuple(entries), tuple(units), flat, dict(accept), rows)


def _unit_book(
    unit: Unit,
    owner: int,
    dummy: bool,
    ids: list[int],
    entries: list[Entry],
    position_of: dict[int, int],
    signal: SignalSupport | None,
) -> UnitBook:
    if len(ids) == 1 and entries[ids[0]].kind in _NAMING:  # most units: one entry, one order
        order = entries[ids[0]].order
        assert order is not None  # (a naming entry names its order)
        cand = _candidate(order, ids, ids, entries, position_of)
        paying = ids if entries[ids[0]].amount > 0 else []
        hold = 0 if isinstance(order, Hold) else -1
        return UnitBook(unit, owner, dummy, (cand,), tuple(ids), tuple(paying), hold, signal)
    orders: dict[OfferOrder, list[int]] = {}
    wild = []
    for i in ids:
        e = entries[i]
        if e.order is None:
            wild.append(i)
        elif e.kind in _NAMING:
            orders.setdefault(e.order, []).append(i)
    cands = []
    for order, direct in orders.items():
        paying = sorted(direct + [i for i in wild if entries[i].covers(order)]) if wild else direct
        cands.append(_candidate(order, paying, direct, entries, position_of))
    if len(cands) > 1:
        cands.sort(key=lambda c: c.rank)
    hold = next((n for n, c in enumerate(cands) if isinstance(c.order, Hold)), -1)
    paying_on_unit = tuple(i for i in ids if entries[i].amount > 0)
    return UnitBook(unit, owner, dummy, tuple(cands), tuple(ids), paying_on_unit, hold, signal)


_NAMING = (
    EntryKind.DIRECT,
    EntryKind.BUILT_HOLD,
    EntryKind.DEFAULT_HOLD,
)  # candidates' kinds (a tuple: enums compare fast, hash slowly)


def _candidate(
    order: OfferOrder, paying: list[int], direct: list[int], entries: list[Entry], position_of: dict[int, int]
) -> Candidate:
    seqs = [_NEVER] * len(position_of)
    groups: dict[int, list[int]] = {}
    for i in paying:
        e = entries[i]
        at = position_of[e.power]
        if e.num < seqs[at]:
            seqs[at] = e.num
        if e.power in groups:
            groups[e.power].append(i)
        else:
            groups[e.power] = [i]
    # Rule 5.4 claims this always decides; when it does not (two candidates whose every
    # payer's earliest entry is one shared wildcard), the earliest direct entry does.
    fallback = min((position_of[entries[i].power], entries[i].num) for i in direct)
    order_of = sorted(groups, key=position_of.__getitem__) if len(groups) > 1 else list(groups)
    by_power = tuple((p, tuple(groups[p])) for p in order_of)
    live = tuple(i for i in paying if entries[i].amount > 0)
    return Candidate(order, tuple(paying), by_power, frozenset(groups), (tuple(seqs), fallback), live)


_NEVER = float("inf")  # the sequence number of a power with no entry on a candidate
