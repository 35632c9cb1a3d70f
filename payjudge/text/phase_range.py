"""The phase range of `HISTORY <game> [FROM <phase>] [TO <phase>]`, in the words of the
game's map (`FROM A.D. 1430 MOVEMENT TO A1440A`; issue 28 item 3)."""

from __future__ import annotations

from collections.abc import Sequence

from ..rules.calendar import Calendar
from ..rules.phase import Phase

_KEYS = ("FROM", "TO")


def phase_range(words: Sequence[str], calendar: Calendar) -> tuple[Phase | None, Phase | None]:
    """(first, last) of the words after the game's name, each None when not given; a
    phase alone is `FROM` it. ValueError (its message for the player) when unreadable."""
    parts: dict[str, list[str]] = {}
    key = "FROM"
    for word in words:
        if word.upper() in _KEYS:
            key = word.upper()
            if key in parts:
                raise ValueError(f"{key} twice in HISTORY")
            parts[key] = []
        else:
            parts.setdefault(key, []).append(word)
    first, last = (_phase(parts, key, calendar) for key in _KEYS)
    if first is not None and last is not None and last < first:
        raise ValueError(f"HISTORY: {calendar.short(last)} comes before {calendar.short(first)}")
    return first, last


def _phase(parts: dict[str, list[str]], key: str, calendar: Calendar) -> Phase | None:
    if key not in parts:
        return None
    if not parts[key]:
        raise ValueError(f"HISTORY {key} needs a phase, e.g. {key} {calendar.short(calendar.start)}")
    return calendar.parse(" ".join(parts[key]))


def within(phase: Phase, first: Phase | None, last: Phase | None) -> bool:
    """Whether `phase` is in the range (None: open at that end)."""
    return (first is None or phase >= first) and (last is None or phase <= last)
