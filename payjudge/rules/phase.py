"""Game phases (`S1901M`, `F1901R`, `W1901A`) and the order in which they follow each other."""

from __future__ import annotations

import enum
import functools
import re
from dataclasses import dataclass


class Season(enum.Enum):
    SPRING = "S"
    FALL = "F"
    WINTER = "W"


class PhaseType(enum.Enum):
    MOVEMENT = "M"
    RETREATS = "R"
    ADJUSTMENTS = "A"


_SEASON_WORDS = {"SPRING": Season.SPRING, "FALL": Season.FALL, "AUTUMN": Season.FALL,
                 "WINTER": Season.WINTER}
_TYPE_WORDS = {"MOVEMENT": PhaseType.MOVEMENT, "MOVES": PhaseType.MOVEMENT,
               "RETREAT": PhaseType.RETREATS, "RETREATS": PhaseType.RETREATS,
               "ADJUSTMENT": PhaseType.ADJUSTMENTS, "ADJUSTMENTS": PhaseType.ADJUSTMENTS,
               "BUILDS": PhaseType.ADJUSTMENTS}
_SHORT = re.compile(r"^([SFW])([0-9]{1,5})([MRA])$")
_YEAR = re.compile(r"[0-9]{1,5}")


@dataclass(frozen=True, slots=True)
class Phase:
    year: int
    season: Season
    type: PhaseType

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
            if len(words) != 3 or words[0] not in _SEASON_WORDS or words[2] not in _TYPE_WORDS \
                    or not _YEAR.fullmatch(words[1]):
                raise ValueError(f"not a phase: {text!r}")
            phase = cls(int(words[1]), _SEASON_WORDS[words[0]], _TYPE_WORDS[words[2]])
        if (phase.season is Season.WINTER) != (phase.type is PhaseType.ADJUSTMENTS):
            raise ValueError(f"not a phase: {text!r} (adjustments happen in winter only)")
        return phase

    def __str__(self) -> str:
        return f"{self.season.value}{self.year}{self.type.value}"

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

    def next(self) -> Phase:
        """The phase that follows in the full cycle (it may be skipped when nothing happens)."""
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
        kind = {PhaseType.MOVEMENT: 0, PhaseType.RETREATS: 1, PhaseType.ADJUSTMENTS: 2}[self.type]
        return (self.year, season, kind)

    def __lt__(self, other: Phase) -> bool:  # chronological, not alphabetical
        return self._order_key < other._order_key

    def __le__(self, other: Phase) -> bool:
        return self._order_key <= other._order_key

    def __gt__(self, other: Phase) -> bool:
        return self._order_key > other._order_key

    def __ge__(self, other: Phase) -> bool:
        return self._order_key >= other._order_key
