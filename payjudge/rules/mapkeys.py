"""The keyword lines of a DPjudge `.map` (`VICTORY`, `USE`, `OWNS`, `UNITS`, `DUMMY`, ...):
one step per keyword, in the two tables `Reader.line` looks a line's first word up in.

A step takes the reader, the keyword, the line's words, its place and the power the lines
before named, and returns the power the next lines belong to (`None`: no power).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from .mapedits import drop_site
from .mapmodel import Model, Where
from .mapnames import DPJUDGE_VARIANTS, TERRAIN_WORDS, power_key, province_of


class Reader(Protocol):
    """What a step asks of the map reader (`mapread.Reader`, which calls the steps)."""

    m: Model

    def error(self, where: Where, message: str) -> None: ...
    def read_file(self, name: str, where: Where | None = None) -> None: ...
    def line(self, up: str, words: list[str], line: str, where: Where, power: str | None) -> str | None: ...
    def terrain(self, up: str, words: list[str], where: Where) -> None: ...
    def power_line(self, words: list[str], where: Where) -> str | None: ...
    def add_homes(self, power: str, homes: list[str], reinit: bool, where: Where) -> None: ...


Step = Callable[[Reader, str, list[str], Where, "str | None"], "str | None"]


def _ignored(r: Reader, up: str, words: list[str], where: Where, power: str | None) -> str | None:
    return power


def _victory(r: Reader, up: str, words: list[str], where: Where, power: str | None) -> str | None:
    try:
        r.m.victory = ([int(w) for w in words[1:]], where)
        if not words[1:]:
            raise ValueError
    except ValueError:
        r.error(where, "VICTORY needs a number of centres")
    return power


def _use(r: Reader, up: str, words: list[str], where: Where, power: str | None) -> str | None:
    """`USE` files, or `MAP` naming the root map (whose file is read as well)."""
    m = r.m
    if up == "MAP":
        if len(words) != 2:
            r.error(where, "MAP names one root map")
        elif m.root_map:
            r.error(where, "two root maps")
        else:
            m.root_map = words[1].split(".")[0]
    for name in words[1:]:
        if "." not in name:
            name += ".map"
        if name in m.files:
            r.error(where, f"file used twice: {name}")
        else:
            r.read_file(name, where)
    return power


def _flow(r: Reader, up: str, words: list[str], where: Where, power: str | None) -> str | None:
    if len(words) == 1:
        r.m.flow = []
    r.m.flow.extend((w.upper(), where) for w in words[1:])
    return power


def _begin(r: Reader, up: str, words: list[str], where: Where, power: str | None) -> str | None:
    r.m.begin = (" ".join(words[1:]).upper(), where)
    return power


def _rules(r: Reader, up: str, words: list[str], where: Where, power: str | None) -> str | None:
    r.m.rules.extend(w.upper() for w in words[1:])
    return power


def _rotate(r: Reader, up: str, words: list[str], where: Where, power: str | None) -> str | None:
    r.m.directives.setdefault("ALL", []).append(" ".join(words))
    return power


def _newhomes(r: Reader, up: str, words: list[str], where: Where, power: str | None) -> str | None:
    r.m.home_years = words[1:]
    return power


def _flag(r: Reader, up: str, words: list[str], where: Where, power: str | None) -> str | None:
    if power is None or len(words) != 2:
        r.error(where, "FLAG needs a power before it and one name")
    else:
        r.m.flags[power] = words[1].upper()
    return power


def _centres(r: Reader, up: str, words: list[str], where: Where, power: str | None) -> str | None:
    """`OWNS` adds to the centres a power owns at the start, `CENTERS` sets them."""
    m = r.m
    if power is None:
        r.error(where, f"{up} before any power")
        return power
    if power not in m.owns:
        m.owns.append(power)
    listed = [w.upper() for w in words[1:]]
    if up == "CENTERS" or power not in m.centers:
        m.centers[power] = listed
    else:
        m.centers[power] += [c for c in listed if c not in m.centers[power]]
    for c in listed:
        m.center_where.setdefault(c, where)
    return power


def _homes(r: Reader, up: str, words: list[str], where: Where, power: str | None) -> str | None:
    if power is None:
        r.error(where, f"{up} before any power")
        return power
    m = r.m
    reinit = up != "INHABITS" or power not in m.inhabits
    if power not in m.inhabits:
        m.inhabits.append(power)
    r.add_homes(power, words[1:], reinit, where)
    return power


def _units(r: Reader, up: str, words: list[str], where: Where, power: str | None) -> str | None:
    if power is None:
        r.error(where, "UNITS before any power")
    else:
        r.m.units[power] = []
    return power


def _reserves(r: Reader, up: str, words: list[str], where: Where, power: str | None) -> str | None:
    if power is None:
        r.error(where, f"{up} before any power")
        return power
    try:
        count = 1 if len(words) == 1 else int(words[1])
        if count < 0 or len(words) > 2:
            raise ValueError
    except ValueError:
        r.error(where, f"invalid {up} count")
        return power
    table = r.m.reserves if up == "RESERVES" else r.m.militia
    table[:] = [power] * count + [p for p in table if p != power]
    return power


def _control(r: Reader, up: str, words: list[str], where: Where, power: str | None) -> str | None:
    if power is None:
        r.error(where, "CONTROL before any power")
    elif power not in r.m.dummies:
        r.error(where, f"controlled power {power} is not a dummy")
    else:
        r.m.controls[power] = [power_key(w) for w in words[1:]]
    return power


def _league(r: Reader, up: str, words: list[str], where: Where, power: str | None) -> str | None:
    m = r.m
    if power is None:
        r.error(where, "LEAGUE before any power")
    elif power in m.leagues:
        r.error(where, f"{power} is in two leagues")
    else:
        m.leagues[power] = [w.upper() for w in words[1:]]
        act = words[2].upper() if len(words) > 2 else "STRICT"
        if act == "STRICT" and len(words) > 3:
            r.error(where, "a STRICT league names no other league")
        elif act not in ("STRICT", "BENIGN"):
            r.error(where, f"league behaviour must be STRICT or BENIGN, not {act}")
    return power


def _unit(r: Reader, up: str, words: list[str], where: Where, power: str | None) -> str | None:
    if power is None:
        r.error(where, f"unit before any power: {' '.join(words)}")
    elif len(words) != 2:
        r.error(where, f"invalid unit: {' '.join(words)}")
    else:
        site = words[1].upper()
        for units in r.m.units.values():  # a later unit replaces one in the province
            units[:] = [u for u in units if province_of(u[1]) != province_of(site)]
        r.m.units.setdefault(power, []).append((up, site, where))
    return power


def _all_except(
    r: Reader, up: str, words: list[str], where: Where, key: Callable[[str], str] = power_key
) -> list[str] | None:
    """The powers of `ALL` or `ALL EXCEPT X Y ...` (words[1] is `ALL`); None if malformed."""
    powers: list[str] = list(r.m.powers())
    if len(words) == 2:
        return powers
    if words[2].upper() != "EXCEPT" or len(words) == 3:
        r.error(where, f"{up} ALL takes EXCEPT and a list of powers")
        return None
    spared = {key(w) for w in words[3:]}
    return [p for p in powers if p not in spared]


def _dummy(r: Reader, up: str, words: list[str], where: Where, power: str | None) -> str | None:
    """`DUMMY` after a power's line makes it a dummy; `DUMMIES X Y` or `ALL [EXCEPT ...]`
    name them, and end the power's lines."""
    m = r.m
    if len(words) == 1:
        if up == "DUMMIES":
            r.error(where, "DUMMIES needs a list of powers")
        elif power is None:
            r.error(where, "DUMMY before any power")
        elif power not in m.dummies:
            m.dummies.append(power)
        return power
    if words[1].upper() == "ALL":
        dummies = _all_except(r, up, words, where)
        if dummies is not None:
            m.dummies = dummies
        return None
    for w in words[1:]:
        key = power_key(w)
        if key not in m.dummies:
            m.dummies.append(key)
    return None


