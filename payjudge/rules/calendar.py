"""A map's own calendar: the names and years its BEGIN and FLOW give the phases payjudge
plays (issue 28 item 3).

payjudge keeps every game on its standard cycle (`Phase`: Spring and Fall movement and
retreats, Winter adjustments, one cycle a year), which is what the engines, the ledger and
the store know. A DPjudge map may count otherwise: hundred moves five years a turn and
adjusts every ten (A.D. 1425 Movement, A.D. 1430 Movement, A.D. 1430 Adjustments),
classical counts B.C. years down. `map_start_phase` only accepts maps whose phases come in
that cycle, so the n-th phase of the game is the n-th movement, retreat or adjustment of
the map's FLOW walked from its BEGIN: a `Calendar` names each cycle phase that way, and
reads the map's names (and DPjudge's abbreviations, `A1430M`) back. The standard FLOW's
calendar is the identity, so the standard map's text does not change.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from .geography import Map
from .phase import (
    CYCLE_PHASES,
    STANDARD_FLOW,
    FlowError,
    Phase,
    PhaseType,
    Season,
    flow_walk,
    game_start_phase,
)

_KIND: Final = {"M": PhaseType.MOVEMENT, "R": PhaseType.RETREATS, "A": PhaseType.ADJUSTMENTS}
_SHORT: Final = re.compile(r"^(\S)(-?[0-9]{1,5})([MRAX])$")
_LIMIT: Final = 5000  # cycle phases searched when reading a name: a thousand game years


class PhaseTitle(str):
    """A phase already named by its map's calendar (`A.D. 1430 Adjustments`): printed as
    it is. (A map may name a phase with words that read as another phase of payjudge's
    cycle, `Spring 1903 Movement` on a map of two-year turns: named once, never again.)"""

    __slots__ = ()


@dataclass(frozen=True)
class MapPhase:
    """A phase as the map names it: its season word (`A.D.`, `SPRING`), year and kind."""

    season: str
    year: int
    type: PhaseType

    @property
    def title(self) -> PhaseTitle:
        """`A.D. 1430 Adjustments`, `Spring 1901 Movement`."""
        return PhaseTitle(f"{self.season.title()} {self.year} {self.type.name.title()}")

    @property
    def short(self) -> str:
        """DPjudge's abbreviation: `A1430A`, `B273M`, `S1901M`."""
        return f"{self.season[:1]}{self.year}{self.type.value}"


def _cycle_index(phase: Phase) -> int:
    """Where `phase` stands among all cycle phases (an exchange phase counts as its year's
    adjustments, which it follows)."""
    kind = PhaseType.ADJUSTMENTS if phase.is_exchange else phase.type
    return phase.year * len(CYCLE_PHASES) + CYCLE_PHASES.index((phase.season, kind))


def _cycle_phase(index: int) -> Phase:
    year, at = divmod(index, len(CYCLE_PHASES))
    season, kind = CYCLE_PHASES[at]
    return Phase(year, season, kind)


def _word(text: str) -> str:
    """A season word compared without its dots or case: `A.D.`, `AD` and `a.d.` are one."""
    return text.replace(".", "").upper()


