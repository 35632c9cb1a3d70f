"""Edits of a map's tables (`mapmodel.Model`) that reach into all of them: a location
renamed (`OLD -> Name = NEW`) or dropped (`DROP X`), and a power renamed (`OLD -> NEW`).
Every table that names the site or power is changed, so no later line finds the old name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .mapmodel import Model
from .mapnames import province_of

Rule = tuple[str, str, Any]


def forget_names(m: Model, gone: Callable[[str], bool]) -> None:
    """Drops the full names and aliases of the locations `gone` accepts."""
    for table in (m.loc_name, m.aliases, m.written):
        for key in [k for k, (v, _) in table.items() if gone(v)]:
            del table[key]


def keep_rules(m: Model, keep: Callable[[Rule], bool]) -> None:
    """Keeps the special adjacencies `keep` accepts; a code left with none goes."""
    for rule in list(m.abut_rules):
        m.abut_rules[rule] = [t for t in m.abut_rules[rule] if keep(t)]
        if not m.abut_rules[rule]:
            del m.abut_rules[rule]


def rename_site(m: Model, old: str, new: str) -> None:
    """The location OLD is NEW in every table (its names are the caller's to set)."""
    forget_names(m, lambda v: v == old)
    if old == new:
        return
    swap = {old: new, old.lower(): new.lower(), old.title(): new.title()}
    by_site: tuple[dict[str, Any], ...] = (m.loc_type, m.loc_abut, m.loc_where)
    for site_table in by_site:
        for key in [k for k in site_table if k in (old, old.lower())]:
            site_table[swap[key]] = site_table.pop(key)
    _rename_in_powers(m, old, new)
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


def _rename_in_powers(m: Model, old: str, new: str) -> None:
    """OLD as NEW among the powers' homes, centres and alternatives."""
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


def drop_site(m: Model, place: str, decoast: bool = False) -> None:
    """`DROP X`: X and everything on or about it leave the map. With `decoast`, a site that
    abutted one of X's coasts abuts X itself instead."""

    def starts(site: str) -> bool:
        return site.upper().startswith(place)

    for site in [s for s in m.loc_where if starts(s)]:
        del m.loc_where[site]
    forget_names(m, lambda v: v.startswith(place))
    for sites in m.homes.values():
        if place in sites:
            sites.remove(place)
    bare = province_of(place)
    for units in m.units.values():
        units[:] = [u for u in units if province_of(u[1]) != bare]
    _drop_neighbour(m, starts, bare if decoast else None)
    keep_rules(m, lambda t: not (starts(t[0]) or starts(t[1])))
    by_site: tuple[dict[str, Any], ...] = (m.loc_type, m.loc_abut)
    for site_table in by_site:
        for key in [k for k in site_table if k.startswith((place, place.lower()))]:
            del site_table[key]


def _drop_neighbour(m: Model, starts: Callable[[str], bool], bare: str | None) -> None:
    """The sites `starts` accepts leave every ABUTS list; with `bare`, a list that lost one
    gets the bare province instead (a coast dropped as its province is written anew)."""
    for entries in m.loc_abut.values():
        kept = [(e, w) for e, w in entries if not starts(e)]
        if bare and len(kept) < len(entries) and bare not in [e for e, _ in kept]:
            kept.append((bare, next(w for e, w in entries if starts(e))))
        entries[:] = kept


def rename_power(m: Model, old: str, new: str) -> None:
    """`OLD -> NEW (ADJECTIVE)`: the power keeps its homes, units and centres."""
    m.pow_name.pop(old, None)
    m.own_word.pop(old, None)
    m.initial.pop(old, None)
    for key in [k for k, (v, _) in m.aliases.items() if v == old]:
        del m.aliases[key]
    if old == new:
        return
    for table in m.by_power():
        if old in table:
            table[new] = table.pop(old)
    for power, home in [k for k in m.home_where if k[0] == old]:
        m.home_where[(new, home)] = m.home_where.pop((power, home))
    for powers in m.power_lists():
        if old in powers:
            powers.remove(old)
            powers.append(new)
