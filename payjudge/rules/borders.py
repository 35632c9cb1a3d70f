"""The special borders of a DPjudge map in play (docs/maps.md, "Special adjacencies").

A map's ABUTS lines may mark a border: `*X` or `X~`, a border across which no support is
given (1900's "Cape of Good Hope" between MAO and EGY/HEJ, loeb9's straits COR-NAF and
SIC-NAP); `X(CEN)`, a border only the owner of the centre CEN may cross (imperial's
Bosphorus, AEG-BLA, for the owner of CON); `R:X`, a border only power R may cross. The
map keeps them as `Map.special_adjacency` (code, from, to), each as written: a border
marked on one side only is special in that direction only, as in DPjudge.

What a marked border means in play:

- no support (`*`, `~`): a unit may not support a unit holding in, or moving to, the
  province across it (DPjudge's rule, "UNIT CANNOT PROVIDE SUPPORT TO DESTINATION");
- owner or power only (`(CEN)`, `R:`): a unit may cross it, and so support into the
  province across it, only when its owner owns CEN now (is power R); every mark on a
  border must be met. It is the unit's owner that counts, not the power whose offer
  it carries out. DPjudge checks these marks when it reads the map and then plays the
  border as an ordinary one; payjudge plays them as the map says.

Armies carried by convoy cross no border, so the marks do not concern them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from .geography import Map
from .names import PowerName
from .position import Position

_Pair = tuple[str, str]


@dataclass(frozen=True)
class Borders:
    """A map's marked borders, by (from, to) province."""

    no_support: frozenset[_Pair]
    owner_of: Mapping[_Pair, frozenset[str]]  # the centres whose owner alone may cross
    power_only: Mapping[_Pair, frozenset[str]]  # the initials of the powers that may cross

    @property
    def restricted(self) -> bool:
        return bool(self.owner_of or self.power_only)


def _province(site: str) -> str:
    return site.split("/")[0].upper()


def _read(m: Map) -> Borders:
    no_support: set[_Pair] = set()
    owner_of: dict[_Pair, set[str]] = {}
    power_only: dict[_Pair, set[str]] = {}
    for code, origin, dest in m.special_adjacency:
        pair = (_province(origin), _province(dest))
        if code in ("*", "~"):
            no_support.add(pair)
        elif code.endswith(")"):
            owner_of.setdefault(pair, set()).add(code[:-1])
        elif code.endswith(":"):
            power_only.setdefault(pair, set()).add(code[:-1])
    return Borders(
        frozenset(no_support),
        MappingProxyType({k: frozenset(v) for k, v in owner_of.items()}),
        MappingProxyType({k: frozenset(v) for k, v in power_only.items()}),
    )


def borders(m: Map) -> Borders:
    """The marked borders of `m` (read once per map)."""
    return m.derived("borders", _read)


def crossing_refused(position: Position, owner: PowerName, origin: str, dest: str) -> str | None:
    """Why a unit of `owner` may not cross from province `origin` to `dest`, or None."""
    b = borders(position.map)
    if not b.restricted:
        return None
    pair = (origin, dest)
    for centre in sorted(b.owner_of.get(pair, ())):
        if position.center_owner(centre) != owner:
            return f"the border from {origin} to {dest} is only for the owner of {centre}"
    initials = b.power_only.get(pair)
    if initials:
        power = position.map.power(owner)
        if power is None or power.initial not in initials:
            named = (position.map.power(i) for i in sorted(initials))
            who = " or ".join(p.name for p in named if p is not None)
            return f"the border from {origin} to {dest} is only for {who}"
    return None


def support_refused(m: Map, origin: str, dest: str) -> bool:
    """Is the border from `origin` to `dest` one across which no support is given?"""
    return (origin, dest) in borders(m).no_support
