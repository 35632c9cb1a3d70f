"""Reading DPjudge `.map` lines into the raw board model DPjudge itself keeps.

DPjudge reads a map as a sequence of edits to a few tables: locations keyed by the case in
which they were written (upper case: fleets and armies; lower case: armies only, as for a
province whose fleets stand on its coasts), adjacency lists whose entries keep their case
(lower case: armies only, Title case: fleets only), powers with home centres, units, and
so on. `AMEND`, `DROP`, renames (`->`), `UNPLAYED` and later unit lines change what earlier
lines (often in a `USE`d file) set up, so the model is built first and only then checked
and turned into a `Map` (`payjudge.rules.mapfile`). Every entry remembers its file and line.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .mapkeys import AFTER_NAMES, BEFORE_NAMES, POWER_LINE
from .mapnames import DPJUDGE_VARIANTS, KEYWORDS, UNOWNED, dp_norm, normalize_name, power_key, province_of
from .names import PowerName


@dataclass(frozen=True)
class Where:
    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass
class Model:
    """DPjudge's tables while the files are read (names as DPjudge keys them)."""

    files: list[str] = field(default_factory=list)
    loc_where: dict[str, Where] = field(default_factory=dict)  # site as written -> line
    loc_type: dict[str, str] = field(default_factory=dict)
    loc_abut: dict[str, list[tuple[str, Where]]] = field(default_factory=dict)
    abut_rules: dict[str, list[tuple[str, str, Where]]] = field(default_factory=dict)
    loc_name: dict[str, tuple[str, Where]] = field(default_factory=dict)  # FULL NAME -> abbrev
    aliases: dict[str, tuple[str, Where]] = field(default_factory=dict)  # alias -> abbrev/power
    unclear: dict[str, str] = field(default_factory=dict)
    display: dict[str, str] = field(default_factory=dict)  # FULL NAME -> Full name
    written: dict[str, tuple[str, Where]] = field(default_factory=dict)  # payjudge's alias keys
    pow_name: dict[str, str] = field(default_factory=dict)  # key -> name as written
    pow_where: dict[str, Where] = field(default_factory=dict)
    own_word: dict[str, str] = field(default_factory=dict)
    initial: dict[str, str] = field(default_factory=dict)
    homes: dict[str, list[str]] = field(default_factory=dict)  # and UNOWNED's centres
    home_where: dict[tuple[str, str], Where] = field(default_factory=dict)
    hidden: dict[str, list[str]] = field(default_factory=dict)
    alternative: dict[str, list[list[str]]] = field(default_factory=dict)
    partisan: dict[str, list[str]] = field(default_factory=dict)
    factory: dict[str, list[str]] = field(default_factory=dict)
    centers: dict[str, list[str]] = field(default_factory=dict)
    center_where: dict[str, Where] = field(default_factory=dict)
    owns: list[str] = field(default_factory=list)
    inhabits: list[str] = field(default_factory=list)
    units: dict[str, list[tuple[str, str, Where]]] = field(default_factory=dict)
    dummies: list[str] = field(default_factory=list)
    controls: dict[str, list[str]] = field(default_factory=dict)
    leagues: dict[str, list[str]] = field(default_factory=dict)
    reserves: list[str] = field(default_factory=list)
    militia: list[str] = field(default_factory=list)
    flags: dict[str, str] = field(default_factory=dict)
    dynamic: dict[str, list[tuple[str, Where]]] = field(default_factory=dict)
    flow: list[tuple[str, Where]] = field(default_factory=list)
    begin: tuple[str, Where] | None = None
    victory: tuple[list[int], Where] | None = None
    rules: list[str] = field(default_factory=list)
    directives: dict[str, list[str]] = field(default_factory=dict)
    home_years: list[str] = field(default_factory=list)
    root_map: str | None = None
    errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # ambiguities DPjudge reports and plays on

    def copy(self) -> Model:
        return copy.deepcopy(self)

    def powers(self) -> list[PowerName]:
        """The powers the map declares: here their keys become typed names."""
        return sorted(PowerName(p) for p in self.homes if p != UNOWNED)

    def areatype(self, site: str) -> str | None:
        return self.loc_type.get(site.upper()) or self.loc_type.get(site.lower())

    def abut_list(self, site: str) -> list[tuple[str, Where]]:
        return self.loc_abut.get(site, self.loc_abut.get(site.lower(), []))


