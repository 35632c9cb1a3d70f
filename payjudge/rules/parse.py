"""Read orders as players write them: the text stage, before the position is consulted.

Accepts any letter case, abbreviations, full names and the map's aliases
(`A Paris - Burgundy`), `-`, `->` or `TO` for moves, `S`/`SUPPORTS`, `C`/`CONVOYS`,
`H`/`HOLD`, `VIA CONVOY`, coasts as `/NC`, `(NC)` or `NORTH COAST`, an omitted unit
type, and DPjudge's convoy routes (`A LON - NTH - NWY`). Move marks are required, as
in every Payola game (DPjudge's NEED_MOVE_MARKS): `A PAR BUR` is not understood.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Final

from .errors import InvalidOrder
from .geography import Location, Map, UnitType
from .suggest import suggest_provinces
from .tokens import _LOC, _UNKNOWN, _canonical_words, _Tok, tokenize
from .values import Value


class OrderKind(enum.Enum):
    HOLD = "H"
    MOVE = "-"
    SUPPORT = "S"
    CONVOY = "C"
    RETREAT = "R"
    DISBAND = "D"
    BUILD = "BUILD"
    REMOVE = "REMOVE"
    WAIVE = "WAIVE"


class UnitSpec(Value):
    """A unit as written: the type may be missing, the coast may be missing or wrong. (A
    value made for every unit an order names: see values.py.)"""

    __slots__ = ("location", "type")

    type: Final[UnitType | None]
    location: Final[Location]

    def __init__(self, type: UnitType | None, location: Location) -> None:
        self.type = type
        self.location = location

    def _key(self) -> tuple[object, ...]:
        return (self.type, self.location)

    def __str__(self) -> str:
        return f"{self.type.value} {self.location}" if self.type else str(self.location)


class ParsedOrder(Value):
    """An order as read, before it is checked on a board (a value: see values.py)."""

    __slots__ = ("dest", "kind", "route", "target", "unit", "via_convoy")

    kind: Final[OrderKind]
    unit: Final[UnitSpec | None]
    target: Final[UnitSpec | None]  # the supported or convoyed unit
    dest: Final[Location | None]  # move/retreat destination, or the supported move's
    via_convoy: Final[bool]  # `VIA CONVOY`, or a DPjudge route was written
    route: Final[tuple[Location, ...]]  # the seas of a DPjudge route

    def __init__(
        self,
        kind: OrderKind,
        unit: UnitSpec | None,
        target: UnitSpec | None = None,
        dest: Location | None = None,
        via_convoy: bool = False,
        route: tuple[Location, ...] = (),
    ) -> None:
        self.kind = kind
        self.unit = unit
        self.target = target
        self.dest = dest
        self.via_convoy = via_convoy
        self.route = route

    def _key(self) -> tuple[object, ...]:
        return (self.kind, self.unit, self.target, self.dest, self.via_convoy, self.route)

    def __str__(self) -> str:
        u = str(self.unit) if self.unit else ""
        k = self.kind
        if k is OrderKind.HOLD:
            return f"{u} H"
        if k is OrderKind.MOVE:
            path = "".join(f" - {r}" for r in self.route)
            return f"{u}{path} - {self.dest}" + (" VIA CONVOY" if self.via_convoy and not self.route else "")
        if k is OrderKind.SUPPORT:
            return f"{u} S {self.target}" + (f" - {self.dest}" if self.dest else "")
        if k is OrderKind.CONVOY:
            return f"{u} C {self.target} - {self.dest}"
        if k is OrderKind.RETREAT:
            return f"{u} R {self.dest}"
        if k is OrderKind.DISBAND:
            return f"{u} D"
        if k is OrderKind.BUILD:
            return f"BUILD {u}"
        if k is OrderKind.REMOVE:
            return f"REMOVE {u}"
        return "WAIVE"


class _Reader:
    def __init__(self, toks: list[_Tok], text: str, game_map: Map | None = None):
        self.toks = toks
        self.i = 0
        self.text = text
        self.map = game_map

    def peek(self, offset: int = 0) -> str | None:
        j = self.i + offset
        return self.toks[j].kind if j < len(self.toks) else None

    def take(self, kind: str) -> _Tok | None:
        if self.peek() == kind:
            tok = self.toks[self.i]
            self.i += 1
            return tok
        return None

    def fail(self, expected: str, *, province: bool = False) -> InvalidOrder:
        if self.i < len(self.toks):
            tok = self.toks[self.i]
            if tok.kind == _UNKNOWN:
                near = suggest_provinces(tok.text, self.map) if province and self.map else []
                hint = f"; did you mean {' or '.join(near)}?" if near else ""
                return InvalidOrder(f"unknown word {tok.text!r} (expected {expected}{hint})")
            return InvalidOrder(f"unexpected {tok.text!r} (expected {expected})")
        return InvalidOrder(f"order ends too early (expected {expected})")

    def location(self, what: str) -> Location:
        tok = self.take(_LOC)
        if tok is None:
            raise self.fail(what, province=True)
        return tok.loc  # type: ignore[return-value]

    def unit(self, what: str = "a unit") -> UnitSpec:
        kind = self.take("A") or self.take("F")
        utype = UnitType(kind.kind) if kind else None
        return UnitSpec(utype, self.location(what if not kind else "a province"))

    def end(self) -> None:
        if self.i < len(self.toks):
            raise self.fail("the end of the order")


def parse_order(text: str, game_map: Map) -> ParsedOrder:
    """Parse one order; raises InvalidOrder when it is not understood."""
    fast = _read_canonical(text, game_map)
    return fast if fast is not None else read_order_tokens(text, game_map)


def read_order_tokens(text: str, game_map: Map) -> ParsedOrder:
    """`parse_order` through the tokenizer, for any text (`parse_order` reads canonical
    text faster, with the same result)."""
    r = _Reader(tokenize(text, game_map), text, game_map)
    if not r.toks:
        raise InvalidOrder("empty order")
    if r.take("WAIVE"):
        r.end()
        return ParsedOrder(OrderKind.WAIVE, None)
    if r.take("BUILD"):
        unit = r.unit()
        if unit.type is None:
            raise InvalidOrder("a build must name the unit type (A or F)")
        r.end()
        return ParsedOrder(OrderKind.BUILD, unit)
    if r.peek() == "REMOVE" or (r.peek() == "D" and r.peek(1) in ("A", "F", _LOC)):
        r.i += 1
        unit = r.unit()
        r.end()
        return ParsedOrder(OrderKind.REMOVE, unit)
    unit = r.unit()
    order = _body(r, unit, game_map)
    r.end()
    return order


def parse_order_body(unit: UnitSpec, text: str, game_map: Map) -> ParsedOrder:
    """Parse what follows the unit (`- TYR`, `S A VEN`, `H`), as after a `|` in an offer."""
    if unit.type is not None:
        # the canonical reader, given the unit's canonical words before the body, reads
        # what the tokenizer reads (canonical words are read alike whatever surrounds them)
        fast = _read_canonical(f"{unit} {text}", game_map)
        if fast is not None and fast.unit == unit:
            return fast
    return read_body_tokens(unit, text, game_map)


def read_body_tokens(unit: UnitSpec, text: str, game_map: Map) -> ParsedOrder:
    """`parse_order_body` through the tokenizer, for any text."""
    r = _Reader(tokenize(text, game_map), text, game_map)
    order = _body(r, unit, game_map)
    r.end()
    return order


def parse_unit(text: str, game_map: Map) -> UnitSpec:
    r = _Reader(tokenize(text, game_map), text, game_map)
    unit = r.unit()
    r.end()
    return unit


def _body(r: _Reader, unit: UnitSpec, game_map: Map) -> ParsedOrder:
    if r.peek() is None or r.take("H"):
        return ParsedOrder(OrderKind.HOLD, unit)
    if r.take("-"):
        path = [r.location("a destination")]
        while r.take("-"):
            path.append(r.location("a destination"))
        via = False
        if r.take("VIA"):
            if not r.take("C"):
                raise r.fail("CONVOY after VIA")
            via = True
        dest, route = path[-1], tuple(path[:-1])
        return ParsedOrder(OrderKind.MOVE, unit, dest=dest, via_convoy=via or bool(route), route=route)
    if r.take("S"):
        target = r.unit("the supported unit")
        to: Location | None = None
        if r.take("-"):
            to = r.location("the destination of the supported move")
        else:
            r.take("H")
        return ParsedOrder(OrderKind.SUPPORT, unit, target=target, dest=to)
    if r.take("C"):
        target = r.unit("the convoyed army")
        if not r.take("-"):
            raise r.fail("'-' and the destination of the convoyed army")
        dest = r.location("the destination of the convoyed army")
        return ParsedOrder(OrderKind.CONVOY, unit, target=target, dest=dest)
    if r.take("R"):
        r.take("-")  # "RETREATS TO"
        return ParsedOrder(OrderKind.RETREAT, unit, dest=r.location("where to retreat"))
    if r.take("D"):
        return ParsedOrder(OrderKind.DISBAND, unit)
    if r.take("BUILD"):
        return ParsedOrder(OrderKind.BUILD, unit)
    if r.take("REMOVE"):
        return ParsedOrder(OrderKind.REMOVE, unit)
    if r.peek() == _LOC:
        raise InvalidOrder("a move needs a move mark: write '-' between the provinces")
    raise r.fail("H, -, S, C, R or D")


# -- canonical text, read without the tokenizer ------------------------------------------------
# Most orders arrive in the canonical form `str(order)` writes (`A PAR - BUR`, `F NTH C A LON -
# NWY`, `BUILD F STP/NC`): upper case, one word per token, the map's own names. Tokenizing
# such a text costs ten times as much as reading it word by word, so `parse_order` first tries
# this reader, which accepts only those forms and otherwise answers None.
#
# It gives exactly what the full reader gives, because it only accepts words that the
# tokenizer reads alone, whatever surrounds them: `_canonical_words` keeps a location name
# or keyword only if `tokenize` turns it, by itself, into that one token, and no longer name
# of the map that begins inside the word continues with a token that can begin an accepted
# word (so the longest-name search never reaches across a space: `STP/NC` is a name, but
# `/` begins no word, and `A STP - MOS` still reads `STP` alone). A coast is folded into
# the location before it only when `/`, `(` or a coast word follows, and no accepted word
# begins with one. The shapes below are those `_body` reads from the same tokens.
# `tests/rules/test_orders.py` checks the two readers against each other.

_UNIT_TYPES: Final = {"A": UnitType.ARMY, "F": UnitType.FLEET}


def _canonical_units(game_map: Map) -> dict[tuple[str, str], UnitSpec] | None:
    """`A PAR`, `F STP/SC`, … as (type word, location word) -> UnitSpec, for the canonical
    reader: made once, as UnitSpecs are immutable and the same ones are read again and again."""
    locations = game_map.derived("parse:canonical", _canonical_words)
    if locations is None:
        return None
    return {
        (word, name): UnitSpec(utype, loc)
        for word, utype in _UNIT_TYPES.items()
        for name, loc in locations.items()
    }


_Specs = dict[tuple[str, str], UnitSpec]  # (type word, location word) -> unit


def _read_canonical(text: str, game_map: Map) -> ParsedOrder | None:
    """The order of a text in canonical form, or None for any other text."""
    locations = game_map.derived("parse:canonical", _canonical_words)
    specs = game_map.derived("parse:canonical units", _canonical_units)
    if locations is None or specs is None:
        return None
    words = text.split()
    if len(words) < 3:
        return ParsedOrder(OrderKind.WAIVE, None) if words == ["WAIVE"] else None
    adjustment = _CANONICAL_ADJUSTMENTS.get(words[0])
    if adjustment is not None:
        unit = _unit_spec(words, 1, specs)
        return ParsedOrder(adjustment, unit) if unit is not None and len(words) == 3 else None
    unit = _unit_spec(words, 0, specs)
    read = _CANONICAL_MARKS.get(words[2])
    if unit is None or read is None:
        return None
    return read(words, unit, locations, specs)


def _canonical_alone(
    words: list[str], unit: UnitSpec, locations: dict[str, Location], specs: _Specs
) -> ParsedOrder | None:
    """`A PAR H`, `A PAR D`: the mark is the whole order."""
    return ParsedOrder(_CANONICAL_ALONE[words[2]], unit) if len(words) == 3 else None


def _canonical_move(
    words: list[str], unit: UnitSpec, locations: dict[str, Location], specs: _Specs
) -> ParsedOrder | None:
    """`A PAR - BUR`, `A PAR R BUR`, `A BRE - LON VIA CONVOY`."""
    n, mark = len(words), words[2]
    dest = locations.get(words[3]) if n > 3 else None
    if dest is None:
        return None
    if n == 4:
        return ParsedOrder(OrderKind.MOVE if mark == "-" else OrderKind.RETREAT, unit, dest=dest)
    if n == 6 and mark == "-" and words[4] == "VIA" and words[5] == "CONVOY":
        return ParsedOrder(OrderKind.MOVE, unit, dest=dest, via_convoy=True)
    return None


def _canonical_helper(
    words: list[str], unit: UnitSpec, locations: dict[str, Location], specs: _Specs
) -> ParsedOrder | None:
    """`F NTH S A YOR`, `F NTH S A YOR - LON`, `F NTH C A YOR - LON`."""
    n, mark = len(words), words[2]
    target = _unit_spec(words, 3, specs)
    if target is None:
        return None
    if n == 5:
        return ParsedOrder(OrderKind.SUPPORT, unit, target=target) if mark == "S" else None
    if n == 7 and words[5] == "-" and (dest := locations.get(words[6])) is not None:
        kind = OrderKind.SUPPORT if mark == "S" else OrderKind.CONVOY
        return ParsedOrder(kind, unit, target=target, dest=dest)
    return None


_CANONICAL_ADJUSTMENTS: Final = {"BUILD": OrderKind.BUILD, "REMOVE": OrderKind.REMOVE}
_CANONICAL_ALONE: Final = {"H": OrderKind.HOLD, "D": OrderKind.DISBAND}
# the word after the unit -> the reader of the rest
_CANONICAL_MARKS: Final[
    dict[str, Callable[[list[str], UnitSpec, dict[str, Location], _Specs], ParsedOrder | None]]
] = {
    "H": _canonical_alone,
    "D": _canonical_alone,
    "-": _canonical_move,
    "R": _canonical_move,
    "S": _canonical_helper,
    "C": _canonical_helper,
}


def _unit_spec(words: list[str], k: int, specs: dict[tuple[str, str], UnitSpec]) -> UnitSpec | None:
    """`A PAR` or `F STP/SC` at words[k], words[k + 1]."""
    return specs.get((words[k], words[k + 1])) if k + 1 < len(words) else None
