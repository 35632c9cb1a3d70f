"""Setting up a movement phase's board (`movement._Board`) before the resolver runs: the
orders sorted by kind, then matched to each other: which moves go by convoy (DATC 4.A.3,
v3.1 preference), which convoys and supports serve a move or hold that was ordered, which
moves meet head to head, and which convoying fleets can be part of a complete chain.

The orders are dispatched on `type(order)` and `kind[i]`, which mypy does not follow: each
`type: ignore[union-attr]` below reads a field the dispatched type has.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .flags import Flag
from .geography import UnitType
from .orders import Convoy, Move, SupportHold, SupportMove

if TYPE_CHECKING:
    from .movement import _Board

# the kinds of order on the board (`_Board.kind`), and enum members read once
_HOLD: Final = 0
_MOVE: Final = 1
_SUPPORT: Final = 2
_CONVOY: Final = 3
_ARMY: Final = UnitType.ARMY
_FLEET: Final = UnitType.FLEET


def prepare(b: _Board) -> None:
    """Sorts the orders by kind, then matches them: which moves go by convoy, which
    convoys and supports serve a move or hold that was ordered, which moves meet head
    to head."""
    _sort_orders(b)
    _choose_convoyed(b)
    convoyed = _match_convoys(b)
    _match_supports(b)
    _match_head_to_heads(b)
    _keep_useful_convoys(b, convoyed)


def _sort_orders(b: _Board) -> None:
    kind, dest = b.kind, b.dest
    for i, order in enumerate(b.orders):
        cls = type(order)
        if cls is Move:
            kind[i] = _MOVE
            d = order.dest.province  # type: ignore[union-attr]
            dest[i] = d
            # (lists grown by get-or-insert here and below: compiled, `setdefault(k, [])`
            # makes a list at every call and costs several times as much)
            lst = b.moves_to.get(d)
            if lst is None:
                b.moves_to[d] = [i]
            else:
                lst.append(i)
            b.moves.append(i)
        elif cls is SupportHold or cls is SupportMove:
            kind[i] = _SUPPORT
            b.supports.append(i)
        elif cls is Convoy:
            kind[i] = _CONVOY
            b.convoys.append(i)


def _choose_convoyed(b: _Board) -> None:
    """Which army moves go by convoy (DATC 4.A.3, v3.1 preference), and, under
    PORTAGE_CONVOY, which fleet moves go overland."""
    m, units, orders, prov, powers = b.map, b.units, b.orders, b.prov, b.powers
    dest, by_convoy = b.dest, b.by_convoy
    own_convoy = {
        (powers[i], orders[i].army.province, orders[i].dest.province)  # type: ignore[union-attr]
        for i in b.convoys
    }
    army = _ARMY
    portage = bool(b.flags) and Flag.PORTAGE_CONVOY in b.flags
    for i in b.moves:
        if units[i].type is army:
            walk = dest[i] in m.army_neighbours(prov[i])
            by_convoy[i] = (
                not walk
                or orders[i].via_convoy  # type: ignore[union-attr]
                or (powers[i], prov[i], dest[i]) in own_convoy
            )
        elif portage:  # a fleet carried overland by armies
            by_convoy[i] = not m.reaches_province(UnitType.FLEET, units[i].location, dest[i])  # type: ignore[arg-type]


def _match_convoys(b: _Board) -> dict[int, None]:
    """Each convoy to the convoyed move it serves; the armies with convoys, in a fixed order."""
    kind, dest, by_convoy = b.kind, b.dest, b.by_convoy
    convoyed: dict[int, None] = {}
    for i in b.convoys:
        order = b.orders[i]
        j = b.at.get(order.army.province)  # type: ignore[union-attr]
        if j is not None and kind[j] == _MOVE and by_convoy[j] and dest[j] == order.dest.province:  # type: ignore[union-attr]
            _add(b.convoyers, j, i)
            convoyed[j] = None
    return convoyed


def _match_supports(b: _Board) -> None:
    """Each support to the hold or move it supports, if that was ordered."""
    kind, dest, orders = b.kind, b.dest, b.orders
    for i in b.supports:
        order = orders[i]
        j = b.at.get(order.supported.province)  # type: ignore[union-attr]
        if j is None:
            continue
        if type(order) is SupportHold:
            if kind[j] != _MOVE:
                _add(b.hold_support, j, i)
                b.support_target[i] = j
        elif kind[j] == _MOVE and dest[j] == order.dest.province:  # type: ignore[union-attr]
            move_dest = orders[j].dest  # type: ignore[union-attr]
            if order.dest.coast is None or order.dest.coast == move_dest.coast:  # type: ignore[union-attr]
                _add(b.move_support, j, i)
                b.support_target[i] = j


def _match_head_to_heads(b: _Board) -> None:
    kind, dest, by_convoy = b.kind, b.dest, b.by_convoy
    for i in b.moves:
        if not by_convoy[i]:
            j = b.at.get(dest[i])  # type: ignore[arg-type]
            if (
                j is not None
                and kind[j] == _MOVE
                and not by_convoy[j]
                and dest[j] == b.prov[i]
                and not _crawl(b, i, j)
            ):
                b.h2h[i] = j


def _keep_useful_convoys(b: _Board, convoyed: dict[int, None]) -> None:
    """A convoy counts only if its fleet can be part of a complete chain of convoying fleets."""
    for j in convoyed:
        useful = _chain_members(b, j, b.convoyers[j])
        b.convoyers[j] = [f for f in b.convoyers[j] if f in useful]
        for f in b.convoyers[j]:
            b.convoy_target[f] = j


def _crawl(board: _Board, i: int, j: int) -> bool:
    """COASTAL_CRAWL: two fleets swapping along different coasts of a two-coast province
    pass each other instead of meeting head to head."""
    if not board.coastal_crawl:
        return False
    for a, b in ((i, j), (j, i)):
        here = board.units[a].location
        there = board.orders[b].dest  # type: ignore[union-attr]
        if (
            here.coast is not None
            and there.coast is not None
            and here.coast != there.coast
            and board.units[b].type is _FLEET
        ):
            return True
    return False


def _chain_members(b: _Board, j: int, fleets: list[int]) -> set[int]:
    """The fleets lying on some chain from the army to its destination."""
    origin, dest = b.prov[j], b.dest[j]
    seas = {b.prov[f]: f for f in fleets}
    fwd = _reach(b, origin, seas)
    back = _reach(b, dest, seas)  # type: ignore[arg-type]
    return {f for s, f in seas.items() if s in fwd and s in back}


def _reach(b: _Board, start: str, seas: dict[str, int]) -> set[str]:
    frontier = [s for s in seas if b._touches(s, start)]
    seen = set(frontier)
    while frontier:
        s = frontier.pop()
        for t in seas:
            if t not in seen and b._touches(s, t):
                seen.add(t)
                frontier.append(t)
    return seen


def _add(table: dict[int, list[int]], key: int, i: int) -> None:
    """`i` added to the list of `key`, made if need be (cheaper compiled than `setdefault`)."""
    lst = table.get(key)
    if lst is None:
        table[key] = [i]
    else:
        lst.append(i)
