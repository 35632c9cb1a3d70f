"""The board as data: locations, provinces, powers and the frozen, validated `Map`."""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, TypeVar

from . import convoychains
from .names import PowerName, ProvinceName
from .values import Value

_T = TypeVar("_T")
_K = TypeVar("_K")

# the work one convoy-chain question may take before the answer is approximated
# (rules/convoychains.py)
_CHAIN_SEARCH_STEPS = 50_000


class Terrain(enum.Enum):
    LAND = "LAND"
    COAST = "COAST"
    WATER = "WATER"
    SHUT = "SHUT"  # impassable (Switzerland)

    @property
    def army_can_enter(self) -> bool:
        return self in (Terrain.LAND, Terrain.COAST)

    @property
    def fleet_can_enter(self) -> bool:
        return self in (Terrain.COAST, Terrain.WATER)


class UnitType(enum.Enum):
    ARMY = "A"
    FLEET = "F"

    # singletons compared by identity: hashed as objects, in C (every Unit's hash needs it)
    __hash__ = object.__hash__

    def __str__(self) -> str:
        return self.value


class Location(Value):
    """A province, or one coast of a province with several (`STP/NC`). A value (see
    values.py), ordered by (province, coast) as a dataclass with `order=True` would be."""

    __slots__ = ("coast", "province")

    province: Final[str]
    coast: Final[str | None]

    def __init__(self, province: str, coast: str | None = None) -> None:
        self.province = province
        self.coast = coast

    def _key(self) -> tuple[object, ...]:
        return (self.province, self.coast)

    def __lt__(self, other: Location) -> bool:
        if type(other) is not Location:
            return NotImplemented
        return (self.province, self.coast) < (other.province, other.coast)

    def __le__(self, other: Location) -> bool:
        if type(other) is not Location:
            return NotImplemented
        return (self.province, self.coast) <= (other.province, other.coast)

    def __gt__(self, other: Location) -> bool:
        if type(other) is not Location:
            return NotImplemented
        return (self.province, self.coast) > (other.province, other.coast)

    def __ge__(self, other: Location) -> bool:
        if type(other) is not Location:
            return NotImplemented
        return (self.province, self.coast) >= (other.province, other.coast)

    @classmethod
    def parse(cls, text: str) -> Location:
        """Split canonical text (`STP/NC`, `PAR`); no alias lookup."""
        name, _, coast = text.upper().partition("/")
        return cls(name, coast or None)

    @property
    def bare(self) -> Location:
        return self if self.coast is None else Location(self.province)

    def __str__(self) -> str:
        return self.province if self.coast is None else f"{self.province}/{self.coast}"

    def __repr__(self) -> str:
        return f"Location.parse({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Province:
    name: ProvinceName
    full_name: str
    terrain: Terrain
    coasts: tuple[str, ...] = ()
    supply_center: bool = False


@dataclass(frozen=True, slots=True)
class Power:
    name: PowerName  # ENGLAND (DPjudge's key: `U+S+A` is USA, `_India` is _INDIA)
    adjective: str  # ENGLISH
    initial: str  # E; "" for a power without one (DPjudge's `_` powers)
    homes: tuple[ProvinceName, ...]
    written: str = ""  # the name as the map spells it, `+` as a blank (U S A)
    hidden_homes: tuple[str, ...] = ()  # `~X`: a build there is not announced
    alternative_homes: tuple[tuple[str, tuple[str, ...]], ...] = ()  # `@X(A,B)`
    partisan_sites: tuple[str, ...] = ()  # `*X`: build sites that are no centres
    factory_sites: tuple[str, ...] = ()  # `+X`
    builds_anywhere: bool = False  # `&SC` among the homes: it builds in any centre it owns

    def __str__(self) -> str:
        return self.name


_NOTHING: Final[frozenset[Any]] = frozenset()