class Reader:
    """Applies map lines to a `Model`, as DPjudge's `Map.load` does (see module doc)."""

    def __init__(self, model: Model, find: Callable[[str], tuple[str, str] | None]):
        self.m = model
        self.find = find  # file name -> (display name, text) or None

    def error(self, where: Where, message: str) -> None:
        self.m.errors.append(f"{where}: {message}")

    def note(self, where: Where, message: str) -> None:
        self.m.notes.append(f"{where}: {message}")

    # -- files ---------------------------------------------------------------------------
    def read_file(self, name: str, where: Where | None = None) -> None:
        found = self.find(name)
        if found is None:
            message = f"map file not found: {name}"
            self.m.errors.append(f"{where}: {message}" if where else message)
            return
        shown, text = found
        self.m.files.append(name)
        self.read_lines([(line, Where(shown, n)) for n, line in enumerate(text.splitlines(), 1)])

    def read_lines(self, lines: list[tuple[str, Where]], power: str | None = None) -> None:
        variant: str | None = None
        section: str | None = None  # inside `IN <phase>`: the lines wait for that phase
        for raw, where in lines:
            line = raw.split("#", 1)[0]  # DPjudge's own maps have no comment after data
            words = line.split()
            if not words:
                continue
            up = words[0].upper()
            if words[-1].upper() in ("DIRECTIVE", "DIRECTIVES"):
                variant = self.directive(words, where)
            elif variant:
                self.m.directives.setdefault(variant, []).append(" ".join(words))
            elif up in ("IN", "FROM"):
                section = self.dynamic(up, words, where)
            elif section:
                self.m.dynamic.setdefault(section, []).append((line, where))
            else:
                power = self.line(up, words, line, where, power)

    def directive(self, words: list[str], where: Where) -> str | None:
        if len(words) > 2:
            self.error(where, "bad variant DIRECTIVES line")
            return None
        if len(words) == 1:
            return "ALL"
        if words[0].upper() == "END":
            return None
        if words[0].upper() not in DPJUDGE_VARIANTS:
            self.error(where, f"unknown variant in DIRECTIVES line: {words[0]}")
            return None
        return words[0].upper()

    def dynamic(self, up: str, words: list[str], where: Where) -> str | None:
        """`IN <phase>: <line>`, or `IN <phase>` opening a section of lines for that phase
        (DPjudge applies them when the game reaches a phase starting with that text)."""
        data = [x.strip() for x in " ".join(words[1:]).split(":")]
        if not data[0]:
            self.error(where, f"bad {up} directive")
            return None
        when = data[0].upper() if up == "IN" else data[0].lower()
        if when.upper() == "START":
            return None
        if len(data) > 1:
            self.m.dynamic.setdefault(when, []).append((data[1], where))
            return None
        return when

    # -- one line ------------------------------------------------------------------------
    def line(self, up: str, words: list[str], line: str, where: Where, power: str | None) -> str | None:
        """One line outside a section: a keyword's step (`mapkeys`), a name line (one with
        `=`), or else a power's line. The power returned is the one the next lines are about."""
        step = BEFORE_NAMES.get(up)
        if step is None:
            if "=" in line:
                self.names(line, where)
                return power
            step = AFTER_NAMES.get(up, POWER_LINE)
        return step(self, up, words, where, power)

    # -- names -----------------------------------------------------------------------------
    def names(self, line: str, where: Where) -> None:
        m = self.m
        left, _, right = line.upper().partition("=")
        words = right.split()
        if not words:
            self.error(where, f"bad name line: {line.strip()}")
            return
        parts = [x.strip() for x in left.split("->")]
        old = None
        if len(parts) == 2:
            old, name = parts
        elif len(parts) > 2:
            self.error(where, f"bad rename: {left.strip()}")
            return
        else:
            name = parts[0]
        name = " ".join(name.split())
        abbrev = words[0]
        if not (abbrev[0] + abbrev[-1]).isalnum():
            self.error(where, f"invalid location abbreviation: {abbrev}")
            return
        if abbrev != dp_norm(abbrev).replace(" ", ""):
            self.note(
                where,
                f"abbreviation {abbrev} is a word of the order language "
                "(DPjudge reads it as an order word); payjudge reads it as the location",
            )
        if old:
            self.rename(old, abbrev, where)
        normed = name if name in KEYWORDS else dp_norm(name)
        if name in KEYWORDS:
            self.note(where, f"location name {name} is a word of the order language")
        if name in m.loc_name or normed in m.aliases:
            self.note(where, f"{name} names a location or power already")
        m.loc_name[name] = (abbrev, where)
        m.display[name] = " ".join(line.partition("=")[0].split("->")[-1].split())
        m.aliases[normed] = (abbrev, where)
        m.written[normalize_name(name)] = (abbrev, where)
        for alias in words[1:]:
            if alias.endswith("?"):
                m.unclear[alias[:-1].replace("+", " ")] = abbrev
                continue
            m.written.setdefault(normalize_name(alias), (abbrev, where))
            normed = dp_norm(alias)
            had = m.aliases.get(normed)
            if had is None:
                m.aliases[normed] = (abbrev, where)
            elif had[0] != abbrev:
                self.note(where, f"alias {alias} already names {had[0]} ({had[1]}); the first is kept")

    def rename(self, old: str, new: str, where: Where) -> None:
        """`OLD -> Full name = NEW ...`: the location OLD is called NEW from now on."""
        m = self.m
        if old not in {a for a, _ in m.loc_name.values()}:
            self.error(where, f"cannot rename {old}: no such location")
            return
        for table in (m.loc_name, m.aliases, m.written):
            for key in [k for k, (v, _) in table.items() if v == old]:
                del table[key]
        if old == new:
            return
        swap = {old: new, old.lower(): new.lower(), old.title(): new.title()}
        by_site: tuple[dict[str, Any], ...] = (m.loc_type, m.loc_abut, m.loc_where)
        for site_table in by_site:
            for key in [k for k in site_table if k in (old, old.lower())]:
                site_table[swap[key]] = site_table.pop(key)
        for power_table in (m.homes, m.centers, m.factory, m.partisan, m.hidden):
            for sites in power_table.values():
                if old in sites:
                    sites.remove(old)
                    sites.append(new)
        for power in list(m.homes):
            if (power, old) in m.home_where:
                m.home_where[(power, new)] = m.home_where.pop((power, old))
        for alternatives in m.alternative.values():
            for sites in alternatives:
                if old in sites:
                    sites[sites.index(old)] = new
        for units in m.units.values():
            for i, (kind, site, w) in enumerate(units):
                if site == old:
                    units[i] = (kind, new, w)
        for entries in m.loc_abut.values():
            for i, (entry, w) in enumerate(entries):
                if entry in swap:
                    entries[i] = (swap[entry], w)
        for rule, pairs in m.abut_rules.items():
            m.abut_rules[rule] = [(new if a == old else a, new if b == old else b, w) for a, b, w in pairs]

    # -- terrain and adjacency -------------------------------------------------------------
    def terrain(self, up: str, words: list[str], where: Where) -> None:
        m = self.m
        place, other = words[1], words[1].swapcase()
        if other in m.loc_where:
            first = m.loc_where.pop(other)
            if up == "AMEND":
                m.loc_where[place] = first
                m.loc_type[place] = m.loc_type[other]
                m.loc_abut[place] = m.loc_abut.get(other, [])
            m.loc_type.pop(other, None)
            m.loc_abut.pop(other, None)
            if place.isupper():  # the coasts of a province now written in upper case go
                for site in [s for s in m.loc_where if s.startswith(place + "/")]:
                    self.drop(site, decoast=True)
        if up == "AMEND":
            if place not in m.loc_type:
                self.error(where, f"nothing to AMEND for {place}")
                return
        else:
            m.loc_where.pop(place, None)
            m.loc_where[place] = where
            m.loc_type[place] = up
            if len(words) > 2:
                m.loc_abut[place] = []
        if len(words) > 2 and words[2].upper() not in ("ABUTS", "ABUT"):
            self.error(where, f'expected "ABUTS" after {place}')
            return
        entries = m.loc_abut.setdefault(place, [])
        for dest in words[3:]:
            if dest.startswith("-"):
                gone = dest[1:].upper()
                entries[:] = [(e, w) for e, w in entries if not e.upper().startswith(gone)]
                for rule in list(m.abut_rules):
                    m.abut_rules[rule] = [t for t in m.abut_rules[rule] if province_of(gone) not in t[:2]]
                    if not m.abut_rules[rule]:
                        del m.abut_rules[rule]
                continue
            codes = []
            if dest.count(":") == 1:
                who, dest = dest.split(":")
                codes.append(who.upper() + ":")
            if dest.count("(") == 1 and dest.endswith(")"):
                dest, need = dest.split("(")
                codes.append(need.upper())
            while dest and not dest[0].isalnum():
                codes.append(dest[0])
                dest = dest[1:]
            while dest and not dest[-1].isalnum():
                codes.append(dest[-1])
                dest = dest[:-1]
            if not dest:
                self.error(where, f"bad special adjacency for {place}")
                break
            for code in codes:
                m.abut_rules.setdefault(code, []).append((place.upper(), province_of(dest), where))
            entries.append((dest, where))

    def drop(self, place: str, decoast: bool = False) -> None:
        """`DROP X`: X and everything on or about it leave the map."""
        m = self.m

        def starts(site: str) -> bool:
            return site.upper().startswith(place)

        for site in [s for s in m.loc_where if starts(s)]:
            del m.loc_where[site]
        for table in (m.loc_name, m.aliases, m.written):
            for key in [k for k, (v, _) in table.items() if v.startswith(place)]:
                del table[key]
        for sites in m.homes.values():
            if place in sites:
                sites.remove(place)
        for units in m.units.values():
            units[:] = [u for u in units if province_of(u[1]) != province_of(place)]
        bare = province_of(place)
        for entries in m.loc_abut.values():
            kept = [(e, w) for e, w in entries if not starts(e)]
            if decoast and len(kept) < len(entries) and bare not in [e for e, _ in kept]:
                kept.append((bare, next(w for e, w in entries if starts(e))))
            entries[:] = kept
        for rule in list(m.abut_rules):
            m.abut_rules[rule] = [t for t in m.abut_rules[rule] if not (starts(t[0]) or starts(t[1]))]
            if not m.abut_rules[rule]:
                del m.abut_rules[rule]
        by_site: tuple[dict[str, Any], ...] = (m.loc_type, m.loc_abut)
        for site_table in by_site:
            for key in [k for k in site_table if k.startswith((place, place.lower()))]:
                del site_table[key]

    # -- powers ----------------------------------------------------------------------------
    def power_line(self, words: list[str], where: Where) -> str | None:
        m = self.m
        up = words[0].upper()
        if up in ("NEUTRAL", "CENTERS"):
            up = UNOWNED
        power = None if up == UNOWNED else power_key(up)
        if len(words) > 2 and words[1] == "->":
            old = power
            words = words[2:]
            up = words[0].upper()
            if up in ("NEUTRAL", "CENTERS"):
                up = UNOWNED
            power = None if up == UNOWNED else power_key(up)
            if not old or not power:
                self.error(where, "the neutral centres cannot be renamed")
            elif old not in m.pow_name:
                self.error(where, f"cannot rename {old}: no such power")
            else:
                self.rename_power(old, power)
        if power is not None and not power:
            self.error(where, f"not understood: {' '.join(words)}")
            return None
        if power and power not in m.pow_name:
            m.pow_name[power] = up
            m.pow_where[power] = where
            if power in m.aliases and m.aliases[power][0] != power:
                self.note(
                    where,
                    f"power {power} is also the name of location {m.aliases[power][0]}; "
                    "payjudge keeps powers and locations apart",
                )
            elif len(power.split("/")[0]) in (1, 3) and power not in m.aliases:
                self.note(where, f"power name {power} looks like a location or order abbreviation")
            m.aliases.setdefault(power, (power, where))
        key = power or UNOWNED
        words = list(words)
        if power and len(words) > 1 and words[1].startswith("("):
            token = words.pop(1)[1:-1]
            word, _, initial = token.partition(":")
            m.own_word[key] = (word or power).upper()
            if ":" in token:
                m.initial[key] = initial[:1].upper()
                if not initial or m.initial[key] in "M?":
                    self.error(where, f"illegal initial {initial!r} for {power}")
        else:
            m.own_word.setdefault(key, key)
        reinit = key in m.inhabits
        if reinit:
            m.inhabits.remove(key)
        self.add_homes(key, words[1:], reinit, where)
        return power

    def add_homes(self, power: str, homes: list[str], reinit: bool, where: Where) -> None:
        """Home centres with DPjudge's markers: `-X` removes X (it becomes neutral), `*X` a
        partisan site, `+X` a factory, `~X` a hidden home, `@X(A,B)` an alternative home."""
        m = self.m
        if reinit:
            m.homes[power] = []
            for table in (m.partisan, m.factory, m.hidden, m.alternative):
                table.pop(power, None)
        else:
            m.homes.setdefault(power, [])
        for home in " ".join(homes).upper().split():
            marks = set()
            while home and home[0] in "-*+~@":
                marks.add(home[0])
                home = home[1:]
            limits: list[str] = []
            if "(" in home and home.endswith(")"):
                home, _, rest = home.partition("(")
                limits = rest[:-1].split(",")
            if not home:
                continue
            if power in m.alternative:
                m.alternative[power] = [a for a in m.alternative[power] if a[0] != home]
            if home in m.hidden.get(power, []):
                m.hidden[power].remove(home)
            if home in m.factory.get(power, []):
                m.factory[power].remove(home)
            elif home in m.partisan.get(power, []):
                m.partisan[power].remove(home)
            elif home in m.homes[power]:
                m.homes[power].remove(home)
                if power != UNOWNED:
                    m.homes.setdefault(UNOWNED, []).append(home)
            if "-" in marks:
                continue
            if "@" in marks:
                m.alternative.setdefault(power, []).append([home, *limits])
            if "~" in marks:
                m.hidden.setdefault(power, []).append(home)
            if "*" in marks:
                m.partisan.setdefault(power, []).append(home)
            elif "+" in marks:
                m.factory.setdefault(power, []).append(home)
            else:
                m.homes[power].append(home)
                m.home_where[(power, home)] = where

    def rename_power(self, old: str, new: str) -> None:
        """`OLD -> NEW (ADJECTIVE)`: the power keeps its homes, units and centres."""
        m = self.m
        m.pow_name.pop(old, None)
        m.own_word.pop(old, None)
        m.initial.pop(old, None)
        for key in [k for k, (v, _) in m.aliases.items() if v == old]:
            del m.aliases[key]
        if old == new:
            return
        by_power: tuple[dict[str, Any], ...] = (
            m.homes,
            m.units,
            m.centers,
            m.factory,
            m.partisan,
            m.alternative,
            m.hidden,
            m.flags,
            m.leagues,
            m.controls,
            m.pow_where,
        )
        for table in by_power:
            if old in table:
                table[new] = table.pop(old)
        for power, home in [k for k in m.home_where if k[0] == old]:
            m.home_where[(new, home)] = m.home_where.pop((power, home))
        for powers in (m.militia, m.reserves, m.dummies, m.owns, m.inhabits):
            if old in powers:
                powers.remove(old)
                powers.append(new)
