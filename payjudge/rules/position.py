"""The state of the board at the start of a phase: units, dislodged units, centre ownership."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field
from operator import attrgetter
from types import MappingProxyType
from typing import Any, Final

from .flags import Flag
from .geography import Location, Map
from .names import PowerName, ProvinceName
from .orders import Unit
from .phase import Phase, PhaseType, Season, game_start_phase
from .terrain import adapt_units, phase_map


def opening_phase(game_map: Map, flags: frozenset[Flag] = frozenset()) -> Phase:
    """The first phase of a game on `game_map`: the map's, or under MOBILIZE and FLEX_SETUP
    (the powers build their first units) the adjustment phase that comes before it."""
    phase = game_start_phase(game_map.start_phase, game_map.first_phase, game_map.flow)
    if flags & {Flag.MOBILIZE, Flag.FLEX_SETUP} and not phase.is_adjustments:
        return Phase(phase.year - 1, Season.WINTER, PhaseType.ADJUSTMENTS)
    return phase


def mobilizing(position: Position, flags: frozenset[Flag]) -> bool:
    """Whether `position` is the opening adjustment phase of a MOBILIZE game, in which each
    power builds one unit only."""
    return Flag.MOBILIZE in flags and position.phase == opening_phase(position.map, flags)


@dataclass(frozen=True, slots=True)
class Dislodged:
    """A unit dislodged in the movement phase, waiting for its retreat order."""

    unit: Unit
    attacker_from: str  # the province the dislodging attack came from
    retreats: tuple[Location, ...]

    def __str__(self) -> str:
        return f"{self.unit}"


_province_of: Final = attrgetter("province")


def _unit_key(unit: Unit) -> tuple[str, str]:
    return unit.location.province, unit.location.coast or ""


def _two_units(units: Mapping[PowerName, tuple[Unit, ...]]) -> str:
    """The error for two units in one province, naming the first two found when each
    power's units are taken in (province, coast) order."""
    seen: dict[str, Unit] = {}
    for us in units.values():
        for u in sorted(us, key=_unit_key):
            if u.province in seen:
                return f"two units in {u.province}: {seen[u.province]} and {u}"
            seen[u.province] = u
    raise AssertionError("no two units share a province")


_NO_DISLODGED: Final[Mapping[PowerName, tuple[Dislodged, ...]]] = MappingProxyType({})


