"""Load maps written in DPjudge's `.map` syntax into a validated `Map`.

The lines are read into DPjudge's own tables (`payjudge.rules.mapread`), then checked and
turned into a `Map`, which reads every DPjudge map as DPjudge does: its powers, homes,
units and centres, every location with its coasts, army and fleet neighbours, victory,
first phase and FLOW, the lines that apply only in some phases (`IN`), dummies and leagues.
Errors name the file and line. docs/maps.md lists the few readings where payjudge resolves
what DPjudge only reported, or could not read.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from .geography import Location, Map, Power, Province, Terrain, UnitType, _freeze
from .mapnames import UNOWNED, normalize_name, province_of
from .mapread import Model, Reader, Where
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


class MapError(ValueError):
    """A map file that cannot be loaded; the message names the file and line."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("\n".join(problems))


_TERRAINS = {
    "LAND": Terrain.LAND,
    "COAST": Terrain.COAST,
    "PORT": Terrain.COAST,
    "WATER": Terrain.WATER,
    "SHUT": Terrain.SHUT,
}
# DPjudge's marks in a list of home or owned centres, which name no province: `&SC` (the
# power builds in any centre it owns), `SC!` and `SC?` (a build not yet placed)
ANYWHERE = "&SC"
_MARKS = frozenset({ANYWHERE, "SC!", "SC?"})
_STANDARD_FLOW = ("SPRING:MOVEMENT,RETREATS", "FALL:MOVEMENT,RETREATS", "WINTER:ADJUSTMENTS")
_PHASE_TYPES = {"M": "MOVEMENT", "R": "RETREATS", "A": "ADJUSTMENTS"}


def phase_abbreviation(phase: str) -> str:
    """DPjudge's short form of a phase: `SPRING 1901 MOVEMENT` -> `S1901M`,
    `B.C. 273 MOVEMENT` -> `B273M`."""
    season, year, kind = phase.split()
    return f"{season[0]}{year}{kind[0]}"


# -- reading ---------------------------------------------------------------------------------
def _finder(search: list[Path], paths: list[Path]) -> Callable[[str], tuple[str, str] | None]:
    def find(name: str) -> tuple[str, str] | None:
        for folder in search:
            candidate = folder / name
            if candidate.is_file():
                data = candidate.read_bytes()
                try:
                    text = data.decode("utf-8")
                except UnicodeDecodeError:  # DPjudge's maps are latin-1
                    text = data.decode("latin-1")
                paths.append(candidate)
                return candidate.name, text
        return None

    return find


def _read(path: Path, search: Sequence[Path | None]) -> tuple[Model, list[Path]]:
    model, paths = Model(), list[Path]()
    beside = [path.parent]
    if path.parent.name == "trials":  # DPjudge's trial maps use the maps beside them
        beside.append(path.parent.parent / "maps")
    reader = Reader(model, _finder([*beside, *(s for s in search if s is not None)], paths))
    if not path.is_file():
        raise MapError([f"map file not found: {path}"])
    reader.read_file(path.name)
    return model, paths


def map_sources(path: str | Path, search: list[Path] | None = None) -> list[Path]:
    """The files a map is made of: itself and every file it USEs, in reading order."""
    path = Path(path)
    return _read(path, [*(search or []), _variant_dir()])[1]


