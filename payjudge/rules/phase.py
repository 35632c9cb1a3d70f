"""Game phases (`S1901M`, `F1901R`, `W1901A`) and the order in which they follow each other."""

from __future__ import annotations

import enum
import functools
import re
from typing import Final

from .values import Value


class Season(enum.Enum):
    SPRING = "S"
    FALL = "F"
    WINTER = "W"


class PhaseType(enum.Enum):
    MOVEMENT = "M"
    RETREATS = "R"
    ADJUSTMENTS = "A"
    EXCHANGE = "X"  # Exchange Payola's yearly market (docs/exchange.md), in winter


_SEASON_WORDS: Final = {
    "SPRING": Season.SPRING,
    "FALL": Season.FALL,
    "AUTUMN": Season.FALL,
    "WINTER": Season.WINTER,
}
_TYPE_WORDS: Final = {
    "MOVEMENT": PhaseType.MOVEMENT,
    "MOVES": PhaseType.MOVEMENT,
    "RETREAT": PhaseType.RETREATS,
    "RETREATS": PhaseType.RETREATS,
    "ADJUSTMENT": PhaseType.ADJUSTMENTS,
    "ADJUSTMENTS": PhaseType.ADJUSTMENTS,
    "BUILDS": PhaseType.ADJUSTMENTS,
    "EXCHANGE": PhaseType.EXCHANGE,
}
_SHORT: Final = re.compile(r"^([SFW])([0-9]{1,5})([MRAX])$")
_WINTER_TYPES: Final = (PhaseType.ADJUSTMENTS, PhaseType.EXCHANGE)
_YEAR: Final = re.compile(r"[0-9]{1,5}")


class Phase(Value):
    """A phase of the game: a value (see values.py), ordered in time."""

    __slots__ = ("season", "type", "year")

    year: Final[int]
    season: Final[Season]
    type: Final[PhaseType]

    def __init__(self, year: int, season: Season, type: PhaseType) -> None:
        self.year = year
        self.season = season
        self.type = type

    def _key(self) -> tuple[object, ...]:
        return (self.year, self.season, self.type)

    @classmethod
    @functools.lru_cache(maxsize=1024)  # phases are immutable; few texts recur very often
    def parse(cls, text: str) -> Phase:
        """`S1901M` or `SPRING 1901 MOVEMENT` (any case); raises ValueError."""
        raw = " ".join(text.upper().split())
        m = _SHORT.match(raw.replace(" ", ""))
        if m:
            phase = cls(int(m.group(2)), Season(m.group(1)), PhaseType(m.group(3)))
        else:
            words = raw.replace(",", " ").split()
            if (
                len(words) != 3
                or words[0] not in _SEASON_WORDS
                or words[2] not in _TYPE_WORDS
                or not _YEAR.fullmatch(words[1])
            ):
                raise ValueError(f"not a phase: {text!r}")
            phase = cls(int(words[1]), _SEASON_WORDS[words[0]], _TYPE_WORDS[words[2]])
        if (phase.season is Season.WINTER) != (phase.type in _WINTER_TYPES):
            raise ValueError(f"not a phase: {text!r} (adjustments and exchanges happen in winter only)")
        return phase

    def __str__(self) -> str:
        # (`_value_`: the member's own attribute; `value` is a property, a Python call)
        return f"{self.season._value_}{self.year}{self.type._value_}"

    def __repr__(self) -> str:
        return f"Phase.parse({str(self)!r})"

    @property
    def title(self) -> str:
        return f"{self.season.name.title()} {self.year} {self.type.name.title()}"

    @property
    def is_movement(self) -> bool:
        return self.type is PhaseType.MOVEMENT

    @property
    def is_retreats(self) -> bool:
        return self.type is PhaseType.RETREATS

    @property
    def is_adjustments(self) -> bool:
        return self.type is PhaseType.ADJUSTMENTS

    @property
    def is_exchange(self) -> bool:
        return self.type is PhaseType.EXCHANGE

    def next(self, *, exchange: bool = False) -> Phase:
        """The phase that follows in the full cycle (it may be skipped when nothing happens).
        With `exchange` (Exchange Payola), the winter adjustments are followed by the
        year's exchange phase (W1901A -> W1901X -> S1902M)."""
        if exchange and self.type is PhaseType.ADJUSTMENTS:
            return Phase(self.year, Season.WINTER, PhaseType.EXCHANGE)
        if self.season is Season.SPRING:
            if self.type is PhaseType.MOVEMENT:
                return Phase(self.year, Season.SPRING, PhaseType.RETREATS)
            return Phase(self.year, Season.FALL, PhaseType.MOVEMENT)
        if self.season is Season.FALL:
            if self.type is PhaseType.MOVEMENT:
                return Phase(self.year, Season.FALL, PhaseType.RETREATS)
            return Phase(self.year, Season.WINTER, PhaseType.ADJUSTMENTS)
        return Phase(self.year + 1, Season.SPRING, PhaseType.MOVEMENT)

    @property
    def _order_key(self) -> tuple[int, int, int]:
        season = {Season.SPRING: 0, Season.FALL: 1, Season.WINTER: 2}[self.season]
        kind = {
            PhaseType.MOVEMENT: 0,
            PhaseType.RETREATS: 1,
            PhaseType.ADJUSTMENTS: 2,
            PhaseType.EXCHANGE: 3,
        }[self.type]
        return (self.year, season, kind)

    def __lt__(self, other: Phase) -> bool:  # chronological, not alphabetical
        return self._order_key < other._order_key

    def __le__(self, other: Phase) -> bool:
        return self._order_key <= other._order_key

    def __gt__(self, other: Phase) -> bool:
        return self._order_key > other._order_key

    def __ge__(self, other: Phase) -> bool:
        return self._order_key >= other._order_key


