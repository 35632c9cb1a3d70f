"""Load maps written in DPjudge's `.map` syntax into a validated `Map`.

The loader understands the part of the syntax that describes a board: names and aliases,
terrain and adjacencies (with coasts, and lower-case entries for land-only borders),
powers with adjective, initial and home centres, neutral centres, starting units and
ownership, `VICTORY`, `BEGIN`, `RULE` and `USE` of other files. Directives that change
the rules of play (dynamic maps, special adjacency restrictions, factories, …) are
refused with an error that names the file and line, rather than silently misread.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

from .geography import Location, Map, Power, Province, Terrain, UnitType, _freeze
from .phase import Phase


class MapError(ValueError):
    """A map file that cannot be loaded; the message names the file and line."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("\n".join(problems))


_TERRAINS = {"LAND": Terrain.LAND, "COAST": Terrain.COAST, "WATER": Terrain.WATER,
             "SHUT": Terrain.SHUT, "PORT": Terrain.COAST}
_IGNORED = {"FLAG", "FLAGS", "NOTIFY", "TEXTONLY", "ROTATE"}
_UNSUPPORTED = {"AMEND", "DROP", "IN", "FROM", "TEAM", "TEAMS", "CONTROL", "LEAGUE",
                "RESERVES", "MILITIA", "NEWHOMES", "UNPLAYED", "DUMMY", "DUMMIES",
                "DIRECTIVE", "DIRECTIVES"}
_STANDARD_FLOW = {"SPRING:MOVEMENT,RETREATS", "FALL:MOVEMENT,RETREATS", "WINTER:ADJUSTMENTS"}
_LOC = re.compile(r"^[A-Za-z0-9]{1,8}(/[A-Za-z]{2})?$")


def normalize_name(text: str) -> str:
    """The key under which a name or alias is looked up: upper case, `+` and runs of
    blanks as one space, dots dropped, `X(NC)` as `X/NC`."""
    text = text.replace("+", " ").replace(".", " ").upper()
    text = re.sub(r"\s*\(\s*([A-Z]{2})\s*\)\s*$", r"/\1", text)
    return " ".join(text.split())


@dataclass
class _Where:
    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass
class _Raw:
    """Everything read from the files, before validation."""

    names: dict[str, tuple[str, _Where]] = field(default_factory=dict)  # abbrev -> full name
    aliases: dict[str, tuple[str, _Where]] = field(default_factory=dict)  # normalized -> abbrev
    terrain: dict[str, tuple[Terrain, list[tuple[str, _Where]], _Where]] = field(default_factory=dict)
    powers: dict[str, dict] = field(default_factory=dict)
    neutral: list[tuple[str, _Where]] = field(default_factory=list)
    victory: int | None = None
    begin: tuple[str, _Where] | None = None
    rules: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)


