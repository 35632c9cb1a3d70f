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

from collections.abc import Callable

from .mapedits import drop_site, keep_rules, rename_power, rename_site
from .mapkeys import AFTER_NAMES, BEFORE_NAMES, POWER_LINE, directive, dynamic
from .mapmodel import Model, Where
from .mapnames import (
    KEYWORDS,
    UNOWNED,
    abut_codes,
    dp_norm,
    home_marks,
    normalize_name,
    power_named,
    province_of,
)


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
                variant = directive(self, words, where)
            elif variant:
                self.m.directives.setdefault(variant, []).append(" ".join(words))
            elif up in ("IN", "FROM"):
                section = dynamic(self, up, words, where)
            elif section:
                self.m.dynamic.setdefault(section, []).append((line, where))
            else:
                power = self.line(up, words, line, where, power)

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
        if old not in {a for a, _ in self.m.loc_name.values()}:
            self.error(where, f"cannot rename {old}: no such location")
            return
        rename_site(self.m, old, new)

    # -- terrain and adjacency -------------------------------------------------------------
    def terrain(self, up: str, words: list[str], where: Where) -> None:
        """`LAND X ABUTS ...` (and the other terrains), or `AMEND X ...`."""
        m = self.m
        place = words[1]
        self._respell(up, place)
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
                self._unabut(entries, dest[1:].upper())
            elif not self._abut(place, dest, entries, where):
                self.error(where, f"bad special adjacency for {place}")
                break

    def _respell(self, up: str, place: str) -> None:
        """A site written before in the other case is replaced; `AMEND` keeps what it had."""
        m = self.m
        other = place.swapcase()
        if other not in m.loc_where:
            return
        first = m.loc_where.pop(other)
        if up == "AMEND":
            m.loc_where[place] = first
            m.loc_type[place] = m.loc_type[other]
            m.loc_abut[place] = m.loc_abut.get(other, [])
        m.loc_type.pop(other, None)
        m.loc_abut.pop(other, None)
        if place.isupper():  # the coasts of a province now written in upper case go
            for site in [s for s in m.loc_where if s.startswith(place + "/")]:
                drop_site(m, site, decoast=True)

    def _unabut(self, entries: list[tuple[str, Where]], gone: str) -> None:
        """`-X` in an ABUTS list: X and its special adjacencies are no longer neighbours."""
        entries[:] = [(e, w) for e, w in entries if not e.upper().startswith(gone)]
        keep_rules(self.m, lambda t: province_of(gone) not in t[:2])

    def _abut(self, place: str, dest: str, entries: list[tuple[str, Where]], where: Where) -> bool:
        """One neighbour, with DPjudge's codes around it (`POWER:X`, `X(CODE)`, marks such
        as `~X` or `X*`) filed as special adjacencies; False if nothing is left of it."""
        dest, codes = abut_codes(dest)
        if not dest:
            return False
        for code in codes:
            self.m.abut_rules.setdefault(code, []).append((place.upper(), province_of(dest), where))
        entries.append((dest, where))
        return True

    # -- powers ----------------------------------------------------------------------------
    def power_line(self, words: list[str], where: Where) -> str | None:
        """`POWER [-> NEW] [(OWN:I)] HOMES...`, or `UNOWNED`/`NEUTRAL` and its centres."""
        m = self.m
        power = power_named(words[0])
        if len(words) > 2 and words[1] == "->":
            old = power
            words = words[2:]
            power = power_named(words[0])
            if not old or not power:
                self.error(where, "the neutral centres cannot be renamed")
            elif old not in m.pow_name:
                self.error(where, f"cannot rename {old}: no such power")
            else:
                rename_power(m, old, power)
        if power is not None and not power:
            self.error(where, f"not understood: {' '.join(words)}")
            return None
        if power and power not in m.pow_name:
            self._file_power(power, words[0].upper(), where)
        key = power or UNOWNED
        words = list(words)
        if power and len(words) > 1 and words[1].startswith("("):
            self._own_word(key, words.pop(1)[1:-1], where)
        else:
            m.own_word.setdefault(key, key)
        reinit = key in m.inhabits
        if reinit:
            m.inhabits.remove(key)
        self.add_homes(key, words[1:], reinit, where)
        return power

    def _file_power(self, power: str, written: str, where: Where) -> None:
        m = self.m
        m.pow_name[power] = written
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

    def _own_word(self, power: str, token: str, where: Where) -> None:
        """`(ADJECTIVE:I)` after a power: its own word, and its initial in orders."""
        m = self.m
        word, _, initial = token.partition(":")
        m.own_word[power] = (word or power).upper()
        if ":" in token:
            m.initial[power] = initial[:1].upper()
            if not initial or m.initial[power] in "M?":
                self.error(where, f"illegal initial {initial!r} for {power}")

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
        for word in " ".join(homes).upper().split():
            home, marks, limits = home_marks(word)
            if not home:
                continue
            self._forget_home(power, home)
            if "-" not in marks:
                self._add_home(power, home, marks, limits, where)

    def _forget_home(self, power: str, home: str) -> None:
        """A home named again loses what it was (a home given up becomes neutral)."""
        m = self.m
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

    def _add_home(self, power: str, home: str, marks: set[str], limits: list[str], where: Where) -> None:
        m = self.m
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
