"""Reading the parts of a judge-json document that both entry points share."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from ..rules.errors import OrderError
from ..rules.geography import Map
from ..rules.mapfile import MapError, load_map_file, load_variant
from ..rules.names import PowerName, ProvinceName
from ..rules.orders import Unit
from ..rules.parse import parse_unit
from ..rules.phase import Phase, game_start_phase
from ..rules.position import Position
from . import BadInput

_T = TypeVar("_T")

# maps already found by (name, maps_dir, paths): `load_variant` looks for the file and
# checks its time on every call, which costs as much as a small case, and a command-line
# run reads each map once (a map edited while `--jsonl` runs is not read again)
_found: dict[tuple[str, Path | None, bool], Map] = {}


def _new_cache(_map: Map) -> dict[Any, Any]:
    """An empty cache of answers per map (`Map.derived`), bounded by its user."""
    return {}


def variant(doc: Mapping[str, Any], maps_dir: Path | None = None, paths: bool = False) -> Map:
    """The document's map: a shipped or installed one by name, or (`paths`, for the command
    line only) the path of a .map file."""
    name = doc.get("variant", "standard")
    if not isinstance(name, str):
        raise BadInput("variant must be a string")
    key = (name, maps_dir, paths)
    found = _found.get(key)
    if found is None:
        if len(_found) > 64:  # names are the input's: keep memory bounded
            _found.clear()
        found = _found[key] = _variant(name, maps_dir, paths)
    return found


def _variant(name: str, maps_dir: Path | None, paths: bool) -> Map:
    try:
        if paths and (name.endswith(".map") or "/" in name):
            return load_map_file(name, [maps_dir] if maps_dir else None)
        return load_variant(name, maps_dir)
    except MapError as exc:
        raise BadInput(str(exc)) from None


def power_name(m: Map, text: Any) -> PowerName:
    if isinstance(text, str):
        # the answer depends only on the text and the map; powers have few spellings
        cache: dict[str, PowerName] = m.derived("jsonapi:powers", _new_cache)
        hit = cache.get(text)
        if hit is None:
            power = m.power(text)
            if power is None:
                raise BadInput(f"unknown power: {text!r}")
            if len(cache) > 1_000:
                cache.clear()
            hit = cache[text] = power.name
        return hit
    raise BadInput(f"unknown power: {text!r}")


def unit(m: Map, text: Any) -> Unit:
    if isinstance(text, str):
        # text -> (its province, the unit): `_read_before` sorts these pairs
        cache: dict[str, tuple[str, Unit]] = m.derived("jsonapi:units", _new_cache)
        hit = cache.get(text)
        if hit is None:
            if len(cache) > 50_000:  # lenient spellings are unbounded; keep memory bounded
                cache.clear()
            u = _unit(m, text)
            hit = cache[text] = (u.location.province, u)
        return hit[1]
    raise BadInput(f"a unit must be a string, not {text!r}")


def _unit(m: Map, text: Any) -> Unit:
    if not isinstance(text, str):
        raise BadInput(f"a unit must be a string, not {text!r}")
    try:
        spec = parse_unit(text, m)
    except OrderError as exc:
        raise BadInput(f"bad unit {text!r}: {exc}") from None
    if spec.type is None:
        raise BadInput(f"bad unit {text!r}: say A or F")
    u = Unit(spec.type, spec.location)
    if not m.can_occupy(u.type, u.location):
        raise BadInput(f"a unit {text!r} cannot stand there")
    return u


def province(m: Map, text: Any) -> str:
    if isinstance(text, str):
        cache: dict[str, str] = m.derived("jsonapi:provinces", _new_cache)
        hit = cache.get(text)
        if hit is None:
            hit = cache[text] = _province(m, text)
            if len(cache) > 50_000:
                cache.clear()
        return hit
    raise BadInput(f"a province must be a string, not {text!r}")


def _province(m: Map, text: Any) -> str:
    if not isinstance(text, str):
        raise BadInput(f"a province must be a string, not {text!r}")
    loc = m.aliases.get(" ".join(text.upper().replace(".", " ").split()))
    if loc is None or loc.coast is not None:
        raise BadInput(f"unknown province: {text!r}")
    return loc.province


def centers(m: Map, texts: list) -> frozenset[ProvinceName]:
    """The supply centres named by `texts`."""
    # the supply centres' names seen before: most inputs name nothing else (the cache
    # holds only strings, so any other value misses it and gets the full checks below)
    cache: dict[str, ProvinceName] = m.derived("jsonapi:centers", _new_cache)
    try:
        return frozenset(map(cache.__getitem__, texts))
    except (KeyError, TypeError):
        pass
    owned = frozenset(m.provinces[province(m, c)].name for c in texts)
    for c in owned:
        if not m.provinces[c].supply_center:
            raise BadInput(f"{c} is not a supply centre")
    if len(cache) > 50_000:
        cache.clear()
    cache.update((c, m.provinces[province(m, c)].name) for c in texts)
    return owned


def position(doc: Mapping[str, Any], maps_dir: Path | None = None, paths: bool = False) -> Position:
    """The starting position: variant, phase, units, centers."""
    m = variant(doc, maps_dir, paths)
    try:
        phase = (
            Phase.parse(str(doc["phase"]))
            if "phase" in doc
            else game_start_phase(m.start_phase, m.first_phase, m.flow)
        )
    except ValueError as exc:
        raise BadInput(str(exc)) from None
    raw_units = doc.get("units")
    raw_centers = doc.get("centers")
    known = _read_before(m, phase, raw_units, raw_centers)
    if known is not None:
        return known
    if raw_units is None:
        board = {p: tuple(Unit(t, loc) for t, loc in us) for p, us in m.start_units.items()}
    else:
        board = _per_power(m, raw_units, "units", "units", lambda us: tuple(unit(m, u) for u in us))
    if raw_centers is None:
        owners = dict(m.start_centers)
    else:
        owners = _per_power(m, raw_centers, "centers", "provinces", lambda cs: centers(m, cs))
        if sum(map(len, owners.values())) != len(frozenset().union(*owners.values())):
            seen: dict[str, str] = {}
            for p, cs in owners.items():
                for c in cs:
                    if c in seen:
                        raise BadInput(f"{c} is owned by both {seen[c]} and {p}")
                    seen[c] = p
    try:
        return Position(m, phase, board, owners)
    except ValueError as exc:
        raise BadInput(str(exc)) from None


def _per_power(
    m: Map, raw: Any, what: str, items: str, read: Callable[[list[Any]], _T]
) -> dict[PowerName, _T]:
    """`{power: [...]}` of a request (units or centers), each list read by `read`."""
    if not isinstance(raw, dict):
        raise BadInput(f"{what} must map each power to a list of {items}")
    out = {}
    for p, texts in raw.items():
        if not isinstance(texts, list):
            raise BadInput(f"{what} of {p} must be a list")
        out[power_name(m, p)] = read(texts)
    return out


def _read_before(m: Map, phase: Phase, raw_units: Any, raw_centers: Any) -> Position | None:
    """The position when every power, unit and centre in it was read (and checked) before,
    by a lookup per name or per list and the checks `Position` makes done on what the
    lookups give; None when anything is new, missing or wrong: `position` then reads the
    document name by name, with the errors it words. A long run meets the same names, and
    often the same lists (units that stayed, centres between two autumns), again and again.
    (Plain loops: in Python 3.11 they beat comprehensions, `map` and `attrgetter` here.)"""
    if type(raw_units) is not dict or type(raw_centers) is not dict:
        return None
    powers: dict[str, PowerName] = m.derived("jsonapi:powers", _new_cache)
    placed: dict[str, tuple[str, Unit]] = m.derived("jsonapi:units", _new_cache)
    unit_lists: dict[tuple[str, ...], list[tuple[str, Unit]]]
    unit_lists = m.derived("jsonapi:unit-lists", _new_cache)
    names: dict[str, ProvinceName] = m.derived("jsonapi:centers", _new_cache)
    center_lists: dict[tuple[str, ...], frozenset[ProvinceName]]
    center_lists = m.derived("jsonapi:center-lists", _new_cache)
    board: dict[PowerName, tuple[Unit, ...]] = {}
    at: dict[str, tuple[PowerName, Unit]] = {}
    owners: dict[PowerName, frozenset[ProvinceName]] = {}
    count = 0
    owned_count = 0
    empty = False  # a power named with no units or no centres (`Position` leaves it out)
    try:
        for p, us in raw_units.items():
            power = powers[p]
            if power in board or type(us) is not list:
                return None
            key = tuple(us)
            pairs = unit_lists.get(key)
            if pairs is None:
                # (province, unit) pairs sort by province; two units in one province make
                # `sorted` compare units (TypeError) or leave `at` short (the same unit)
                pairs = [placed[text] for text in us]
                pairs.sort()
                if len(unit_lists) > 50_000:
                    unit_lists.clear()
                unit_lists[key] = pairs
            units = []
            for province, u in pairs:
                at[province] = (power, u)
                units.append(u)
            board[power] = tuple(units)
            count += len(units)
            empty = empty or not units
        all_owned: set[ProvinceName] = set()
        for p, cs in raw_centers.items():
            power = powers[p]
            if power in owners or type(cs) is not list:
                return None
            key = tuple(cs)
            owned = center_lists.get(key)
            if owned is None:
                owned = frozenset([names[c] for c in cs])
                if len(center_lists) > 50_000:
                    center_lists.clear()
                center_lists[key] = owned
            owners[power] = owned
            owned_count += len(owned)
            all_owned.update(owned)
            empty = empty or not owned
    except (KeyError, TypeError):
        return None
    if len(at) != count or len(all_owned) != owned_count:  # a unit or a centre twice
        return None
    if empty:
        board = {p: us for p, us in board.items() if us}
        owners = {p: cs for p, cs in owners.items() if cs}
    return Position.checked(m, phase, board, owners, at)


def units_json(pos: Position) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for p, us in sorted(pos.units.items()):
        texts = []
        for u in us:
            # the text a unit keeps once made (`orders._Text`), read as an attribute:
            # `str()`'s Python-level call is a third of writing the units and the history
            texts.append(u._text or str(u))
        texts.sort()
        out[p] = texts
    return out


def centers_json(pos: Position) -> dict[str, list[str]]:
    # each owner's set sorted once: the sets come back as they are, phase after phase (the
    # reader keeps the lists it read, a fall keeps the sets of powers that took nothing),
    # a frozenset keeps its hash and a dict finds the very object first (each answer gets a
    # copy of the kept list)
    lists: dict[frozenset[ProvinceName], list[str]] = pos.map.derived("jsonapi:sorted-centers", _new_cache)
    out: dict[str, list[str]] = {}
    for p, cs in sorted(pos.centers.items()):
        names = lists.get(cs)
        if names is None:
            names = sorted(cs)
            if len(lists) > 50_000:
                lists.clear()
            lists[cs] = names
        out[p] = list(names)
    return out