def load_map_file(path: str | Path, search: list[Path] | None = None) -> Map:
    """Load a `.map` file (the files it USEs are looked up beside it, then in `search`,
    then among the maps payjudge ships)."""
    path = Path(path)
    model, _ = _read(path, [*(search or []), _variant_dir()])
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

    def abuts(self, kind: str, origin: str, other: str) -> bool:
        """DPjudge's test of a move by an army (`A`) or fleet (`F`) from `origin` to
        `other`: the border must be listed at the origin; a lower-case entry is a border
        for armies only, a Title-case one for fleets only; a fleet needs a location written
        in upper case (a coast, not a province with coasts) that is not land."""
        m = self.m
        origin, other = origin.upper(), other.upper()
        if "/" in other and kind == "A":
            return False
        for entry, _ in m.abut_list(origin):
            up = entry.upper()
            if other in (up, province_of(up)):
                break
        else:
            return False
        kind_there = m.areatype(other)
        if kind_there == "SHUT":
            return False
        if kind == "F":
            return kind_there != "LAND" and entry[0] == up[0] and other in m.loc_type
        return kind_there != "WATER" and entry != entry.title()

    def fleet_can_stand(self, site: str) -> bool:
        kind = self.m.areatype(site)
        return kind in ("WATER", "COAST", "PORT") and site.lower() not in self.m.loc_abut

    def army_can_stand(self, site: str) -> bool:
        return "/" not in site and self.m.areatype(site) in ("LAND", "COAST", "PORT")

    def build(self) -> Map:
        m = self.m
        powers = m.powers()
        abbrevs = self.named_locations(powers)
        provinces, army, fleet = self.board(abbrevs)
        centers = self.centres(powers, provinces)
        units = self.units(powers)
        self.special_adjacency(centers, powers)
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
        return {p: frozenset(ProvinceName(h) for h in cs if h not in _MARKS) for p, cs in listed.items()}

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
        if self.army_can_stand(site) and self.abuts("A", site, province_of(entry)):
            army.setdefault(province_of(site), set()).add(province_of(entry))
        if site.isupper() and self.fleet_can_stand(site):
            for dest in dict.fromkeys((entry.upper(), province_of(entry))):
                if self.fleet_can_stand(dest) and self.abuts("F", site, dest):
                    fleet.setdefault(Location.parse(site), set()).add(Location.parse(dest))

    def check_one_way(self, site: str, entry: str, where: Where) -> None:
        """A border must be listed both ways (DPjudge's check), unless one side is SHUT."""
        if "SHUT" in (self.m.areatype(site), self.m.areatype(entry)):
            return
        if self.abuts("A", entry, site) or self.abuts("F", entry, site):
            return
        kind = (
            "for armies"
            if self.abuts("A", site, entry)
            else "for fleets"
            if self.abuts("F", site, entry)
            else "with no border"
        )
        self.error(where, f"one-way adjacency {kind}: {site.upper()} -> {entry.upper()}")

    def centres(self, powers: list[PowerName], provinces: dict[str, Province]) -> set[str]:
        """The supply centres: every home, neutral centre and owned centre on the map."""
        centers = self.home_centres(powers)
        self.owned_centres(powers, centers)
        self.check_sites()
        self.check_alternatives()
        return {c for c in centers if province_of(c) in provinces}

    def home_centres(self, powers: list[PowerName]) -> set[str]:
        m = self.m
        centers: set[str] = set()
        homes_of_powers = {h for p in powers for h in m.homes[p]}
        for power in [*powers, UNOWNED]:
            for home in m.homes.get(power, []):
                if home == "&SC" or (power == UNOWNED and home in homes_of_powers):
                    continue
                centers.add(home)
                if not m.areatype(home):
                    where = m.home_where.get((power, home))
                    self.error(where, f"bad home centre for {power}: {home}")
        return centers

    def owned_centres(self, powers: list[PowerName], centers: set[str]) -> None:
        """Adds the centres `OWNS` lines give, and checks no centre has two owners."""
        m = self.m
        owner: dict[str, str] = {}
        for power in powers:
            listed = m.centers[power] if power in m.owns else m.homes[power]
            for c in listed:
                if c in _MARKS:
                    continue
                if power in m.owns:
                    centers.add(c)
                    if not m.areatype(c):
                        self.error(m.center_where.get(c), f"bad initial owned centre for {power}: {c}")
                if c in owner and owner[c] != power:
                    self.error(m.center_where.get(c) or m.pow_where.get(power), f"centre owned twice: {c}")
                owner[c] = power

    def check_sites(self) -> None:
        m = self.m
        for table, kind in ((m.factory, "factory"), (m.partisan, "partisan site")):
            for power, sites in table.items():
                for site in sites:
                    if not m.areatype(site):
                        self.error(m.pow_where.get(power), f"bad {kind} for {power}: {site}")

    def check_alternatives(self) -> None:
        """An alternative home may be limited only by the power's other, plain homes."""
        m = self.m
        for power, alternatives in m.alternative.items():
            alts = [a[0] for a in alternatives]
            for alt, *limits in alternatives:
                for home in limits:
                    if home not in m.homes.get(power, []) or home in alts:
                        self.error(
                            m.pow_where.get(power),
                            f"alternative home {alt} of {power} is limited by {home}, "
                            "which is not one of its other homes",
                        )

    def units(self, powers: list[PowerName]) -> dict[PowerName, tuple[tuple[UnitType, Location], ...]]:
        out: dict[PowerName, tuple[tuple[UnitType, Location], ...]] = {}
        for power in powers:
            units = []
            for kind, site, where in self.m.units.get(power, []):
                ok = self.army_can_stand(site) if kind == "A" else self.fleet_can_stand(site)
                if not ok:
                    self.error(where, f"bad initial unit for {power}: {kind} {site}")
                    continue
                units.append((UnitType(kind), Location.parse(site)))
            out[power] = tuple(units)
        return out

    def special_adjacency(self, centers: set[str], powers: list[PowerName]) -> None:
        m = self.m
        initials = {m.initial.get(p, p[0]) for p in powers}
        for code, pairs in m.abut_rules.items():
            where = pairs[0][2]
            if code.endswith(")"):
                if code[:-1] not in centers:
                    self.error(where, f"adjacency restricted to the owner of {code[:-1]}, not a centre")
            elif code.endswith(":"):
                if code[0] not in initials:
                    self.error(where, f"adjacency restricted to power {code[0]}, not a power initial")
            elif code not in "~*":
                self.error(where, f"unknown special adjacency {code!r}")
        if "~" in m.abut_rules and "*" in m.abut_rules:
            self.error(m.abut_rules["~"][0][2], "special adjacencies ~ and * cannot be mixed")

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
            homes=tuple(ProvinceName(h) for h in m.homes[key] if h not in _MARKS),
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

    def check_initials(self, powers: tuple[Power, ...]) -> None:
        seen: dict[str, str] = {}
        for p in powers:
            if p.initial in ("M", "?"):  # the Master's initial, and DPjudge's wildcard
                self.error(self.m.pow_where.get(p.name), f"illegal initial {p.initial!r} for {p.name}")
            if p.initial in seen:
                self.error(
                    self.m.pow_where.get(p.name),
                    f"initial {p.initial} used by two powers ({seen[p.initial]}, {p.name})",
                )
            if p.initial:
                seen[p.initial] = p.name


