"""Offer orders read before: the text after an offer's mark (`A PAR - BUR | H`), kept per map
with what must still hold on the board for the same reading to be right again.

Reading and checking the orders is most of the cost of an offer line, and the same texts
come back sheet after sheet and phase after phase (`F LON - NTH`, `A PAR - BUR`), often
naming the very same `Unit` objects (the JSON entry hands out one object per unit text,
and a unit the adjudicator leaves in place keeps its object). The orders of a line depend
on the text, the map, the flags `validate` reads and (under IMMOBILE_DUMMIES) the dummies,
and on the board only through (see `payjudge.rules.validate`):

- the units the orders name, by object, and the owner of the offered unit (IMMOBILE_DUMMIES);
- for a convoyed move or its support, whether a chain of fleets is on the board
  (`validate.chain_looked_for`, asked again with `fleet_chain`);

so an earlier reading is the answer again when all that is unchanged. Where the board
counts in other ways no reading is kept (`table_for`): a map whose borders depend on who
owns a centre or who moves (`rules.borders`), PORTAGE_CONVOY (chains of armies),
FICTIONAL_OK (the board as each line supposes it). Only readings that are plain orders are
kept: refusals and signal supports (SIGNAL_SUPPORT) always take the long way. The one check
of an order text under other rules, DIRECT_ONLY's refusal of alternatives, is made before
a reading is recalled (`sheet._offer`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..payola.offers import Offer, OfferOrder, SignalSupport
from ..rules.borders import borders
from ..rules.flags import Flag
from ..rules.geography import Map
from ..rules.names import PowerName
from ..rules.orders import Convoy, SupportHold, SupportMove, Unit
from ..rules.position import Position
from ..rules.validate import chain_looked_for, fleet_chain

# texts kept per table, tables per map: the texts and flag sets are the input's (a daemon
# reads them for months): at most 80,000 readings of about 0.5 kB
_SIZE: Final = 10_000
_TABLES: Final = 8

# the flags `validate` reads (test_sheet.py checks that rules/validate.py names no other):
# readings made under flags that differ only in others (EBAYOLA, ZERO_FOREIGN, …) are
# the same, and share a table
VALIDATE_FLAGS: Final = frozenset(
    {
        Flag.IMMOBILE_DUMMIES,
        Flag.PORTAGE_CONVOY,
        Flag.MULTI_COAST_PORTAGE,
        Flag.COASTAL_CONVOY,
        Flag.CONVOY_BACK,
        Flag.BUILD_ANY,
        Flag.GARRISON,
        Flag.HOME_BUILDS,
        Flag.REMOTE_BUILDS,
    }
)


@dataclass(slots=True, unsafe_hash=True)
class Reading:
    """The orders a text was read as, and what they were read on."""

    orders: tuple[OfferOrder, ...]  # never a signal support
    unit: Unit  # the offered unit (every order is one of its orders)
    owner: PowerName  # its owner then
    targets: tuple[tuple[str, Unit], ...]  # (province, unit) a support or convoy names
    chains: tuple[tuple[str, str, str | None], ...]  # `chain_looked_for` of each order

    def __init__(
        self,
        orders: tuple[OfferOrder, ...],
        unit: Unit,
        owner: PowerName,
        targets: tuple[tuple[str, Unit], ...],
        chains: tuple[tuple[str, str, str | None], ...],
    ) -> None:
        self.orders = orders
        self.unit = unit
        self.owner = owner
        self.targets = targets
        self.chains = chains


Table = dict[str, Reading]


def table_for(game_map: Map, flags: frozenset[Flag], dummies: frozenset[PowerName]) -> Table | None:
    """The readings kept for sheets read on `game_map` with `flags` in force (those every
    game plays by included) and `dummies`, or None where the board decides in ways a kept
    reading does not check (see the docstring)."""
    if Flag.FICTIONAL_OK in flags or Flag.PORTAGE_CONVOY in flags or borders(game_map).restricted:
        return None
    tables: dict[tuple[frozenset[Flag], frozenset[PowerName]], Table] = game_map.derived(
        "sheet:readings", lambda _: {}
    )
    read = flags & VALIDATE_FLAGS
    key = (read, dummies if Flag.IMMOBILE_DUMMIES in read else frozenset())  # (dummies: only there)
    table = tables.get(key)
    if table is None:
        if len(tables) >= _TABLES:
            tables.clear()
        table = tables[key] = {}
    return table


def recall(table: Table, text: str, position: Position, flags: frozenset[Flag]) -> Reading | None:
    """The reading of `text` kept before, if it holds on this board (`flags`: as
    `validate` was given them)."""
    hit = table.get(text)
    if hit is None:
        return None
    province = hit.unit.location.province
    if position.unit_at(province) is not hit.unit or position.owner_at(province) != hit.owner:
        return None
    for where, target in hit.targets:
        if position.unit_at(where) is not target:
            return None
    for origin, dest, avoid in hit.chains:
        if not fleet_chain(position, origin, dest, avoid, flags):
            return None
    return hit


def remember(table: Table, text: str, offer: Offer, position: Position) -> None:
    """Keep the reading of `text` (`offer`, accepted on `position`), unless it holds a signal."""
    targets: list[tuple[str, Unit]] = []
    chains = []
    for order in offer.orders:
        if isinstance(order, SignalSupport):  # made from a refusal: not kept
            return
        if isinstance(order, (SupportHold, SupportMove)):
            targets.append((order.supported.province, order.supported))
        elif isinstance(order, Convoy):
            targets.append((order.army.province, order.army))
        chain = chain_looked_for(order, position.map)
        if chain is not None:
            chains.append(chain)
    owner = position.owner_at(offer.unit.province)
    assert owner is not None, "a validated order's unit is on the board"
    if len(table) >= _SIZE:
        table.clear()
    table[text] = Reading(offer.orders, offer.unit, owner, tuple(targets), tuple(chains))
