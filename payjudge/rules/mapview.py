"""A map as data for people and tools: the JSON of `payjudge map show --json`."""

from __future__ import annotations

from typing import Any

from .geography import Location, Map, Terrain, UnitType


def locations(m: Map) -> list[Location]:
    """Every location a unit can stand on: provinces (not impassable ones) and coasts."""
    found = []
    for name, prov in m.provinces.items():
        if prov.terrain is Terrain.SHUT:
            continue
        found.append(Location(name))
        found.extend(Location(name, coast) for coast in prov.coasts)
    return sorted(found, key=str)


def map_json(m: Map) -> dict[str, Any]:
    """`{name, powers, centres, locations, adjacency, victory, first_phase, rules, …}`:
    upper case, sorted lists, coasts as `STP/SC`; a unit type that cannot stand on a
    location has an empty list of moves there."""
    adjacency = {}
    for loc in locations(m):
        army = sorted(m.army_neighbours(loc.province)) if m.can_occupy(UnitType.ARMY, loc) else []
        fleet = sorted(str(n) for n in m.fleet_neighbours(loc)) if m.can_occupy(UnitType.FLEET, loc) else []
        adjacency[str(loc)] = {"army": army, "fleet": fleet}
    homes = {h for p in m.powers for h in p.homes}
    owned = {c for cs in m.start_centers.values() for c in cs}
    return {
        "name": m.name,
        "powers": {
            p.name: {
                "initial": p.initial,
                "adjective": p.adjective,
                "written": p.written or p.name,
                "homes": sorted(p.homes),
                "builds_anywhere": p.builds_anywhere,  # in any centre it owns (DPjudge's `&SC`)
                "centres": sorted(m.start_centers.get(p.name, ())),
                "units": sorted(f"{t.value} {loc}" for t, loc in m.start_units.get(p.name, ())),
                "dummy": p.name in m.dummies,
                "league": list(m.leagues.get(p.name, ())),
            }
            for p in sorted(m.powers, key=lambda p: p.name)
        },
        "centres": sorted(m.supply_centers),
        "neutral_centres": sorted(m.supply_centers - homes - owned),
        "locations": [str(loc) for loc in locations(m)],
        "adjacency": adjacency,
        "victory": m.victory,
        "first_phase": m.start_phase,
        "first_phase_name": m.first_phase,
        "flow": list(m.flow),
        "rules": sorted(m.rule_flags()),
        "dummies": sorted(m.dummies),
        "special_adjacency": [{"rule": code, "from": a, "to": b} for code, a, b in m.special_adjacency],
        "phase_lines": {when: list(lines) for when, lines in m.phase_lines},
        "notes": list(m.notes),
    }