class _Reader:
    def __init__(self, search: list[Path]):
        self.search = search
        self.raw = _Raw()
        self.errors: list[str] = []

    def error(self, where: _Where, message: str) -> None:
        self.errors.append(f"{where}: {message}")

    def find(self, name: str) -> Path | None:
        for folder in self.search:
            candidate = folder / name
            if candidate.is_file():
                return candidate
        return None

    def read_file(self, path: Path) -> None:
        self.raw.files.append(path.name)
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            text = path.read_text(encoding="latin-1")
        power: str | None = None
        for number, line in enumerate(text.splitlines(), 1):
            where = _Where(path.name, number)
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            power = self.read_line(line.split("#", 1)[0], words, where, power)

    def read_line(self, line: str, words: list[str], where: _Where, power: str | None) -> str | None:
        key = words[0].upper()
        raw = self.raw
        if key in ("USE", "USES", "MAP"):
            for name in words[1:]:
                if "." not in name:
                    name += ".map"
                if name in raw.files:
                    self.error(where, f"file used twice: {name}")
                    continue
                found = self.find(name)
                if found is None:
                    self.error(where, f"map file not found: {name}")
                else:
                    self.read_file(found)
            return power
        if key == "VICTORY":
            try:
                raw.victory = int(words[1])
            except (IndexError, ValueError):
                self.error(where, "VICTORY needs a number of centres")
            return power
        if key == "BEGIN":
            raw.begin = (" ".join(words[1:]), where)
            return power
        if key in ("RULE", "RULES"):
            raw.rules.extend(w.upper() for w in words[1:])
            return power
        if key == "FLOW":
            if set(w.upper() for w in words[1:]) - _STANDARD_FLOW:
                self.error(where, "only the standard FLOW of phases is supported")
            return power
        if key in _IGNORED:
            return power
        if key in _UNSUPPORTED:
            self.error(where, f"the {key} directive is not supported by payjudge")
            return power
        if "=" in line:
            self.read_name(line, where)
            return power
        if key in _TERRAINS and len(words) > 1:
            self.read_terrain(key, words, where)
            return power
        if key in ("OWNS", "CENTERS") and power is not None:
            entry = raw.powers[power]
            entry["owns"] = (entry["owns"] or []) + [(w.upper(), where) for w in words[1:]]
            return power
        if key in ("HOME", "HOMES", "INHABITS") and power is not None:
            raw.powers[power]["homes"] = [(w.upper(), where) for w in words[1:]]
            return power
        if key == "UNITS" and power is not None:
            raw.powers[power]["units"] = []
            return power
        if key in ("A", "F") and len(words) == 2:
            if power is None:
                self.error(where, f"unit before any power: {line.strip()}")
            else:
                raw.powers[power]["units"].append((UnitType(key), words[1].upper(), where))
            return power
        if key in ("UNOWNED", "NEUTRAL", "CENTERS"):
            raw.neutral.extend((w.upper(), where) for w in words[1:])
            return None
        return self.read_power(words, where)

    def read_name(self, line: str, where: _Where) -> None:
        left, _, right = line.partition("=")
        if "->" in left:
            self.error(where, "renaming locations is not supported by payjudge")
            return
        words = right.split()
        if not left.strip() or not words:
            self.error(where, f"bad name line: {line.strip()}")
            return
        abbrev = normalize_name(words[0])
        if not _LOC.match(abbrev):
            self.error(where, f"invalid location abbreviation: {words[0]}")
            return
        if abbrev in self.raw.names:
            self.error(where, f"location named twice: {abbrev}")
        self.raw.names[abbrev] = (" ".join(left.split()), where)
        for alias in [left, *words]:
            if alias.endswith("?"):  # DPjudge's "unclear" aliases: too ambiguous to guess
                continue
            norm = normalize_name(alias)
            old = self.raw.aliases.get(norm)
            if old is not None and old[0] != abbrev:
                self.error(where, f"alias {alias!r} already names {old[0]} ({old[1]})")
                continue
            self.raw.aliases[norm] = (abbrev, where)

    def read_terrain(self, key: str, words: list[str], where: _Where) -> None:
        place = words[1]
        if not _LOC.match(place):
            self.error(where, f"invalid location: {place}")
            return
        if len(words) > 2 and words[2].upper() not in ("ABUTS", "ABUT"):
            self.error(where, f'expected "ABUTS" after {place}')
            return
        entries = []
        for entry in words[3:]:
            if not _LOC.match(entry):
                self.error(where, f"special adjacency {entry!r} is not supported by payjudge")
                continue
            entries.append((entry, where))
        up = place.upper()
        if up in self.raw.terrain:
            self.error(where, f"terrain given twice for {up} (first at {self.raw.terrain[up][2]})")
        self.raw.terrain[up] = (_TERRAINS[key], entries, where)

    def read_power(self, words: list[str], where: _Where) -> str | None:
        name = words[0].upper()
        if not re.match(r"^[A-Z][A-Z0-9_]*$", name):
            self.error(where, f"not understood: {' '.join(words)}")
            return None
        rest = words[1:]
        entry = self.raw.powers.get(name)
        if entry is None:
            entry = {"adjective": name, "initial": name[0], "homes": None, "owns": None,
                     "units": [], "where": where}
            self.raw.powers[name] = entry
        if rest and rest[0].startswith("("):
            token = rest.pop(0).strip("()")
            adjective, _, initial = token.partition(":")
            entry["adjective"] = (adjective or name).upper()
            if initial:
                entry["initial"] = initial[0].upper()
        if rest:
            homes = []
            for home in rest:
                if home[0] in "-*+~@" or "(" in home:
                    self.error(where, f"home centre marker {home!r} is not supported by payjudge")
                    continue
                homes.append((home.upper(), where))
            entry["homes"] = homes
        elif entry["homes"] is None and len(words) > 1:
            entry["homes"] = []
        return name