def _freeze(mapping: Mapping[_K, _T]) -> Mapping[_K, _T]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class Map:
    """An immutable, validated Diplomacy map. Build one with `payjudge.rules.mapfile`."""

    name: str
    provinces: Mapping[str, Province]  # lookup tables are keyed by text, their values typed
    powers: tuple[Power, ...]
    victory: int
    start_phase: str
    start_units: Mapping[PowerName, tuple[tuple[UnitType, Location], ...]]
    start_centers: Mapping[PowerName, frozenset[ProvinceName]]
    # army moves: province -> provinces; fleet moves: location -> locations
    army_adjacency: Mapping[str, frozenset[str]]
    fleet_adjacency: Mapping[Location, frozenset[Location]]
    aliases: Mapping[str, Location]
    rules: tuple[str, ...] = ()
    # what else a DPjudge map says (payjudge.rules.mapfile): the first phase in words and
    # the year's FLOW, variant-only RULE lines, dummies, leagues, special adjacencies, and
    # the lines that apply only in some phases (IN)
    first_phase: str = "SPRING 1901 MOVEMENT"
    flow: tuple[str, ...] = ("SPRING:MOVEMENT,RETREATS", "FALL:MOVEMENT,RETREATS", "WINTER:ADJUSTMENTS")
    victory_steps: tuple[int, ...] = ()
    directives: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    dummies: tuple[PowerName, ...] = ()
    controls: Mapping[PowerName, tuple[PowerName, ...]] = field(default_factory=dict)
    leagues: Mapping[PowerName, tuple[str, ...]] = field(default_factory=dict)
    reserves: Mapping[PowerName, int] = field(default_factory=dict)
    militia: Mapping[PowerName, int] = field(default_factory=dict)
    home_years: tuple[str, ...] = ()
    special_adjacency: tuple[tuple[str, str, str], ...] = ()  # (code, from, to): `*MAO`
    phase_lines: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (IN phase, its lines)
    notes: tuple[str, ...] = ()  # ambiguities DPjudge only reported, and how they were read
    files: tuple[str, ...] = ()
    # the board of one phase (set by mapfile when the map has IN lines)
    _in_phase: Callable[[str], Map] | None = field(default=None, repr=False, compare=False)
    _by_initial: Mapping[str, Power] = field(init=False, repr=False, compare=False)
    _by_name: Mapping[str, Power] = field(init=False, repr=False, compare=False)
    # values computed once by other modules (`derived`), each of its own type
    _derived: dict[str, Any] = field(init=False, default_factory=dict, repr=False, compare=False)
    # lookup tables keyed by plain tuples and strings: the adjudicator asks them often,
    # and hashing a tuple is much cheaper than hashing a Location
    _fleet_nb: dict[tuple[str, str | None], frozenset[Location]] = field(
        init=False, repr=False, compare=False
    )
    _fleet_keys: dict[tuple[str, str | None], frozenset[tuple[str, str | None]]] = field(
        init=False, repr=False, compare=False
    )
    _fleet_provinces: dict[tuple[str, str | None], frozenset[str]] = field(
        init=False, repr=False, compare=False
    )
    _seas_of: dict[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)
    _terrain: dict[str, Terrain] = field(init=False, repr=False, compare=False)
    _convoy_cache: dict[tuple[str, str], frozenset[str]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_initial", _freeze({p.initial: p for p in self.powers if p.initial}))
        names: dict[str, Power] = {}
        for p in self.powers:
            names[p.name] = p
            names[p.adjective] = p
        object.__setattr__(self, "_by_name", _freeze(names))
        fleet_nb = {(loc.province, loc.coast): ns for loc, ns in self.fleet_adjacency.items()}
        object.__setattr__(self, "_fleet_nb", fleet_nb)
        object.__setattr__(
            self,
            "_fleet_keys",
            {k: frozenset((n.province, n.coast) for n in ns) for k, ns in fleet_nb.items()},
        )
        object.__setattr__(
            self, "_fleet_provinces", {k: frozenset(n.province for n in ns) for k, ns in fleet_nb.items()}
        )
        object.__setattr__(self, "_terrain", {name: p.terrain for name, p in self.provinces.items()})
        seas_of: dict[str, tuple[str, ...]] = {}
        for name, prov in self.provinces.items():
            found: list[str] = []
            for coast in prov.coasts or (None,):
                for n in fleet_nb.get((name, coast), ()):
                    if self._terrain.get(n.province) is Terrain.WATER and n.province not in found:
                        found.append(n.province)
            seas_of[name] = tuple(found)
        object.__setattr__(self, "_seas_of", seas_of)
        object.__setattr__(self, "_convoy_cache", {})

    def derived(self, key: str, compute: Callable[[Map], _T]) -> _T:
        """A value computed once from the map (the map never changes); each key holds the
        value of one `compute`, so the cache's values are typed by their callers."""
        try:
            value: _T = self._derived[key]
        except KeyError:
            value = self._derived[key] = compute(self)
        return value

    def rule_flags(self, variant: str = "PAYOLA") -> tuple[str, ...]:
        """The map's rules for a game of `variant`: its RULE lines and those of the variant's
        DIRECTIVES block, in order, a `!X` dropping an earlier X."""
        flags: list[str] = []
        words = list(self.rules)
        for line in self.directives.get(variant, ()):
            head, *rest = line.upper().split()
            if head in ("RULE", "RULES"):
                words.extend(rest)
        for word in words:
            if word.startswith("!"):
                flags = [f for f in flags if f != word[1:]]
            elif word not in flags:
                flags.append(word)
        return tuple(flags)

    def in_phase(self, phase: str) -> Map:
        """The board as it is in `phase` (`SPRING 1901 MOVEMENT` or `S1901M`): the map's
        `IN` lines for that phase applied (loeb9's Arctic is water in spring only)."""
        if not self.phase_lines or self._in_phase is None:
            return self
        return self._in_phase(phase)

    # -- lookups ---------------------------------------------------------------------
    @property
    def supply_centers(self) -> frozenset[ProvinceName]:
        return frozenset(p.name for p in self.provinces.values() if p.supply_center)

    @property
    def power_names(self) -> tuple[PowerName, ...]:
        return tuple(p.name for p in self.powers)

    def power(self, name_or_initial: str) -> Power | None:
        key = name_or_initial.strip().upper()
        if len(key) == 1:
            return self._by_initial.get(key)
        return self._by_name.get(key)

    def home_owner(self, province: str) -> PowerName | None:
        for power in self.powers:
            if province in power.homes:
                return power.name
        return None

    # -- movement ----------------------------------------------------------------------
    def can_occupy(self, unit_type: UnitType, location: Location) -> bool:
        """Whether a unit of this type may stand on this exact location."""
        prov = self.provinces.get(location.province)
        if prov is None:
            return False
        if unit_type is UnitType.ARMY:
            return prov.terrain.army_can_enter and location.coast is None
        if not prov.terrain.fleet_can_enter:
            return False
        if prov.coasts:
            return location.coast in prov.coasts
        return location.coast is None

    def army_neighbours(self, province: str) -> frozenset[str]:
        return self.army_adjacency.get(province, _NOTHING)

    def fleet_neighbours(self, location: Location) -> frozenset[Location]:
        return self._fleet_nb.get((location.province, location.coast), _NOTHING)

    def adjacent(self, unit_type: UnitType, origin: Location, dest: Location) -> bool:
        """Can a unit at `origin` move to exactly `dest` in one step (coasts matter for fleets)?"""
        if unit_type is UnitType.ARMY:
            return dest.coast is None and dest.province in self.army_adjacency.get(origin.province, ())
        return (dest.province, dest.coast) in self._fleet_keys.get((origin.province, origin.coast), ())

    def reaches_province(self, unit_type: UnitType, origin: Location, province: str) -> bool:
        """Can the unit move to some part of `province` (used for supports)?"""
        if unit_type is UnitType.ARMY:
            return province in self.army_adjacency.get(origin.province, ())
        return province in self._fleet_provinces.get((origin.province, origin.coast), ())

    def fleet_coasts_reachable(self, origin: Location, province: str) -> tuple[Location, ...]:
        return tuple(sorted(n for n in self.fleet_neighbours(origin) if n.province == province))

    def is_coastal(self, province: str) -> bool:
        return self._terrain[province] is Terrain.COAST

    def is_sea(self, province: str) -> bool:
        return self._terrain[province] is Terrain.WATER

    def sea_neighbours(self, province: str) -> tuple[str, ...]:
        """Water provinces a fleet convoying from `province` could use next."""
        return self._seas_of[province]

    def convoy_path_possible(self, origin: str, dest: str) -> bool:
        """Is there any chain of seas along which an army could be convoyed?"""
        return bool(self.convoy_seas(origin, dest))

    def convoy_seas(self, origin: str, dest: str) -> frozenset[str]:
        """The seas a fleet may usefully convoy from: those on some chain from `origin` to
        `dest` in which every fleet is needed (DATC 4.E.1 and 6.G.19)."""
        key = (origin, dest)
        hit = self._convoy_cache.get(key)
        if hit is None:
            if (
                origin == dest
                or origin not in self.provinces
                or dest not in self.provinces
                or not (self.is_coastal(origin) and self.is_coastal(dest))
            ):
                hit = frozenset()
            else:
                hit = self._irreducible_chains(origin, dest)
            self._convoy_cache[key] = hit
        return hit

    def _sea_sets(self) -> Callable[[str], frozenset[str]]:
        # the seas next to each province as sets, made once (the chain search asks them often)
        return self.derived(
            "geography:sea sets", lambda m: {p: frozenset(seas) for p, seas in m._seas_of.items()}
        ).__getitem__

    def _irreducible_chains(self, origin: str, dest: str) -> frozenset[str]:
        seas_of = self._sea_sets()
        at_origin, at_dest = seas_of(origin), seas_of(dest)
        found = convoychains.pair(at_origin, at_dest, seas_of, _CHAIN_SEARCH_STEPS)
        return convoychains.linking(at_origin, at_dest, seas_of) if found is None else found

    def convoy_seas_from(self, origin: str) -> None:
        """Answer `convoy_seas` from `origin` to every coastal province at once, in one walk
        of its chains (rules/convoychains.py): what a list of every possible order asks."""
        if origin not in self.provinces or not self.is_coastal(origin):
            return
        seas_of = self._sea_sets()
        todo = [
            (d, seas_of(d))
            for d in self.provinces
            if d != origin and self.is_coastal(d) and (origin, d) not in self._convoy_cache
        ]
        if not todo:
            return
        # a tree is a few thousand nodes on the largest maps that play well (youngstown:
        # 6,000 at most); past twice one pair's steps it is left for the pairs' walks
        answers = convoychains.from_origin(
            seas_of(origin), todo, seas_of, _CHAIN_SEARCH_STEPS, 2 * _CHAIN_SEARCH_STEPS
        )
        for dest, at_dest in todo:
            if answers is None:  # a tree past its budget: each pair on its own
                found = self._irreducible_chains(origin, dest)
            else:
                answer = answers[dest]
                # None: a pair whose own walk would have run past its steps, approximated
                found = convoychains.linking(seas_of(origin), at_dest, seas_of) if answer is None else answer
            self._convoy_cache[(origin, dest)] = found

    def __repr__(self) -> str:
        return f"<Map {self.name}: {len(self.provinces)} provinces, {len(self.powers)} powers>"
