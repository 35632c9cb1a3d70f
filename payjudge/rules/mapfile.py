"""Load maps written in DPjudge's `.map` syntax into a validated `Map`.

The lines are read into DPjudge's own tables (`payjudge.rules.mapread`), then checked and
turned into a `Map`, which reads every DPjudge map as DPjudge does: its powers, homes,
units and centres, every location with its coasts, army and fleet neighbours, victory,
first phase and FLOW, the lines that apply only in some phases (`IN`), dummies and leagues.
Errors name the file and line. docs/maps.md lists the few readings where payjudge resolves
what DPjudge only reported, or could not read.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from .geography import Location, Map, Power, Province, Terrain, _freeze
from .mapchecks import (
    abuts,
    army_can_stand,
    centres,
    check_initials,
    fleet_can_stand,
    special_adjacency,
    start_units,
)
from .mapmodel import Model, Where
from .mapnames import ANYWHERE, MARKS, normalize_name, province_of
from .mapread import Reader
from .mapsearch import MapError, find_map, map_names, map_sources, read_model, shipped_dir, variant_dir
from .names import PowerName, ProvinceName

__all__ = [
    "MapError",
    "find_map",
    "load_map_file",
    "load_variant",
    "map_names",
    "map_sources",
    "normalize_name",
    "phase_abbreviation",
    "shipped_dir",
]


_TERRAINS = {
    "LAND": Terrain.LAND,
    "COAST": Terrain.COAST,
    "PORT": Terrain.COAST,
    "WATER": Terrain.WATER,
    "SHUT": Terrain.SHUT,
}
_STANDARD_FLOW = ("SPRING:MOVEMENT,RETREATS", "FALL:MOVEMENT,RETREATS", "WINTER:ADJUSTMENTS")
_PHASE_TYPES = {"M": "MOVEMENT", "R": "RETREATS", "A": "ADJUSTMENTS"}


def phase_abbreviation(phase: str) -> str:
    """DPjudge's short form of a phase: `SPRING 1901 MOVEMENT` -> `S1901M`,
    `B.C. 273 MOVEMENT` -> `B273M`."""
    season, year, kind = phase.split()
    return f"{season[0]}{year}{kind[0]}"


def load_map_file(path: str | Path, search: list[Path] | None = None) -> Map:
    """Load a `.map` file (the files it USEs are looked up beside it, then in `search`,
    then among the maps payjudge ships)."""
    path = Path(path)
    model, _ = read_model(path, [*(search or []), variant_dir()])
    return _build(path.stem, model)


# -- checking and building -------------------------------------------------------------------
class _Builder:
    def __init__(self, name: str, model: Model):
        self.name = name
        self.m = model
        self.errors = list(model.errors)
        self.notes = list(model.notes)

    def error(self, where: Where | None, message: str) -> None:
        self.errors.append(f"{where}: {message}" if where else f"{self.name}: {message}")

    def build(self) -> Map:
        m = self.m
        powers = m.powers()
        abbrevs = self.named_locations(powers)
        provinces, army, fleet = self.board(abbrevs)
        centers = centres(self, powers, provinces)
        units = start_units(self, powers)
        special_adjacency(self, centers, powers)
        flow, first = self.phases()
        if self.errors:
            raise MapError(self.errors)

        provinces = {
            name: Province(p.name, p.full_name, p.terrain, p.coasts, name in centers)
            for name, p in provinces.items()
        }
        victory = m.victory[0] if m.victory else [len(centers) // 2 + 1]
        return Map(
            name=self.name,
            provinces=_freeze(provinces),
            powers=tuple(self.power(p) for p in powers),
            victory=victory[0],
            victory_steps=tuple(victory),
            start_phase=phase_abbreviation(first),
            first_phase=first,
            flow=flow,
            start_units=_freeze(units),
            start_centers=_freeze(self.owned(powers)),
            army_adjacency=_freeze({k: frozenset(v) for k, v in army.items()}),
            fleet_adjacency=_freeze({k: frozenset(v) for k, v in fleet.items()}),
            aliases=_freeze(self.aliases(provinces)),
            rules=tuple(m.rules),
            directives=_freeze({k: tuple(v) for k, v in m.directives.items()}),
            home_years=tuple(m.home_years),
            special_adjacency=tuple(
                sorted({(code, a, b) for code, pairs in m.abut_rules.items() for a, b, _ in pairs})
            ),
            phase_lines=tuple((when, tuple(text for text, _ in lines)) for when, lines in m.dynamic.items()),
            **self.power_tables(powers),
            notes=tuple(self.notes),
            files=tuple(m.files),
        )

    def named_locations(self, powers: list[PowerName]) -> dict[str, Where]:
        """The abbreviations the name lines gave, each checked to be on the map."""
        if len(powers) < 2:
            self.error(None, "the map must define at least two powers")
        abbrevs = dict(self.m.loc_name.values())
        for abbrev, where in abbrevs.items():
            if abbrev not in powers and not self.m.areatype(abbrev):
                self.error(where, f"named location not on the map: {abbrev}")
        return abbrevs

    def owned(self, powers: list[PowerName]) -> dict[PowerName, frozenset[ProvinceName]]:
        """The centres each power owns at the start: its `OWNS`/`CENTERS`, else its homes."""
        m = self.m
        listed = {p: m.centers[p] if p in m.owns else m.homes[p] for p in powers}
        return {p: frozenset(ProvinceName(h) for h in cs if h not in MARKS) for p, cs in listed.items()}

    def power_tables(self, powers: list[PowerName]) -> dict[str, Any]:
        """The map's tables about powers (dummies, controls, leagues, reserves, militia),
        for the powers still on the map."""
        m = self.m
        return {
            "dummies": tuple(PowerName(d) for d in m.dummies if d in powers),
            "controls": _freeze(
                {PowerName(k): tuple(map(PowerName, v)) for k, v in m.controls.items() if k in powers}
            ),
            "leagues": _freeze({PowerName(k): tuple(v) for k, v in m.leagues.items() if k in powers}),
            "reserves": _freeze({p: m.reserves.count(p) for p in powers if p in m.reserves}),
            "militia": _freeze({p: m.militia.count(p) for p in powers if p in m.militia}),
        }

    def board(
        self, abbrevs: dict[str, Where]
    ) -> tuple[dict[str, Province], dict[str, set[str]], dict[Location, set[Location]]]:
        """The provinces, and the borders for armies and for fleets."""
        provinces = self.provinces(abbrevs)
        army: dict[str, set[str]] = {}
        fleet: dict[Location, set[Location]] = {}
        for site, entries in self.m.loc_abut.items():
            seen: set[str] = set()
            for entry, where in entries:
                if entry.upper() in seen:
                    self.notes.append(f"{where}: {site.upper()} borders {entry.upper()} twice")
                seen.add(entry.upper())
                if self.m.areatype(entry) is None:
                    self.error(where, f"unknown location {entry.upper()}")
                    continue
                self.border(site, entry, army, fleet)
                self.check_one_way(site, entry, where)
        return provinces, army, fleet

    def provinces(self, abbrevs: dict[str, Where]) -> dict[str, Province]:
        m = self.m
        by_province: dict[str, list[str]] = {}
        for site in m.loc_where:
            by_province.setdefault(province_of(site), []).append(site)
        provinces: dict[str, Province] = {}
        full_names = {a: m.display.get(n, n) for n, (a, _) in m.loc_name.items()}
        for name, sites in by_province.items():
            province = self.province(name, sites, abbrevs, full_names)
            if province is not None:
                provinces[name] = province
        return provinces

    def province(
        self, name: str, sites: list[str], abbrevs: dict[str, Where], full_names: dict[str, str]
    ) -> Province | None:
        """A province from its sites as written (its coasts and itself); None if it has
        coasts and no entry of its own."""
        m = self.m
        bare = [s for s in sites if "/" not in s]
        coasts = sorted(s.upper().partition("/")[2] for s in sites if "/" in s)
        if not bare:
            self.error(m.loc_where[sites[0]], f"{sites[0]} has coasts but no entry for {name} itself")
            return None
        where = m.loc_where[bare[0]]
        terrain = _TERRAINS[m.loc_type[bare[0]]]
        if coasts and terrain is not Terrain.COAST:
            self.error(where, f"{name} has coasts but is not COAST")
        if coasts and bare[0].isupper() and terrain.fleet_can_enter:
            self.error(where, f"{name} has coasts, so fleets stand on them: write it as {bare[0].lower()}")
        if (
            not coasts
            and bare[0].lower() == bare[0]
            and bare[0] in m.loc_abut
            and terrain.fleet_can_enter
            and not bare[0].isdigit()
        ):
            self.notes.append(f"{where}: {bare[0]} is written in lower case: no fleet may stand there")
        for site in sites:
            if site.upper() not in abbrevs and site in m.loc_abut:
                self.error(m.loc_where[site], f"location has no full name: {site.upper()}")
        return Province(ProvinceName(name), full_names.get(name, name), terrain, tuple(coasts))

    def border(
        self, site: str, entry: str, army: dict[str, set[str]], fleet: dict[Location, set[Location]]
    ) -> None:
        """The moves the ABUTS entry `entry` of `site` gives an army and a fleet there."""
        if army_can_stand(self.m, site) and abuts(self.m, "A", site, province_of(entry)):
            army.setdefault(province_of(site), set()).add(province_of(entry))
        if site.isupper() and fleet_can_stand(self.m, site):
            for dest in dict.fromkeys((entry.upper(), province_of(entry))):
                if fleet_can_stand(self.m, dest) and abuts(self.m, "F", site, dest):
                    fleet.setdefault(Location.parse(site), set()).add(Location.parse(dest))

    def check_one_way(self, site: str, entry: str, where: Where) -> None:
        """A border must be listed both ways (DPjudge's check), unless one side is SHUT."""
        if "SHUT" in (self.m.areatype(site), self.m.areatype(entry)):
            return
        if abuts(self.m, "A", entry, site) or abuts(self.m, "F", entry, site):
            return
        kind = (
            "for armies"
            if abuts(self.m, "A", site, entry)
            else "for fleets"
            if abuts(self.m, "F", site, entry)
            else "with no border"
        )
        self.error(where, f"one-way adjacency {kind}: {site.upper()} -> {entry.upper()}")

    def phases(self) -> tuple[tuple[str, ...], str]:
        """The FLOW of the year, checked as DPjudge checks it, and the first phase."""
        m = self.m
        flow = tuple(item for item, _ in m.flow) or _STANDARD_FLOW
        where = dict(m.flow)
        kinds = dict(_PHASE_TYPES)
        seen: set[tuple[str, str]] = set()  # (season, phase type)
        sign = 0
        for item in flow:
            at = where.get(item)
            season, colon, phases = item.partition(":")
            if not colon:
                if item != "NEWYEAR":
                    self.error(at, f"FLOW {item} needs a colon")
                continue
            if ":" in phases:
                self.error(at, f"more than one colon in FLOW {item}")
            elif season == "NEWYEAR":
                sign = self.flow_newyear(item, phases, at, sign)
            elif season == "IFYEARDIV":
                self.flow_ifyeardiv(item, phases, at)
            else:
                self.flow_season(season, phases, at, kinds, seen)
        first = m.begin[0] if m.begin else "SPRING 1901 MOVEMENT"
        self.check_begin(first, seen)
        return flow, first

    def flow_newyear(self, item: str, phases: str, at: Where | None, sign: int) -> int:
        """`NEWYEAR:N`: N years on (or back); every NEWYEAR goes the same way. The sign
        of the years so far is returned."""
        try:
            years = int(phases)
            if years == 0 or (sign and (years > 0) != (sign > 0)):
                raise ValueError
            return 1 if years > 0 else -1
        except ValueError:
            self.error(at, f"FLOW {item}: NEWYEAR takes one number of years, not 0, all of one sign")
            return sign

    def flow_ifyeardiv(self, item: str, phases: str, at: Where | None) -> None:
        div, _, mod = phases.partition("=")
        if not div.isdigit() or int(div) <= 0 or (mod and not (mod.isdigit() and int(mod) < int(div))):
            self.error(at, f"FLOW {item}: IFYEARDIV takes a divisor, or divisor=remainder")

    def flow_season(
        self, season: str, phases: str, at: Where | None, kinds: dict[str, str], seen: set[tuple[str, str]]
    ) -> None:
        """`SEASON:PHASE,PHASE`: each phase type once a season, and one spelling of each."""
        for phase in phases.split(","):
            if not phase or kinds.get(phase[0], phase) != phase:
                self.error(at, f"bad phase type in FLOW: {phase}")
                continue
            if (season, phase) in seen:
                self.error(at, f"phase twice in FLOW: {season} {phase}")
            seen.add((season, phase))
            kinds[phase[0]] = phase

    def check_begin(self, first: str, seen: set[tuple[str, str]]) -> None:
        """The BEGIN phase must be a phase of the FLOW."""
        at = self.m.begin[1] if self.m.begin else None
        words = first.split()
        if len(words) != 3 or not words[1].lstrip("-").isdigit():
            self.error(at, f"bad BEGIN phase: {first}")
        elif (words[0], words[2]) not in seen:
            self.error(at, f"BEGIN phase {first} is not in the map's FLOW")

    def power(self, key: PowerName) -> Power:
        m = self.m
        initial = m.initial.get(key, key[0])
        if initial == "_":
            initial = ""
        return Power(
            name=key,
            adjective=m.own_word.get(key, key).replace("+", " "),
            initial=initial,
            homes=tuple(ProvinceName(h) for h in m.homes[key] if h not in MARKS),
            written=" ".join(m.pow_name.get(key, key).replace("+", " ").split()),
            hidden_homes=tuple(m.hidden.get(key, ())),
            alternative_homes=tuple((a[0], tuple(a[1:])) for a in m.alternative.get(key, ())),
            partisan_sites=tuple(m.partisan.get(key, ())),
            factory_sites=tuple(m.factory.get(key, ())),
            builds_anywhere=ANYWHERE in m.homes[key],
        )

    def aliases(self, provinces: dict[str, Province]) -> dict[str, Location]:
        m = self.m
        locations = {Location.parse(s) for s in m.loc_where}
        aliases: dict[str, Location] = {}
        for key, (abbrev, _where) in m.written.items():
            loc = Location.parse(abbrev)
            if loc in locations or (loc.coast is None and loc.province in provinces):
                aliases[key] = loc
        for loc in sorted(locations, key=str):
            aliases.setdefault(str(loc), loc)
            if loc.coast is None and loc.province in provinces:
                aliases.setdefault(normalize_name(provinces[loc.province].full_name), loc)
        return aliases


def _build(name: str, model: Model) -> Map:
    source = model.copy()
    builder = _Builder(name, model)
    game_map = builder.build()
    check_initials(builder, game_map.powers)
    if builder.errors:
        raise MapError(builder.errors)
    if game_map.phase_lines:
        object.__setattr__(game_map, "_in_phase", _phase_maps(name, source, game_map))
    return game_map


def _phase_maps(name: str, source: Model, plain: Map) -> Callable[[str], Map]:
    cache: dict[str, Map] = {}

    def in_phase(phase: str) -> Map:
        words = phase.upper().split()
        long = " ".join(words)
        short = phase_abbreviation(long) if len(words) == 3 else long
        lines = [
            (when, entries)
            for when, entries in source.dynamic.items()
            if (when.isupper() and (long.startswith(when) or short.startswith(when)))
            or (when.islower() and when.upper() in (long, short))
        ]
        key = "|".join(when for when, _ in lines)
        if not lines:
            return plain
        if key not in cache:
            model = source.copy()
            reader = Reader(model, lambda _name: None)
            for _when, entries in lines:
                reader.read_lines(list(entries))
            changed = _Builder(name, model).build()
            object.__setattr__(changed, "_in_phase", in_phase)
            cache[key] = changed
        return cache[key]

    return in_phase


def load_variant(name: str = "standard", maps_dir: Path | None = None) -> Map:
    """A map by name: installed in `maps_dir`, else shipped with payjudge (`standard`)."""
    path = find_map(name, Path(maps_dir) if maps_dir else None)
    if path is None:
        raise MapError([f"unknown variant: {name}"])
    return _load_cached(str(path), path.stat().st_mtime_ns, str(maps_dir or ""))


@lru_cache(maxsize=64)
def _load_cached(path: str, _mtime: int, maps_dir: str) -> Map:
    return load_map_file(path, [Path(maps_dir)] if maps_dir else None)