def _build(name: str, reader: _Reader) -> Map:
    raw, error = reader.raw, reader.error
    locations: dict[Location, tuple[Terrain, list[tuple[str, _Where]], _Where]] = {}
    for text, (terrain, entries, where) in raw.terrain.items():
        locations[Location.parse(text)] = (terrain, entries, where)

    coasts: dict[str, list[str]] = {}
    for loc in locations:
        if loc.coast:
            coasts.setdefault(loc.province, []).append(loc.coast)

    centers: set[str] = set()
    for entry in raw.powers.values():
        centers.update(h for h, _ in entry["homes"] or [])
        centers.update(h for h, _ in entry["owns"] or [])
    centers.update(c for c, _ in raw.neutral)

    provinces: dict[str, Province] = {}
    for loc, (terrain, _entries, where) in locations.items():
        if loc.coast:
            if loc.bare not in locations:
                error(where, f"{loc} has coasts but no entry for {loc.province} itself")
            continue
        full = raw.names.get(loc.province)
        if full is None:
            error(where, f"location has no full name: {loc.province}")
            full = (loc.province, where)
        if coasts.get(loc.province) and terrain is not Terrain.COAST:
            error(where, f"{loc.province} has coasts but is not COAST")
        provinces[loc.province] = Province(loc.province, full[0], terrain,
                                           tuple(sorted(coasts.get(loc.province, []))),
                                           loc.province in centers)
    for abbrev, (_full, where) in raw.names.items():
        if Location.parse(abbrev).bare.province not in provinces and abbrev not in raw.powers:
            error(where, f"named location not on the map: {abbrev}")

    def known(text: str, where: _Where) -> Location | None:
        loc = Location.parse(text)
        if loc not in locations:
            error(where, f"unknown location {text}")
            return None
        return loc

    army: dict[str, set[str]] = {}
    fleet: dict[Location, set[Location]] = {}
    for loc, (terrain, entries, _where) in locations.items():
        prov = provinces.get(loc.province)
        if prov is None:
            continue
        for text, where in entries:
            other = known(text, where)
            if other is None:
                continue
            other_terrain = provinces[other.province].terrain if other.province in provinces else None
            if other_terrain is None:
                continue
            if loc.coast is None and prov.terrain.army_can_enter and other_terrain.army_can_enter:
                army.setdefault(loc.province, set()).add(other.province)
            fleet_here = prov.terrain.fleet_can_enter and (loc.coast is not None or not prov.coasts)
            other_prov = provinces[other.province]
            fleet_there = other_terrain.fleet_can_enter and (other.coast is not None or not other_prov.coasts)
            if fleet_here and fleet_there and not text.islower():
                fleet.setdefault(loc, set()).add(other)

    for a, ns in army.items():
        for b in ns:
            if a not in army.get(b, ()):
                error(locations[Location(a)][2], f"one-way adjacency for armies: {a} -> {b}")
    for a, ns in fleet.items():
        for b in ns:
            if a not in fleet.get(b, ()):
                error(locations[a][2], f"one-way adjacency for fleets: {a} -> {b}")

    powers: list[Power] = []
    start_units: dict[str, tuple] = {}
    start_centers: dict[str, frozenset[str]] = {}
    owner_of: dict[str, str] = {}
    occupied: dict[str, str] = {}
    dummy_map = Map(name, _freeze(provinces), (), 0, "S1901M", _freeze({}), _freeze({}),
                    _freeze({k: frozenset(v) for k, v in army.items()}),
                    _freeze({k: frozenset(v) for k, v in fleet.items()}), _freeze({}))
    for pname, entry in raw.powers.items():
        homes = []
        for home, where in entry["homes"] or []:
            if home not in provinces:
                error(where, f"bad home centre for {pname}: {home}")
            else:
                homes.append(home)
        if entry["initial"] in "M?" or not entry["initial"].isalnum():
            error(entry["where"], f"illegal initial {entry['initial']!r} for {pname}")
        powers.append(Power(pname, entry["adjective"], entry["initial"], tuple(homes)))
        owned = [h for h, _ in entry["owns"]] if entry["owns"] is not None else homes
        for center in owned:
            if center in owner_of and owner_of[center] != pname:
                error(entry["where"], f"centre owned twice: {center}")
            owner_of[center] = pname
        start_centers[pname] = frozenset(c for c in owned if c in provinces)
        units = []
        for utype, text, where in entry["units"]:
            loc = Location.parse(text)
            if not dummy_map.can_occupy(utype, loc):
                error(where, f"bad initial unit for {pname}: {utype.value} {text}")
                continue
            if loc.province in occupied:
                error(where, f"two units in {loc.province}")
            occupied[loc.province] = pname
            units.append((utype, loc))
        start_units[pname] = tuple(units)
    initials = [p.initial for p in powers]
    for p in powers:
        if initials.count(p.initial) > 1:
            error(raw.powers[p.name]["where"], f"initial {p.initial} used by two powers")
    if len(powers) < 2:
        reader.errors.append(f"{name}: the map must define at least two powers")

    start_phase = "S1901M"
    if raw.begin is not None:
        try:
            start_phase = str(Phase.parse(raw.begin[0]))
        except ValueError:
            error(raw.begin[1], f"bad BEGIN phase: {raw.begin[0]}")

    aliases: dict[str, Location] = {}
    for norm, (abbrev, _where) in raw.aliases.items():
        loc = Location.parse(abbrev)
        if loc in locations or (loc.coast is None and loc.province in provinces):
            aliases[norm] = loc
    for loc in locations:
        aliases.setdefault(str(loc), loc)
        aliases.setdefault(provinces[loc.province].full_name.upper() if loc.province in provinces
                           and loc.coast is None else str(loc), loc)

    if reader.errors:
        raise MapError(reader.errors)
    victory = raw.victory or len(centers) // 2 + 1
    return Map(
        name=name,
        provinces=_freeze(provinces),
        powers=tuple(powers),
        victory=victory,
        start_phase=start_phase,
        start_units=_freeze(start_units),
        start_centers=_freeze(start_centers),
        army_adjacency=_freeze({k: frozenset(v) for k, v in army.items()}),
        fleet_adjacency=_freeze({k: frozenset(v) for k, v in fleet.items()}),
        aliases=_freeze(aliases),
        rules=tuple(raw.rules),
    )


def load_map_file(path: str | Path, search: list[Path] | None = None) -> Map:
    """Load a `.map` file (and the files it USEs, looked up beside it first)."""
    path = Path(path)
    reader = _Reader([path.parent, *(search or []), _variant_dir()])
    if not path.is_file():
        raise MapError([f"map file not found: {path}"])
    reader.read_file(path)
    return _build(path.stem, reader)


def _variant_dir() -> Path:
    return Path(str(resources.files("payjudge") / "variants"))


@lru_cache(maxsize=None)
def load_variant(name: str = "standard") -> Map:
    """A map shipped with payjudge, by name (`standard`)."""
    if not re.match(r"^[a-z0-9_-]+$", name.lower()):
        raise MapError([f"unknown variant: {name}"])
    path = _variant_dir() / f"{name.lower()}.map"
    if not path.is_file():
        raise MapError([f"unknown variant: {name}"])
    return load_map_file(path)
