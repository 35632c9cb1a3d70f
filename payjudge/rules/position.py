"""The state of the board at the start of a phase: units, dislodged units, centre ownership."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Iterator, Mapping

from .geography import Location, Map
from .orders import Unit
from .phase import Phase, game_start_phase


@dataclass(frozen=True, slots=True)
class Dislodged:
    """A unit dislodged in the movement phase, waiting for its retreat order."""

    unit: Unit
    attacker_from: str          # the province the dislodging attack came from
    retreats: tuple[Location, ...]

    def __str__(self) -> str:
        return f"{self.unit}"


def _unit_key(unit: Unit) -> tuple[str, str]:
    return unit.location.province, unit.location.coast or ""


def _proxy(d: Mapping) -> Mapping:
    return MappingProxyType(dict(d))


@dataclass(frozen=True)
class Position:
    map: Map
    phase: Phase
    units: Mapping[str, tuple[Unit, ...]]              # power -> its units on the board
    centers: Mapping[str, frozenset[str]]              # power -> the centres it owns
    dislodged: Mapping[str, tuple[Dislodged, ...]] = field(default_factory=dict)
    _at: Mapping[str, tuple[str, Unit]] = field(default=None, repr=False, compare=False)  # type: ignore[assignment]
    _owner: Mapping[str, str] = field(default=None, repr=False, compare=False)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        units = {p: tuple(sorted(us, key=_unit_key)) for p, us in self.units.items() if us}
        centers = {p: frozenset(cs) for p, cs in self.centers.items() if cs}
        dislodged = {p: tuple(ds) for p, ds in self.dislodged.items() if ds}
        at: dict[str, tuple[str, Unit]] = {}
        for power, us in units.items():
            for u in us:
                if u.province in at:
                    raise ValueError(f"two units in {u.province}: {at[u.province][1]} and {u}")
                at[u.province] = (power, u)
        owner = {c: p for p, cs in centers.items() for c in cs}
        object.__setattr__(self, "units", _proxy(units))
        object.__setattr__(self, "centers", _proxy(centers))
        object.__setattr__(self, "dislodged", _proxy(dislodged))
        object.__setattr__(self, "_at", _proxy(at))
        object.__setattr__(self, "_owner", _proxy(owner))

    @classmethod
    def initial(cls, game_map: Map) -> Position:
        units = {p: tuple(Unit(t, l) for t, l in us) for p, us in game_map.start_units.items()}
        phase = game_start_phase(game_map.start_phase, game_map.first_phase, game_map.flow)
        return cls(game_map, phase, units, dict(game_map.start_centers))

    # -- queries ---------------------------------------------------------------------
    def unit_at(self, province: str) -> Unit | None:
        hit = self._at.get(province)
        return hit[1] if hit else None

    def owner_at(self, province: str) -> str | None:
        """The power whose unit stands in `province`."""
        hit = self._at.get(province)
        return hit[0] if hit else None

    def all_units(self) -> Iterator[tuple[str, Unit]]:
        for power in sorted(self.units):
            for unit in self.units[power]:
                yield power, unit

    def center_owner(self, province: str) -> str | None:
        return self._owner.get(province)

    def dislodged_at(self, province: str) -> tuple[str, Dislodged] | None:
        for power, ds in self.dislodged.items():
            for d in ds:
                if d.unit.province == province:
                    return power, d
        return None

    def adjustment(self, power: str) -> int:
        """Builds (positive) or removals (negative) due to `power` in the winter."""
        return len(self.centers.get(power, ())) - len(self.units.get(power, ()))

    def buildable_homes(self, power: str) -> tuple[str, ...]:
        p = self.map.power(power)
        if p is None:
            return ()
        owned = self.centers.get(power, frozenset())
        return tuple(h for h in p.homes if h in owned and h not in self._at)

    def powers_alive(self) -> tuple[str, ...]:
        """Powers with a unit or a centre (the others are eliminated)."""
        return tuple(p for p in self.map.power_names if self.units.get(p) or self.centers.get(p))

    def replace(self, **changes) -> Position:
        fields = {"map": self.map, "phase": self.phase, "units": self.units,
                  "centers": self.centers, "dislodged": self.dislodged}
        fields.update(changes)
        return Position(**fields)
