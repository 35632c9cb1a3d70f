"""Random but legal offer sheets for property tests and benchmarks.

Everything is drawn from a `random.Random` passed in, so a seed reproduces a sheet.
"""

from __future__ import annotations

import random

from payjudge.payola.acceptance import AcceptanceList
from payjudge.payola.offers import Sheet
from payjudge.payola.rules import PayolaRules
from payjudge.rules.errors import OrderError
from payjudge.rules.geography import UnitType
from payjudge.rules.mapfile import load_variant
from payjudge.rules.orders import Unit
from payjudge.rules.parse import parse_order
from payjudge.rules.phase import Phase
from payjudge.rules.position import Position
from payjudge.rules.validate import validate
from payjudge.text.sheet import parse_sheet

STANDARD = load_variant("standard")
DEFAULT_RULES = PayolaRules()  # frozen: one instance serves as every default
MARKS = ":" * 10 + "!>@&"


def start_position() -> Position:
    return Position.initial(STANDARD)


_POOL: list[Position] = []


def position_pool() -> list[Position]:
    """The start and a few fixed random positions (their legal orders are worked out once)."""
    if not _POOL:
        _POOL.append(start_position())
        _POOL.extend(random_position(random.Random(f"pool{i}")) for i in range(7))
    return _POOL


def random_position(rng: random.Random, units_per_power: int = 4) -> Position:
    """A legal-looking position: each power's units on random provinces (no overlap)."""
    m = STANDARD
    provinces = sorted(m.provinces)
    rng.shuffle(provinces)
    taken: set[str] = set()
    units: dict[str, tuple[Unit, ...]] = {}
    for power in m.power_names:
        mine = []
        for prov in provinces:
            if len(mine) >= units_per_power:
                break
            if prov in taken:
                continue
            kinds = [
                t
                for t in (UnitType.ARMY, UnitType.FLEET)
                if any(m.can_occupy(t, loc) for loc in _locations(prov))
            ]
            if not kinds:
                continue
            kind = rng.choice(kinds)
            loc = rng.choice([loc for loc in _locations(prov) if m.can_occupy(kind, loc)])
            mine.append(Unit(kind, loc))
            taken.add(prov)
        units[power] = tuple(mine)
    phase = Phase.parse(rng.choice(["S1903M", "F1905M"]))
    return Position(m, phase, units, dict(m.start_centers))


def _locations(prov: str):
    from payjudge.rules.geography import Location

    coasts = STANDARD.provinces[prov].coasts
    return [Location(prov, c) for c in coasts] or [Location(prov)]


_CACHE: dict[tuple, dict[str, tuple[str, ...]]] = {}


def legal_orders(position: Position) -> dict[str, tuple[str, ...]]:
    """Canonical texts of a sample of legal orders for every unit (holds, moves, supports)."""
    key = tuple(sorted(str(u) for _, u in position.all_units()))
    if key not in _CACHE:
        if len(_CACHE) > 512:
            _CACHE.clear()
        _CACHE[key] = _legal_orders(position)
    return _CACHE[key]


def _legal_orders(position: Position) -> dict[str, tuple[str, ...]]:
    m = position.map
    out: dict[str, tuple[str, ...]] = {}
    everyone = [u for _, u in position.all_units()]
    for _, unit in position.all_units():
        texts = [f"{unit} H"]
        reach = (
            m.army_neighbours(unit.province)
            if unit.type is UnitType.ARMY
            else {loc.province for loc in m.fleet_neighbours(unit.location)}
        )
        texts += [f"{unit} - {p}" for p in sorted(reach)]
        for other in everyone:
            if other == unit:
                continue
            if other.province in reach:
                texts.append(f"{unit} S {other}")
            oreach = (
                m.army_neighbours(other.province)
                if other.type is UnitType.ARMY
                else {loc.province for loc in m.fleet_neighbours(other.location)}
            )
            texts += [f"{unit} S {other} - {p}" for p in sorted(oreach & reach)]
        legal = []
        for t in texts:
            try:
                legal.append(str(validate(parse_order(t, m), position, None, check_owner=False)))
            except OrderError:
                pass
        out[unit.province] = tuple(dict.fromkeys(legal))
    return out


def _amount(rng: random.Random, high: int, plateaus: bool, allow_zero: bool) -> str:
    def term() -> str:
        a = rng.randint(0 if allow_zero else 1, max(1, high))
        text = str(a)
        if rng.random() < 0.2:
            text = f"{rng.randint(2, 3)}*{text}"
        if plateaus and a and rng.random() < 0.4:
            text += "#" if rng.random() < 0.3 else f"#{rng.randint(0, a)}"
        return text

    terms = [term()]
    while rng.random() < 0.15:
        terms.append(term())
    return "+".join(terms)


