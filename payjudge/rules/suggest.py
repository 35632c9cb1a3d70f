"""Suggest the provinces a mistyped name may mean (`LIV` -> LVP or LVN, `BRU` -> BUR).

A word is matched as the start of a province's name (`LIV` begins LIVERPOOL and LIVONIA),
or within one or two edits of a name or abbreviation. Both lookups go through tables
built once per map (every prefix; every name with one letter deleted, the "symmetric
delete" trick), so a suggestion costs a few set look-ups and at most a handful of
distance computations, whatever the message: a sheet of a thousand unknown words stays
linear.
"""

from __future__ import annotations

from typing import Final

from .geography import Map

_LONGEST: Final = 24  # longer words get no suggestion (no province name is that long)
_MAX: Final = 3  # suggestions offered


def _tables(game_map: Map) -> tuple[dict[str, frozenset[str]], dict[str, frozenset[str]], dict[str, str]]:
    prefixes: dict[str, set[str]] = {}
    deletes: dict[str, set[str]] = {}
    names: dict[str, str] = {}  # spelled name -> province
    for alias, loc in game_map.aliases.items():
        name = "".join(c for c in alias.upper() if c.isalnum())
        if not name or "/" in alias or "(" in alias:
            continue
        names.setdefault(name, loc.province)
        for n in range(3, len(name) + 1):
            prefixes.setdefault(name[:n], set()).add(loc.province)
        for variant in {name, *(name[:i] + name[i + 1 :] for i in range(len(name)))}:
            deletes.setdefault(variant, set()).add(name)
    return (
        {k: frozenset(v) for k, v in prefixes.items()},
        {k: frozenset(v) for k, v in deletes.items()},
        names,
    )


def _distance(a: str, b: str) -> int:
    """Edit distance with adjacent transpositions (optimal string alignment)."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[-1]


def suggest_provinces(word: str, game_map: Map) -> list[str]:
    """The provinces (abbreviations, best first) a word not on the map may stand for."""
    w = "".join(c for c in word.upper() if c.isalnum())
    if len(w) < 2 or len(w) > _LONGEST:
        return []
    prefixes, deletes, names = game_map.derived("suggest", _tables)
    ranked: dict[str, tuple[int, str]] = {}
    for province in prefixes.get(w, ()):
        ranked[province] = (0, province)
    limit = 1 if len(w) <= 4 else 2
    near: set[str] = set()
    for variant in {w, *(w[:i] + w[i + 1 :] for i in range(len(w)))}:
        near |= deletes.get(variant, frozenset())
    for name in near:
        d = _distance(w, name)
        if d <= limit:
            province = names[name]
            ranked[province] = min(ranked.get(province, (d, province)), (d, province))
    return [p for _, p in sorted(ranked.values())][:_MAX]
