"""Convoy chains: the seas a fleet may usefully convoy from, between two coasts.

A fleet is needed in a convoy from `origin` to `dest` only if its sea lies on a chain with
no shortcut (DATC 4.E.1 and 6.G.19): each sea of the chain touches the one before it and no
earlier one, only the first touches the origin's coast, and only the last touches the
destination's. `Map.convoy_seas` answers one pair by walking those chains (`pair`).
Whether a sea lies on such a chain is NP-hard in general: on the standard map and most
variants the walk takes well under a millisecond, but on the largest a pair can take
seconds. Past `cap` steps the answer falls back to every sea linked by seas to both ends
(`linking`): a convoy through a redundant fleet is then accepted (as CONVOY_BACK would),
never a legal one refused, and no order can stall the judge.

**One origin for every destination at once** (`from_origin`). The list of every possible
order of a position (rules/possible.py) asks every pair of coastal provinces: on youngstown, 96 x 95
walks, fifteen seconds. The walks from one origin to different destinations walk the same
tree of chains: each stops at the first sea that touches its destination, and the tree's
branching does not depend on the destination. So `from_origin` walks the tree once, to
the end, and reads off every destination's answer:

- a chain whose last sea touches `dest`, when none of its earlier seas does, is a chain
  the walk for `dest` finds (its seas belong to the answer);
- the walk for `dest` takes one step for every node of the tree whose earlier seas do not
  touch `dest`. Counting, for each node whose sea is the first to touch `dest`, the nodes
  below it (which that walk never reaches), gives each walk's length, so a destination
  whose walk would have passed `cap` gets `linking`'s answer, exactly as `pair` gives it.

The answers are therefore `pair`'s, one by one (tests/rules/test_maps.py compares them on
every map). A tree larger than `budget` nodes is left: the caller asks `pair` instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

SeasOf = Callable[[str], frozenset[str]]


class _TooLong(Exception):
    """A walk ran past its steps."""


def pair(
    at_origin: frozenset[str], at_dest: frozenset[str], seas_of: SeasOf, cap: int
) -> frozenset[str] | None:
    """The seas of the chains from the seas `at_origin` to those `at_dest`, or None when
    the walk takes more than `cap` steps."""
    found: set[str] = set()
    path: list[str] = []
    steps = [cap]

    def extend(sea: str, blocked: frozenset[str]) -> None:
        # `blocked` holds the seas that may not come after `sea`: the chain's, those next
        # to any but its last, the origin's
        steps[0] -= 1
        if steps[0] < 0:
            raise _TooLong
        path.append(sea)
        if sea in at_dest:
            found.update(path)
        else:
            onward = blocked | seas_of(sea)
            for nxt in seas_of(sea):
                if nxt not in blocked:
                    extend(nxt, onward)
        path.pop()

    try:
        for first in at_origin:
            extend(first, at_origin)
    except _TooLong:
        return None
    return frozenset(found)


def linking(at_origin: frozenset[str], at_dest: frozenset[str], seas_of: SeasOf) -> frozenset[str]:
    """The seas of every sea-connected group that touches both ends."""
    linked: set[str] = set()
    unvisited = set(at_origin)
    while unvisited:
        group: set[str] = set()
        frontier = [unvisited.pop()]
        while frontier:
            here = frontier.pop()
            if here not in group:
                group.add(here)
                frontier.extend(s for s in seas_of(here) if s not in group)
        unvisited -= group
        if group & at_dest:
            linked |= group
    return frozenset(linked)


class _Tree:
    """One walk of every chain from an origin (see the module's docstring)."""

    def __init__(self, touching: Mapping[str, frozenset[str]], seas_of: SeasOf, budget: int):
        self.touching = touching  # sea -> the destinations whose coast it touches
        self.seas_of = seas_of
        self.budget = budget
        self.nodes = 0
        self.path: list[str] = []
        self.touched: dict[str, int] = {}  # destination -> seas of the path touching it
        self.found: dict[str, set[str]] = {}
        self.beyond: dict[str, int] = {}  # destination -> nodes its walk never reaches

    def walk(self, sea: str, blocked: frozenset[str]) -> int:
        """Walk the chains through `sea`; returns the nodes of its subtree."""
        self.nodes += 1
        if self.nodes > self.budget:
            raise _TooLong
        self.path.append(sea)
        first = [d for d in self.touching.get(sea, ()) if not self.touched.get(d)]
        for dest in first:  # a chain of the walk for `dest`, which stops here
            self.found.setdefault(dest, set()).update(self.path)
        for dest in self.touching.get(sea, ()):
            self.touched[dest] = self.touched.get(dest, 0) + 1
        size = 1
        onward = blocked | self.seas_of(sea)
        for nxt in self.seas_of(sea):
            if nxt not in blocked:
                size += self.walk(nxt, onward)
        for dest in self.touching.get(sea, ()):
            self.touched[dest] -= 1
        for dest in first:
            self.beyond[dest] = self.beyond.get(dest, 0) + size - 1
        self.path.pop()
        return size


def from_origin(
    at_origin: frozenset[str],
    dests: Iterable[tuple[str, frozenset[str]]],
    seas_of: SeasOf,
    cap: int,
    budget: int,
) -> dict[str, frozenset[str] | None] | None:
    """`pair`'s answer for each of `dests` (name, its seas), in one walk: None for a
    destination whose walk would take more than `cap` steps; None for all when the whole
    tree has more than `budget` nodes."""
    targets = dict(dests)
    touching: dict[str, set[str]] = {}
    for dest, seas in targets.items():
        for sea in seas:
            touching.setdefault(sea, set()).add(dest)
    tree = _Tree({s: frozenset(ds) for s, ds in touching.items()}, seas_of, budget)
    try:
        for first in at_origin:
            tree.walk(first, at_origin)
    except _TooLong:
        return None
    return {
        dest: frozenset(tree.found.get(dest, ())) if tree.nodes - tree.beyond.get(dest, 0) <= cap else None
        for dest in targets
    }