@dataclass(frozen=True)
class Position:
    map: Map
    phase: Phase
    units: Mapping[PowerName, tuple[Unit, ...]]  # power -> its units on the board
    centers: Mapping[PowerName, frozenset[ProvinceName]]  # power -> the centres it owns
    dislodged: Mapping[PowerName, tuple[Dislodged, ...]] = field(default_factory=dict)
    _at: Mapping[str, tuple[PowerName, Unit]] = field(init=False, repr=False, compare=False)
    # given by `checked` alone, with the parts already in the form made below (and
    # forgotten once used): province -> (power, unit)
    _given_at: dict[str, tuple[PowerName, Unit]] | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.map.phase_lines:  # the board of this phase (terrain that changes: `IN` lines)
            object.__setattr__(self, "map", phase_map(self.map, self.phase))
        if self._given_at is not None:  # `checked`: the dicts are new and in normal form
            object.__setattr__(self, "units", MappingProxyType(self.units))
            object.__setattr__(self, "centers", MappingProxyType(self.centers))
            object.__setattr__(self, "dislodged", _NO_DISLODGED)
            object.__setattr__(self, "_at", MappingProxyType(self._given_at))
            object.__setattr__(self, "_given_at", None)
            return
        # the parts as given: any collections (a list of units, a set of centres), put in
        # normal form here (typed so, mypyc checks no more than that of what is given)
        given_units: Mapping[PowerName, Collection[Unit]] = self.units
        given_centers: Mapping[PowerName, Collection[ProvinceName]] = self.centers
        given_dislodged: Mapping[PowerName, Collection[Dislodged]] = self.dislodged
        # each power's units in (province, coast) order; sorting by province alone gives
        # that order, as a province holds one unit (two are an error, reported as such).
        # Most lists come in that order already (a phase's units stay sorted where they did
        # not move): a look along the list is cheaper than a sort.
        units: dict[PowerName, tuple[Unit, ...]] = {}
        at: dict[str, tuple[PowerName, Unit]] = {}
        count = 0
        for p, us in given_units.items():
            if not us:
                continue
            mine = tuple(us)
            last = ""
            for u in mine:
                if u.province < last:
                    mine = tuple(sorted(mine, key=_province_of))
                    break
                last = u.province
            units[p] = mine
            count += len(mine)
            for u in mine:
                at[u.province] = (p, u)
        if len(at) != count:
            raise ValueError(_two_units(units))
        centers = {p: frozenset(cs) for p, cs in given_centers.items() if cs}
        dislodged = {p: tuple(ds) for p, ds in given_dislodged.items() if ds}
        # the dicts above are new and never escape: read-only views need no copy
        object.__setattr__(self, "units", MappingProxyType(units))
        object.__setattr__(self, "centers", MappingProxyType(centers))
        object.__setattr__(self, "dislodged", MappingProxyType(dislodged))
        object.__setattr__(self, "_at", MappingProxyType(at))

    @classmethod
    def checked(
        cls,
        game_map: Map,
        phase: Phase,
        units: dict[PowerName, tuple[Unit, ...]],
        centers: dict[PowerName, frozenset[ProvinceName]],
        at: dict[str, tuple[PowerName, Unit]],
    ) -> Position:
        """A position without dislodged units from parts its reader has already checked and
        put in the form `__post_init__` gives them: each power's units sorted by province,
        no power without units or centres, `at` each unit's province -> (power, unit), no two
        units in a province. The dicts are taken, not copied: the caller keeps no reference.
        (The JSON reader: `__post_init__` would copy, sort and check it all again.)"""
        return cls(game_map, phase, units, centers, _NO_DISLODGED, at)

    @classmethod
    def initial(cls, game_map: Map, flags: frozenset[Flag] = frozenset()) -> Position:
        """The opening position. MOBILIZE: no unit on the board; FLEX_SETUP: none on the
        powers' own home centres (units elsewhere stay); both start with the adjustment
        phase before the map's first phase, so that the powers build."""
        units = {p: tuple(Unit(t, loc) for t, loc in us) for p, us in game_map.start_units.items()}
        if Flag.MOBILIZE in flags:
            units = {}
        elif Flag.FLEX_SETUP in flags:
            homes = {p.name: set(p.homes) for p in game_map.powers}
            units = {p: tuple(u for u in us if u.province not in homes.get(p, ())) for p, us in units.items()}
        phase = opening_phase(game_map, flags)
        units, _lost = adapt_units(phase_map(game_map, phase), units, flags)
        return cls(game_map, phase, units, dict(game_map.start_centers))

    # -- queries ---------------------------------------------------------------------
    def unit_at(self, province: str) -> Unit | None:
        hit = self._at.get(province)
        return hit[1] if hit else None

    def owner_at(self, province: str) -> PowerName | None:
        """The power whose unit stands in `province`."""
        hit = self._at.get(province)
        return hit[0] if hit else None

    def all_units(self) -> Iterator[tuple[PowerName, Unit]]:
        for power in sorted(self.units):
            for unit in self.units[power]:
                yield power, unit

    def center_owner(self, province: str) -> PowerName | None:
        for power, owned in self.centers.items():
            if province in owned:
                return power
        return None

    def dislodged_at(self, province: str) -> tuple[PowerName, Dislodged] | None:
        for power, ds in self.dislodged.items():
            for d in ds:
                if d.unit.province == province:
                    return power, d
        return None

    def adjustment(self, power: PowerName) -> int:
        """Builds (positive) or removals (negative) due to `power` in the winter."""
        return len(self.centers.get(power, ())) - len(self.units.get(power, ()))

    def buildable_homes(self, power: PowerName) -> tuple[ProvinceName, ...]:
        p = self.map.power(power)
        if p is None:
            return ()
        owned = self.centers.get(power, frozenset())
        return tuple(h for h in p.homes if h in owned and h not in self._at)

    def powers_alive(self) -> tuple[PowerName, ...]:
        """Powers with a unit or a centre (the others are eliminated)."""
        return tuple(p for p in self.map.power_names if self.units.get(p) or self.centers.get(p))

    def replace(self, **changes: Any) -> Position:
        fields: dict[str, Any] = {
            "map": self.map,
            "phase": self.phase,
            "units": self.units,
            "centers": self.centers,
            "dislodged": self.dislodged,
        }
        fields.update(changes)
        return Position(**fields)