# -- a map's own phases --------------------------------------------------------------------
# payjudge plays every map on the standard cycle Spring movement, retreats, Fall movement,
# retreats, Winter adjustments, one game year each. A map's FLOW may name its seasons in
# another language (LENTE, HERFST), count years in steps (hundred: NEWYEAR:5, adjustments
# in years divisible by 10) or backwards (classical: B.C.), or add phases payjudge does not
# play (ambition's INCOME). `map_start_phase` walks the FLOW as DPjudge does from the map's
# BEGIN phase and, when the movements, retreats and adjustments come in the standard cycle,
# says where in it the game starts; the years are then counted on from the first one.

_CYCLE: Final = (
    PhaseType.MOVEMENT,
    PhaseType.RETREATS,
    PhaseType.MOVEMENT,
    PhaseType.RETREATS,
    PhaseType.ADJUSTMENTS,
)
CYCLE_PHASES: Final = (  # the standard year, phase by phase (calendar.py counts in it)
    (Season.SPRING, PhaseType.MOVEMENT),
    (Season.SPRING, PhaseType.RETREATS),
    (Season.FALL, PhaseType.MOVEMENT),
    (Season.FALL, PhaseType.RETREATS),
    (Season.WINTER, PhaseType.ADJUSTMENTS),
)
_WALK: Final = 15  # phases walked: three cycles


class FlowError(ValueError):
    """A map whose phases payjudge cannot play; the message says why."""


def _flow_items(flow: tuple[str, ...] | list[str]) -> list[tuple[str, str]]:
    """FLOW words -> (season, phase word) steps, with ("NEWYEAR", n) and ("IFYEARDIV", d=r)."""
    items: list[tuple[str, str]] = []
    for word in flow:
        season, _, phases = word.upper().partition(":")
        if season in ("NEWYEAR", "IFYEARDIV"):
            items.append((season, phases))
        else:
            items.extend((season, p) for p in phases.split(",") if p)
    return items