class Calendar:
    """The map's names of the phases of a game on it (see the module's docstring)."""

    def __init__(self, start: Phase, first_phase: str, flow: tuple[str, ...]) -> None:
        self.start = start
        self.standard = tuple(flow) == STANDARD_FLOW
        self._first_phase = first_phase
        self._flow = tuple(flow)
        self._walk: list[MapPhase] = []
        self._origin = _cycle_index(start)

    def __repr__(self) -> str:
        return f"Calendar({self.start!r}, {self._first_phase!r}, {self._flow!r})"

    def _nth(self, n: int) -> MapPhase:
        """The map's n-th movement, retreat or adjustment phase from its BEGIN (n >= 0)."""
        if n >= len(self._walk):
            steps = max(2 * n + 10, 40)
            walk = flow_walk(self._first_phase, self._flow, steps)
            self._walk = [MapPhase(s, y, _KIND[w[:1]]) for s, y, w in walk if w[:1] in _KIND]
        return self._walk[n]

    def of(self, phase: Phase) -> MapPhase:
        """The map's name of a phase of the game."""
        n = _cycle_index(phase) - self._origin
        if not self.standard and n == -1 and phase.is_exchange:
            return self._float()
        if self.standard or n < 0:
            return MapPhase(phase.season.name, phase.year, phase.type)
        named = self._nth(n)
        return MapPhase(named.season, named.year, phase.type) if phase.is_exchange else named

    def _float(self) -> MapPhase:
        """Exchange Payola's float, the exchange phase just before the game's first one
        (docs/exchange.md): the map has no phase there, so it is named by the first one's
        season and year (`A.D. 1425 Exchange`, before A.D. 1425 Movement)."""
        first = self._nth(0)
        return MapPhase(first.season, first.year, PhaseType.EXCHANGE)

    def title(self, phase: Phase) -> PhaseTitle:
        """`A.D. 1430 Adjustments` (on the standard map `Phase.title`, `Winter 1901 Adjustments`)."""
        return self.of(phase).title

    def short(self, phase: Phase) -> str:
        """`A1430A` (on the standard map `str(phase)`, `W1901A`)."""
        return self.of(phase).short

    def year(self, phase: Phase) -> int:
        """The map's year of a phase of the game."""
        return self.of(phase).year

    def parse(self, text: str) -> Phase:
        """A phase a player names: the map's name (`A.D. 1430 ADJUSTMENTS`), DPjudge's
        abbreviation (`A1430A`) or, when the map has neither, payjudge's own name of the
        cycle phase as the store keeps it (`W1425A`: mail of games played before the map's
        names, replayed, still reads the same); ValueError if none. On the standard map this
        is `Phase.parse`."""
        if self.standard:
            return Phase.parse(text)
        found = self._find(text)
        if found is not None:
            return found
        try:
            return Phase.parse(text)
        except ValueError:
            example = self.of(self.start)
            raise ValueError(
                f"not a phase of this map: {text!r} "
                f"(its phases are named like {example.title} or {example.short})"
            ) from None

    def _find(self, text: str) -> Phase | None:
        wanted = _read(text)
        if wanted is None:
            return None
        season, year, kind = wanted
        exchange = kind is PhaseType.EXCHANGE
        if exchange:
            kind = PhaseType.ADJUSTMENTS
        # the map's years only ever move one way (NEWYEAR is never 0): stop once past
        direction = 1 if self._nth(len(CYCLE_PHASES)).year >= self._nth(0).year else -1
        for n in range(_LIMIT):
            named = self._nth(n)
            if (named.year - year) * direction > 0:
                break
            if named.year == year and named.type is kind and season(named.season):
                phase = _cycle_phase(self._origin + n)
                return phase.next(exchange=True) if exchange else phase
        named = self._float()
        if exchange and named.year == year and season(named.season):
            return _cycle_phase(self._origin - 1).next(exchange=True)
        return None

    def game_year(self, year: int) -> int:
        """The game year (of `Phase`) whose year-end, its adjustments and exchange, is the
        map's first at or after the map's `year` in the map's own direction of time:
        `END 1440` on hundred is game year 1426, whose adjustments are A.D. 1440's (and
        `END 1425` the year of the float, A.D. 1425 Exchange, before the first phase)."""
        if self.standard:
            return year
        first = self.year(Phase(self.start.year, Season.WINTER, PhaseType.ADJUSTMENTS))
        later = self.year(Phase(self.start.year + 1, Season.WINTER, PhaseType.ADJUSTMENTS))
        direction = 1 if later >= first else -1
        last = self.start.year + _LIMIT // len(CYCLE_PHASES)
        for game_year in range(self.start.year - 1, last):
            ends = self.year(Phase(game_year, Season.WINTER, PhaseType.EXCHANGE))
            if (ends - year) * direction >= 0:
                return game_year
        return last


def _read(text: str) -> tuple[Callable[[str], bool], int, PhaseType] | None:
    """The parts of a map's phase name or abbreviation, or None."""
    words = text.upper().replace(",", " ").split()
    if len(words) >= 3 and words[-2].lstrip("-").isdigit():
        kind = _type_word(words[-1])
        season = _word(" ".join(words[:-2]))
        if kind is None:
            return None
        return (lambda s: _word(s) == season), int(words[-2]), kind
    m = _SHORT.match("".join(words))
    if m is None:
        return None
    letter = m.group(1)
    return (lambda s: s[:1] == letter), int(m.group(2)), PhaseType(m.group(3))


def _type_word(word: str) -> PhaseType | None:
    for kind in PhaseType:
        if word in (kind.name, kind.value) or (kind.name.startswith(word) and len(word) >= 4):
            return kind
    return {"MOVES": PhaseType.MOVEMENT, "BUILDS": PhaseType.ADJUSTMENTS}.get(word)


@functools.lru_cache(maxsize=64)
def _calendar(start_phase: str, first_phase: str, flow: tuple[str, ...]) -> Calendar:
    try:
        start = game_start_phase(start_phase, first_phase, flow)
    except FlowError:
        # a map payjudge cannot play (no game starts on it) is named on the standard cycle
        return Calendar(Phase(1, Season.SPRING, PhaseType.MOVEMENT), first_phase, STANDARD_FLOW)
    return Calendar(start, first_phase, flow)


def calendar_of(game_map: Map) -> Calendar:
    """The calendar of a map (a Map), kept once made."""
    return _calendar(game_map.start_phase, game_map.first_phase, tuple(game_map.flow))