def _build(name: str, model: Model) -> Map:
    source = model.copy()
    builder = _Builder(name, model)
    game_map = builder.build()
    builder.check_initials(game_map.powers)
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


# -- finding maps by name -------------------------------------------------------------------
@lru_cache(maxsize=1)
def _variant_dir() -> Path:
    # the installed package does not move while the process runs; asking importlib each
    # time was a tenth of a `payjudge adjudicate --jsonl` case
    return Path(str(resources.files("payjudge") / "variants"))


def shipped_dir() -> Path:
    """The folder of the maps payjudge ships."""
    return _variant_dir()


def _valid_name(name: str) -> bool:
    return bool(name) and all(c.isalnum() or c in "_-" for c in name) and name.isascii()


def find_map(name: str, maps_dir: Path | None = None) -> Path | None:
    """The file of an installed map (the maps directory first) or of one payjudge ships."""
    name = name.lower().removesuffix(".map")
    if not _valid_name(name):
        return None
    for folder in (maps_dir, _variant_dir()):
        if folder is not None and (folder / f"{name}.map").is_file():
            return folder / f"{name}.map"
    return None


def map_names(maps_dir: Path | None = None) -> list[str]:
    """Every map a game can be created on: installed ones and those payjudge ships."""
    names: set[str] = set()
    for folder in (maps_dir, _variant_dir()):
        if folder is not None and folder.is_dir():
            names.update(p.stem.lower() for p in folder.glob("*.map") if _valid_name(p.stem.lower()))
    return sorted(names)


def load_variant(name: str = "standard", maps_dir: Path | None = None) -> Map:
    """A map by name: installed in `maps_dir`, else shipped with payjudge (`standard`)."""
    path = find_map(name, Path(maps_dir) if maps_dir else None)
    if path is None:
        raise MapError([f"unknown variant: {name}"])
    return _load_cached(str(path), path.stat().st_mtime_ns, str(maps_dir or ""))


@lru_cache(maxsize=64)
def _load_cached(path: str, _mtime: int, maps_dir: str) -> Map:
    return load_map_file(path, [Path(maps_dir)] if maps_dir else None)