def _teams(r: Reader, up: str, words: list[str], where: Where, power: str | None) -> str | None:
    """`TEAMS A-B C-D-E`: the first of each team controls the others, which become dummies."""
    if len(words) == 1:
        r.error(where, "TEAMS needs a list of teams")
        return None
    teams = words[1:2]
    for team in words[2:]:
        if team.startswith("-") or teams[-1].endswith("-"):
            teams[-1] += team
        else:
            teams.append(team)
    for team in teams:
        members = [power_key(x) for x in team.split("-")]
        if not all(members):
            r.error(where, "too many hyphens in TEAMS")
            continue
        leader, *rest = members
        for member in rest:
            if member not in r.m.dummies:
                r.m.dummies.append(member)
            r.m.controls[member] = [leader]
    return None


def _drop(r: Reader, up: str, words: list[str], where: Where, power: str | None) -> str | None:
    for place in words[1:]:
        drop_site(r.m, place.upper())
    return power


def _terrain(r: Reader, up: str, words: list[str], where: Where, power: str | None) -> str | None:
    """`LAND X ABUTS ...`, `AMEND X ...`; a terrain word alone is a power's name."""
    if len(words) == 1:
        return r.power_line(words, where)
    r.terrain(up, words, where)
    return power


def _as_written(word: str) -> str:
    """A power named in `UNPLAYED`: DPjudge drops only the `+` there, not `power_key`'s marks."""
    return word.upper().replace("+", "")


