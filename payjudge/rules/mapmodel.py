"""DPjudge's tables of a map while its lines are read (`Model`), and where each line is
(`Where`): the data the map reader (`mapread.Reader`), its keyword steps (`mapkeys`), its
edits (`mapedits`) and its checks (`mapchecks`) share, kept apart from them so that each
can name it without importing the reader."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from .mapnames import UNOWNED
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

    def by_power(self) -> tuple[dict[str, Any], ...]:
        """The tables keyed by power (but its names: `pow_name`, `own_word`, `initial`)."""
        return (
            self.homes,
            self.units,
            self.centers,
            self.factory,
            self.partisan,
            self.alternative,
            self.hidden,
            self.flags,
            self.leagues,
            self.controls,
            self.pow_where,
        )

    def power_lists(self) -> tuple[list[str], ...]:
        """The lists of powers (dummies, and those a line marks)."""
        return (self.militia, self.reserves, self.dummies, self.owns, self.inhabits)

    def areatype(self, site: str) -> str | None:
        return self.loc_type.get(site.upper()) or self.loc_type.get(site.lower())

    def abut_list(self, site: str) -> list[tuple[str, Where]]:
        return self.loc_abut.get(site, self.loc_abut.get(site.lower(), []))
