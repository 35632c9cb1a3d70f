"""The checks of a map's centres, starting units, special adjacencies and power initials,
made while `mapfile._Builder` turns DPjudge's tables into a `Map`; each problem found is
an error of the builder's, naming the file and line."""

from __future__ import annotations

from typing import Protocol

from .geography import Location, Power, Province, UnitType
from .mapmodel import Model, Where
from .mapnames import MARKS, UNOWNED, province_of
from .names import PowerName


class _Builder(Protocol):
    """What a check asks of the map's builder (`mapfile._Builder`, which runs them)."""

    m: Model

    def error(self, where: Where | None, message: str) -> None: ...


def centres(b: _Builder, powers: list[PowerName], provinces: dict[str, Province]) -> set[str]:
    """The supply centres: every home, neutral centre and owned centre on the map."""
    centers = home_centres(b, powers)
    owned_centres(b, powers, centers)
    check_sites(b)
    check_alternatives(b)
    return {c for c in centers if province_of(c) in provinces}


def home_centres(b: _Builder, powers: list[PowerName]) -> set[str]:
    m = b.m
    centers: set[str] = set()
    homes_of_powers = {h for p in powers for h in m.homes[p]}
    for power in [*powers, UNOWNED]:
        for home in m.homes.get(power, []):
            if home == "&SC" or (power == UNOWNED and home in homes_of_powers):
                continue
            centers.add(home)
            if not m.areatype(home):
                where = m.home_where.get((power, home))
                b.error(where, f"bad home centre for {power}: {home}")
    return centers


def owned_centres(b: _Builder, powers: list[PowerName], centers: set[str]) -> None:
    """Adds the centres `OWNS` lines give, and checks no centre has two owners."""
    m = b.m
    owner: dict[str, str] = {}
    for power in powers:
        listed = m.centers[power] if power in m.owns else m.homes[power]
        for c in listed:
            if c in MARKS:
                continue
            if power in m.owns:
                centers.add(c)
                if not m.areatype(c):
                    b.error(m.center_where.get(c), f"bad initial owned centre for {power}: {c}")
            if c in owner and owner[c] != power:
                b.error(m.center_where.get(c) or m.pow_where.get(power), f"centre owned twice: {c}")
            owner[c] = power


def check_sites(b: _Builder) -> None:
    m = b.m
    for table, kind in ((m.factory, "factory"), (m.partisan, "partisan site")):
        for power, sites in table.items():
            for site in sites:
                if not m.areatype(site):
                    b.error(m.pow_where.get(power), f"bad {kind} for {power}: {site}")


def check_alternatives(b: _Builder) -> None:
    """An alternative home may be limited only by the power's other, plain homes."""
    m = b.m
    for power, alternatives in m.alternative.items():
        alts = [a[0] for a in alternatives]
        for alt, *limits in alternatives:
            for home in limits:
                if home not in m.homes.get(power, []) or home in alts:
                    b.error(
                        m.pow_where.get(power),
                        f"alternative home {alt} of {power} is limited by {home}, "
                        "which is not one of its other homes",
                    )


def start_units(
    b: _Builder, powers: list[PowerName]
) -> dict[PowerName, tuple[tuple[UnitType, Location], ...]]:
    out: dict[PowerName, tuple[tuple[UnitType, Location], ...]] = {}
    for power in powers:
        units = []
        for kind, site, where in b.m.units.get(power, []):
            ok = army_can_stand(b.m, site) if kind == "A" else fleet_can_stand(b.m, site)
            if not ok:
                b.error(where, f"bad initial unit for {power}: {kind} {site}")
                continue
            units.append((UnitType(kind), Location.parse(site)))
        out[power] = tuple(units)
    return out


def special_adjacency(b: _Builder, centers: set[str], powers: list[PowerName]) -> None:
    m = b.m
    initials = {m.initial.get(p, p[0]) for p in powers}
    for code, pairs in m.abut_rules.items():
        where = pairs[0][2]
        if code.endswith(")"):
            if code[:-1] not in centers:
                b.error(where, f"adjacency restricted to the owner of {code[:-1]}, not a centre")
        elif code.endswith(":"):
            if code[0] not in initials:
                b.error(where, f"adjacency restricted to power {code[0]}, not a power initial")
        elif code not in "~*":
            b.error(where, f"unknown special adjacency {code!r}")
    if "~" in m.abut_rules and "*" in m.abut_rules:
        b.error(m.abut_rules["~"][0][2], "special adjacencies ~ and * cannot be mixed")


def check_initials(b: _Builder, powers: tuple[Power, ...]) -> None:
    seen: dict[str, str] = {}
    for p in powers:
        if p.initial in ("M", "?"):  # the Master's initial, and DPjudge's wildcard
            b.error(b.m.pow_where.get(p.name), f"illegal initial {p.initial!r} for {p.name}")
        if p.initial in seen:
            b.error(
                b.m.pow_where.get(p.name),
                f"initial {p.initial} used by two powers ({seen[p.initial]}, {p.name})",
            )
        if p.initial:
            seen[p.initial] = p.name


def abuts(m: Model, kind: str, origin: str, other: str) -> bool:
    """DPjudge's test of a move by an army (`A`) or fleet (`F`) from `origin` to
    `other`: the border must be listed at the origin; a lower-case entry is a border
    for armies only, a Title-case one for fleets only; a fleet needs a location written
    in upper case (a coast, not a province with coasts) that is not land."""
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


def fleet_can_stand(m: Model, site: str) -> bool:
    kind = m.areatype(site)
    return kind in ("WATER", "COAST", "PORT") and site.lower() not in m.loc_abut


def army_can_stand(m: Model, site: str) -> bool:
    return "/" not in site and m.areatype(site) in ("LAND", "COAST", "PORT")