def _unplayed_powers(r: Reader, words: list[str], where: Where, power: str | None) -> list[str]:
    if len(words) == 1:
        if power is None:
            r.error(where, "UNPLAYED before any power")
            return []
        return [power]
    if words[1].upper() == "ALL":
        return _all_except(r, "UNPLAYED", words, where, _as_written) or []
    return [_as_written(w) for w in words[1:]]


def _unplayed(r: Reader, up: str, words: list[str], where: Where, power: str | None) -> str | None:
    """`UNPLAYED` (the power before) or `UNPLAYED X Y`/`ALL [EXCEPT ...]`: powers removed."""
    m = r.m
    for goner in _unplayed_powers(r, words, where, power):
        if goner not in m.homes:
            r.error(where, f"no such power to remove: {goner}")
            continue
        for table in (m.pow_name, m.own_word, m.initial, *m.by_power()):
            table.pop(goner, None)
        for powers in m.power_lists():
            powers[:] = [p for p in powers if p != goner]
    return None


def _power(r: Reader, up: str, words: list[str], where: Where, power: str | None) -> str | None:
    return r.power_line(words, where)


def directive(r: Reader, words: list[str], where: Where) -> str | None:
    if len(words) > 2:
        r.error(where, "bad variant DIRECTIVES line")
        return None
    if len(words) == 1:
        return "ALL"
    if words[0].upper() == "END":
        return None
    if words[0].upper() not in DPJUDGE_VARIANTS:
        r.error(where, f"unknown variant in DIRECTIVES line: {words[0]}")
        return None
    return words[0].upper()


def dynamic(r: Reader, up: str, words: list[str], where: Where) -> str | None:
    """`IN <phase>: <line>`, or `IN <phase>` opening a section of lines for that phase
    (DPjudge applies them when the game reaches a phase starting with that text)."""
    data = [x.strip() for x in " ".join(words[1:]).split(":")]
    if not data[0]:
        r.error(where, f"bad {up} directive")
        return None
    when = data[0].upper() if up == "IN" else data[0].lower()
    if when.upper() == "START":
        return None
    if len(data) > 1:
        r.m.dynamic.setdefault(when, []).append((data[1], where))
        return None
    return when


# the keywords read before a name line: a `VICTORY` or `USE` line with a `=` is still theirs
BEFORE_NAMES: dict[str, Step] = {
    "TEXTONLY": _ignored,
    "NOTIFY": _ignored,
    "FLAGS": _ignored,
    "VICTORY": _victory,
    "USE": _use,
    "USES": _use,
    "MAP": _use,
    "FLOW": _flow,
    "BEGIN": _begin,
    "RULE": _rules,
    "RULES": _rules,
    "ROTATE": _rotate,
    "NEWHOMES": _newhomes,
}

# the keywords of a line without `=`; any other first word names a power (`power_line`)
AFTER_NAMES: dict[str, Step] = {
    "FLAG": _flag,
    "OWNS": _centres,
    "CENTERS": _centres,
    "INHABITS": _homes,
    "HOME": _homes,
    "HOMES": _homes,
    "UNITS": _units,
    "RESERVES": _reserves,
    "MILITIA": _reserves,
    "CONTROL": _control,
    "LEAGUE": _league,
    "A": _unit,
    "F": _unit,
    "DUMMY": _dummy,
    "DUMMIES": _dummy,
    "TEAM": _teams,
    "TEAMS": _teams,
    "DROP": _drop,
    "AMEND": _terrain,
    "UNPLAYED": _unplayed,
    **dict.fromkeys(TERRAIN_WORDS, _terrain),
}

POWER_LINE: Step = _power