def random_sheet_text(
    rng: random.Random,
    position: Position,
    power: str,
    n_offers: int,
    high: int,
    *,
    plateaus: bool = True,
    savings_high: int = 0,
    wildcards: bool = True,
    alternatives: bool = True,
) -> str:
    """A sheet of `n_offers` lines for `power`, amounts up to `high` AgP."""
    orders = legal_orders(position)
    provs = sorted(orders)
    mine = {u.province for u in position.units.get(power, ())}
    lines = []
    for _ in range(n_offers):
        prov = rng.choice(provs)
        own = prov in mine
        choices = orders[prov]
        k = 1 + (alternatives and rng.random() < 0.25) + (alternatives and rng.random() < 0.1)
        picked = rng.sample(choices, min(k, len(choices)))
        mark = rng.choice(MARKS) if wildcards else ":"
        amount = _amount(rng, high, plateaus, allow_zero=own)
        first, *rest = picked
        unit_len = len(first.split()[0]) + len(first.split()[1]) + 2
        body = first + "".join(f" | {o[unit_len:]}" for o in rest)
        lines.append(f"{amount} {mark} {body}")
    if savings_high and rng.random() < 0.5:
        lines.insert(rng.randrange(len(lines) + 1), f"{rng.randint(0, savings_high)} $")
    return "\n".join(lines)


def random_auction(
    rng: random.Random,
    *,
    position: Position | None = None,
    offers: int = 6,
    high: int = 12,
    balance_high: int = 30,
    savings_high: int = 10,
    rules: PayolaRules = DEFAULT_RULES,
    wildcards: bool = True,
    plateaus: bool = True,
    dummies: int = 0,
):
    """(position, sheets, balances, accept, rules, dummies) for `run_auction`."""
    position = position or rng.choice(position_pool())
    plateaus = plateaus and rules.plateaus_allowed
    m = position.map
    powers = list(m.power_names)
    dummy = frozenset(rng.sample(powers, dummies)) if dummies else frozenset()
    sheets: dict[str, Sheet] = {}
    balances = {}
    accept = {}
    for p in powers:
        balances[p] = rng.randint(0, balance_high)
        order = powers[:]
        rng.shuffle(order)
        accept[p] = AcceptanceList(tuple(order))
        if p in dummy or rng.random() < 0.1:
            continue
        text = random_sheet_text(
            rng,
            position,
            p,
            rng.randint(1, offers),
            high,
            plateaus=plateaus,
            savings_high=savings_high,
            wildcards=wildcards,
        )
        parsed = parse_sheet(text, position, p, rules, balance=balances[p], dummies=dummy)
        assert parsed.sheet is not None, (text, parsed.problems)
        sheets[p] = parsed.sheet
    return position, sheets, balances, accept, rules, dummy


def heavy_auction(
    rng: random.Random,
    *,
    rules: PayolaRules = DEFAULT_RULES,
    balances: tuple[int, ...] = (20, 40, 80, 150, 300, 600),
    offers: tuple[int, ...] = (5, 10, 20, 40),
    dummies: int | None = None,
):
    """Like `benchmarks/auction.py`'s worst case, smaller: every power offers several times
    what it has (offers up to a half, a quarter or an eighth of its balance), plateaus
    everywhere, balances alike or not, some savings: long reductions in which powers sit at
    their limits, units go back and forth between them (tugs of war) and ties abound."""
    position = rng.choice(position_pool())
    balance = rng.choice(balances)
    n_offers = rng.choice(offers)
    share = rng.choice([2, 4, 8])
    powers = list(position.map.power_names)
    if dummies is None:
        dummies = rng.choice([0, 0, 0, 1, 2])
    dummy = frozenset(rng.sample(powers, dummies))
    sheets: dict[str, Sheet] = {}
    balance_of, accept = {}, {}
    for power in powers:
        b = rng.randint(balance // 2, balance) if rng.random() < 0.5 else balance
        balance_of[power] = b
        order = powers[:]
        rng.shuffle(order)
        accept[power] = AcceptanceList(tuple(order))
        if power in dummy:
            continue
        text = random_sheet_text(
            rng,
            position,
            power,
            n_offers,
            max(1, min(b // share, 9999)),
            plateaus=rules.plateaus_allowed,
            savings_high=rng.choice([0, 0, b // 3]),
        )
        parsed = parse_sheet(text, position, power, rules, balance=b, dummies=dummy)
        assert parsed.sheet is not None, (text, parsed.problems)
        sheets[power] = parsed.sheet
    return position, sheets, balance_of, accept, rules, dummy
