"""The state of the board at the start of a phase: units, dislodged units, centre ownership."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from operator import attrgetter
from types import MappingProxyType
from typing import Any, Final, cast

from .flags import Flag
from .geography import Location, Map
from .names import PowerName, ProvinceName
from .orders import Unit
from .phase import Phase, PhaseType, Season, game_start_phase
from .terrain import adapt_units, phase_map
from .values import Value


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


class Dislodged(Value):
    """A unit dislodged in the movement phase, waiting for its retreat order (a value:
    see values.py)."""

    __slots__ = ("attacker_from", "retreats", "unit")

    unit: Final[Unit]
    attacker_from: Final[str]  # the province the dislodging attack came from
    retreats: Final[tuple[Location, ...]]

    def __init__(self, unit: Unit, attacker_from: str, retreats: tuple[Location, ...]) -> None:
        self.unit = unit
        self.attacker_from = attacker_from
        self.retreats = retreats

    def _key(self) -> tuple[object, ...]:
        return (self.unit, self.attacker_from, self.retreats)

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


def _normal_units(
    units: Mapping[PowerName, Collection[Unit]],
) -> tuple[dict[PowerName, tuple[Unit, ...]], dict[str, tuple[PowerName, Unit]]]:
    """Each power's units in (province, coast) order, and province -> (power, unit).

    Sorting by province alone gives that order, as a province holds one unit (two are an
    error, reported as such). Most lists come in that order already (a phase's units stay
    sorted where they did not move): a look along the list is cheaper than a sort."""
    board: dict[PowerName, tuple[Unit, ...]] = {}
    at: dict[str, tuple[PowerName, Unit]] = {}
    count = 0
    for p, us in units.items():
        if not us:
            continue
        mine = tuple(us)
        last = ""
        for u in mine:
            if u.province < last:
                mine = tuple(sorted(mine, key=_province_of))
                break
            last = u.province
        board[p] = mine
        count += len(mine)
        for u in mine:
            at[u.province] = (p, u)
    if len(at) != count:
        raise ValueError(_two_units(board))
    return board, at


class Position:
    """The board at the start of a phase: a value, whose attributes never change.

    A plain class with `Final` attributes (mypy refuses any assignment after `__init__`,
    and the compiled class's attributes are read-only), made as a frozen dataclass would be
    but with each field set directly: a frozen dataclass sets each through
    `object.__setattr__`, and a position is made for every phase and every JSON case."""

    __slots__ = ("_at", "centers", "dislodged", "map", "phase", "units")

    map: Final[Map]
    phase: Final[Phase]
    units: Final[Mapping[PowerName, tuple[Unit, ...]]]  # power -> its units on the board
    centers: Final[Mapping[PowerName, frozenset[ProvinceName]]]  # power -> the centres it owns
    dislodged: Final[Mapping[PowerName, tuple[Dislodged, ...]]]
    # province -> (power, unit): private, read by the rules (a plain dict: compiled, a
    # dict's `get` is a C call, a read-only view's a method call)
    _at: Final[dict[str, tuple[PowerName, Unit]]]

    def __init__(
        self,
        map: Map,
        phase: Phase,
        units: Mapping[PowerName, Collection[Unit]],
        centers: Mapping[PowerName, Collection[ProvinceName]],
        dislodged: Mapping[PowerName, Collection[Dislodged]] | None = None,
        _given_at: dict[str, tuple[PowerName, Unit]] | None = None,
    ) -> None:
        """`units`, `centers` and `dislodged` may be any collections (a list of units, a set
        of centres): they are put in normal form here. `_given_at` is given by `checked`
        alone, with the parts already in that form."""
        # (each attribute is set once, at the end: mypy allows a Final attribute one assignment)
        board: dict[PowerName, tuple[Unit, ...]]
        owners: dict[PowerName, frozenset[ProvinceName]]
        at: dict[str, tuple[PowerName, Unit]]
        if _given_at is not None:  # `checked`: the dicts are new and in normal form
            board = cast("dict[PowerName, tuple[Unit, ...]]", units)
            owners = cast("dict[PowerName, frozenset[ProvinceName]]", centers)
            at = _given_at
        else:
            board, at = _normal_units(units)
            owners = {p: frozenset(cs) for p, cs in centers.items() if cs}
        # the board of this phase (terrain that changes: a map's `IN` lines)
        self.map = phase_map(map, phase) if map.phase_lines else map
        self.phase = phase
        # the dicts made here are new and never escape: read-only views need no copy
        self.units = MappingProxyType(board)
        self.centers = MappingProxyType(owners)
        self.dislodged = (
            MappingProxyType({p: tuple(ds) for p, ds in dislodged.items() if ds})
            if dislodged
            else _NO_DISLODGED
        )
        self._at = at

    def _fields(self) -> tuple[object, ...]:
        return (self.map, self.phase, self.units, self.centers, self.dislodged)

    def __eq__(self, other: object) -> bool:
        return type(other) is Position and self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # (equal positions: unhashable, as a dataclass of mappings)

    def __repr__(self) -> str:
        return (
            f"Position(map={self.map.name!r}, phase={self.phase}, units={dict(self.units)!r}, "
            f"centers={dict(self.centers)!r}, dislodged={dict(self.dislodged)!r})"
        )

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
        put in the form `__init__` gives them: each power's units sorted by province,
        no power without units or centres, `at` each unit's province -> (power, unit), no two
        units in a province. The dicts are taken, not copied: the caller keeps no reference.
        (The JSON reader: `__init__` would copy, sort and check it all again.)"""
        return cls(game_map, phase, units, centers, None, at)

    @classmethod
    def initial(cls, game_map: Map, flags: frozenset[Flag] = frozenset()) -> Position:
        """The opening position. MOBILIZE: no unit on the board and no centre owned (each
        power owns the one it builds on: `adjustments.build_claims`); FLEX_SETUP: no unit on
        the powers' own home centres (units elsewhere stay); both start with the adjustment
        phase before the map's first phase, so that the powers build."""
        units = {p: tuple(Unit(t, loc) for t, loc in us) for p, us in game_map.start_units.items()}
        centers = dict(game_map.start_centers)
        if Flag.MOBILIZE in flags:
            units, centers = {}, {}
        elif Flag.FLEX_SETUP in flags:
            homes = {p.name: set(p.homes) for p in game_map.powers}
            units = {p: tuple(u for u in us if u.province not in homes.get(p, ())) for p, us in units.items()}
        phase = opening_phase(game_map, flags)
        units, _lost = adapt_units(phase_map(game_map, phase), units, flags)
        return cls(game_map, phase, units, centers)

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
