"""Acceptance lists (rule 4): initials in order of preference, at most one `?`.

A `?` stands for every power not listed, in an order drawn once for the whole phase
(rule 4.1) from the phase's seed, so the same inputs always give the same outcome.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import partial
from random import Random  # (the class has a method named `random`)
from typing import Final

from ..rules.geography import Map
from ..rules.names import PowerName

WILD: Final = "?"


class AcceptanceError(ValueError):
    """An acceptance list that cannot be used; the message says why."""


@dataclass(frozen=True, slots=True)
class AcceptanceList:
    """Power names in order of preference; `None` marks where the `?` stands."""

    entries: tuple[PowerName | None, ...]

    @classmethod
    def default(cls, own_power: PowerName) -> AcceptanceList:
        """Rule 4.2: one's own currency first, then everybody else in random order."""
        return cls((own_power, None))

    @classmethod
    def random(cls) -> AcceptanceList:
        """The list used for a dummy power's units (rule 4.4: its own list is never used)."""
        return cls((None,))

    def text(self, game_map: Map) -> str:
        """As a player writes it: `FEG?`; `E,_INDIA,?` when a power has no initial."""
        words = []
        for name in self.entries:
            power = game_map.power(name) if name else None
            words.append((power.initial or power.name) if power else WILD)
        return ("," if any(len(w) > 1 for w in words) else "").join(words)

    def expand(self, game_map: Map, draw: Callable[[], Random]) -> tuple[PowerName, ...]:
        """Every power of the map, the `?` replaced by the missing ones in the order of the
        random source `draw()` (made only when powers are missing: seeding one costs more
        than the rest of this, and most lists name every power)."""
        listed = [e for e in self.entries if e is not None]
        others = [p for p in game_map.power_names if p not in listed]
        if others:
            draw().shuffle(others)
        out: list[PowerName] = []
        for e in self.entries:
            out.extend(others if e is None else [e])
        if None not in self.entries:
            out.extend(others)
        return tuple(out)


def parse_acceptance(
    text: str, game_map: Map, own_power: PowerName, *, complete: bool = True
) -> AcceptanceList:
    """Read `FEG?` (spaces and commas allowed; empty means the default `<own>?`).

    A power without an initial (DPjudge's `_` powers: zeus's _INDIA, vassal's minor
    powers) is written by its name, set apart by spaces or commas: `E _INDIA ?`.

    Rule 4.1 lets a list leave out other powers only if it holds exactly one `?`, and
    the power itself never ("an ordered list of every power ... including the power
    submitting the list"). With `complete` (the JSON interface, as DPjudge did) a short
    list without `?` gets one at its end: the powers left out are the least preferred, in
    random order, the power itself among them. Without it (the ACCEPT command) such lists
    are refused, saying how to write them.
    """
    letters = _items(text, game_map)
    if not letters:
        return AcceptanceList.default(own_power)
    powers = game_map.power_names
    if len(letters) > len(powers) + (WILD in letters):
        raise AcceptanceError(f"acceptance list {text.strip()!r} is too long: there are {len(powers)} powers")
    entries: list[PowerName | None] = []
    for letter in letters:
        if letter == WILD:
            if None in entries:
                raise AcceptanceError("an acceptance list may contain only one '?'")
            entries.append(None)
            continue
        power = game_map.power(letter)
        if power is None:
            initials = "".join(p.initial for p in game_map.powers)
            named = " ".join(p.name for p in game_map.powers if not p.initial)
            also = f"; powers without one by name: {named}" if named else ""
            raise AcceptanceError(f"{letter!r} is not a power initial (the initials are {initials}{also})")
        if power.name in entries:
            raise AcceptanceError(f"{letter} appears more than once in the acceptance list")
        entries.append(power.name)
    if not complete and own_power not in entries:
        written = "".join(letters)
        power = game_map.power(own_power)
        own = (power.initial or power.name) if power else own_power
        short = None not in entries and len(entries) + 1 < len(powers)
        raise AcceptanceError(
            f"ACCEPT {written} leaves out {own} ({own_power}) itself: a list may leave out "
            f"only other powers (rule 4.1). Write ACCEPT {own}{written}{WILD if short else ''} "
            f"to rank your own currency first, or place {own} where you want it"
        )
    if None not in entries and len(entries) < len(powers):
        if not complete:
            written = "".join(letters)
            missing = ", ".join(p.initial for p in game_map.powers if p.name not in entries)
            raise AcceptanceError(
                f"ACCEPT {written} leaves out {missing}: a list may leave powers out only "
                f"with one '?' standing for them (rule 4.1). Write ACCEPT {written}? to "
                f"rank them last in random order, or name every power"
            )
        entries.append(None)
    return AcceptanceList(tuple(entries))


def _items(text: str, game_map: Map) -> list[str]:
    """The letters of a list, a word naming a power without an initial kept whole."""
    out: list[str] = []
    for word in text.upper().replace(",", " ").split():
        power = game_map.power(word) if len(word) > 1 else None
        if power is not None and not power.initial:
            out.append(power.name)
        else:
            out.extend(word)
    return out


def phase_rng(seed: int | str, power: PowerName) -> random.Random:
    """The random source of one power's `?` in one phase: a function of the seed only."""
    return random.Random(f"payjudge-accept:{seed}:{power}")


def expand_all(
    lists: Mapping[PowerName, AcceptanceList],
    game_map: Map,
    seed: int | str,
    dummies: Iterable[PowerName] = (),
) -> dict[PowerName, tuple[PowerName, ...]]:
    """Each power's list as used this phase. Dummies get a drawn list (rule 4.4); powers
    without a list on record get the default `<own>?` (rule 4.2)."""
    dummies = frozenset(dummies)
    out = {}
    for power in game_map.power_names:
        if power in dummies:
            acc = AcceptanceList.random()
        else:
            acc = lists.get(power) or AcceptanceList.default(power)
        out[power] = acc.expand(game_map, partial(phase_rng, seed, power))
    return out


def investor_order(investors: Iterable[PowerName], seed: int | str) -> tuple[PowerName, ...]:
    """Exchange Payola: the investors' places after every power in every acceptance list,
    drawn once per phase from its seed (DPjudge left their order to chance)."""
    order = sorted(investors)
    random.Random(f"payjudge-investors:{seed}").shuffle(order)
    return tuple(order)