def _kind(word: str) -> PhaseType | None:
    """MOVEMENT, RETREATS, ADJUSTMENTS (or their first letter); None for others (INCOME)."""
    return _KINDS.get(word)


_KINDS: Final = {
    "M": PhaseType.MOVEMENT,
    "MOVEMENT": PhaseType.MOVEMENT,
    "R": PhaseType.RETREATS,
    "RETREATS": PhaseType.RETREATS,
    "A": PhaseType.ADJUSTMENTS,
    "ADJUSTMENTS": PhaseType.ADJUSTMENTS,
}


def flow_walk(
    first_phase: str, flow: tuple[str, ...] | list[str], steps: int = _WALK
) -> list[tuple[str, int, str]]:
    """The map's phases from its first one, as DPjudge's FLOW gives them: (season, year,
    phase word). `NEWYEAR:n` adds n to the year where it stands (without one, the year
    goes up by one at the end of the FLOW); an `IFYEARDIV:d[=r]` whose year does not
    leave remainder r (0) divided by d skips the rest of the FLOW."""
    words = first_phase.upper().split()
    if len(words) != 3 or not words[1].lstrip("-").isdigit():
        raise FlowError(f"the first phase {first_phase!r} is not SEASON YEAR PHASE")
    season, year, phase = words[0], int(words[1]), words[2]
    items = _flow_items(flow)
    newyear = any(s == "NEWYEAR" for s, _ in items)
    at = next((i for i, (s, p) in enumerate(items) if s == season and p == phase), None)
    if at is None:
        raise FlowError(f"the first phase {first_phase!r} is not in the map's FLOW")
    out = [(season, year, phase)]
    i = at
    guard = 0
    while len(out) < steps:
        guard += 1
        if guard > 100 * steps:
            raise FlowError("the map's FLOW never reaches a next phase")
        i += 1
        if i >= len(items):
            i = 0
            if not newyear:
                year += 1
        s, p = items[i]
        if s == "NEWYEAR":
            year += int(p)
        elif s == "IFYEARDIV":
            div, _, mod = p.partition("=")
            if year % int(div) != int(mod or 0):
                i = len(items) - 1  # skip to the end of the FLOW
        else:
            out.append((s, year, p))
    return out


def map_start_phase(first_phase: str, flow: tuple[str, ...] | list[str]) -> Phase:
    """The phase a game on this map starts in, on payjudge's standard cycle (see above);
    raises FlowError for a map whose phases do not come in that cycle."""
    walk = flow_walk(first_phase, flow, _WALK + 5)
    kinds = [k for k in (_kind(p) for _, _, p in walk) if k is not None]
    if not kinds or _kind(walk[0][2]) is None:
        raise FlowError(f"the first phase {first_phase!r} is not a movement, retreat or adjustment phase")
    for offset in range(len(_CYCLE)):
        if all(k is _CYCLE[(offset + n) % len(_CYCLE)] for n, k in enumerate(kinds[:_WALK])):
            season, kind = CYCLE_PHASES[offset]
            return Phase(walk[0][1], season, kind)
    shown = " ".join(f"{s} {y} {p[:1]}" for s, y, p in walk[:8])
    raise FlowError(
        f"the map's phases ({shown} …) do not follow the cycle payjudge plays "
        "(movement, retreats, movement, retreats, adjustments)"
    )


STANDARD_FLOW: Final = ("SPRING:MOVEMENT,RETREATS", "FALL:MOVEMENT,RETREATS", "WINTER:ADJUSTMENTS")


def game_start_phase(start_phase: str, first_phase: str, flow: tuple[str, ...]) -> Phase:
    """A map's first phase as payjudge plays it: `start_phase` (`S1901M`) itself on the
    standard FLOW, else where its own FLOW puts it on the standard cycle (FlowError if
    nowhere)."""
    if tuple(flow) == STANDARD_FLOW:
        return Phase.parse(start_phase)
    return map_start_phase(first_phase, flow)
