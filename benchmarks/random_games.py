"""Random legal standard games, reproducible from a seed, for the benchmarks.

A game is played from the standard opening with orders drawn from
`payjudge.rules.possible`: each phase is recorded as the position before it and the
order texts (canonical) each power gave. The draw is biased so that the resolver has
work to do: about half the units move, a third support (mostly a move or hold that
was really ordered), armies take convoy routes when fleets are at sea and the fleets
on the route convoy them; a few units get no order, a few dislodged units are left to
disband, and some removals are left to the civil-disorder rule.

    from random_games import random_game, phase_cases
    for record in random_game(seed=1, years=10): ...
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from payjudge.rules.geography import UnitType
from payjudge.rules.mapfile import load_variant
from payjudge.rules.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
)
from payjudge.rules.position import Position
from payjudge.rules.possible import all_possible_orders, possible_adjustments
from payjudge.rules.turn import advance, winner


@dataclass(frozen=True)
class PhaseRecord:
    """One phase of a random game: the position before it and the orders given."""

    game: int
    position: Position
    orders: dict[str, list[str]]

    @property
    def phase(self) -> str:
        return str(self.position.phase)


def movement_orders(pos: Position, rng: random.Random) -> dict[str, list[Order]]:
    m = pos.map
    lists = all_possible_orders(pos)
    owner = {u.province: p for p, by in lists.items() for u in by}
    options = {u.province: os for by in lists.values() for u, os in by.items()}
    units = [u for by in lists.values() for u in by]
    rng.shuffle(units)
    chosen: dict[str, Order] = {}

    # convoys first: an army picks a sea route, the fleets on it convoy it
    for unit in units:
        if unit.type is not UnitType.ARMY or unit.province in chosen:
            continue
        by_sea = [
            o
            for o in options[unit.province]
            if isinstance(o, Move)
            and (o.via_convoy or o.dest.province not in m.army_neighbours(unit.province))
        ]
        if by_sea and rng.random() < 0.35:
            move = rng.choice(by_sea)
            chosen[unit.province] = move
            for fleet in units:
                if fleet.province in chosen or fleet.type is not UnitType.FLEET:
                    continue
                match = Convoy(fleet, unit, move.dest)
                if rng.random() < 0.9 and match in options[fleet.province]:
                    chosen[fleet.province] = match

    supporters = []
    for unit in units:
        if unit.province in chosen:
            continue
        r = rng.random()
        if r < 0.03:
            continue  # no order: it holds
        if r < 0.12:
            chosen[unit.province] = Hold(unit)
        elif r < 0.65:
            moves = [
                o
                for o in options[unit.province]
                if isinstance(o, Move)
                and not o.via_convoy
                and (unit.type is UnitType.FLEET or o.dest.province in m.army_neighbours(unit.province))
            ]
            chosen[unit.province] = _pick_move(pos, owner[unit.province], moves, rng) if moves else Hold(unit)
        else:
            supporters.append(unit)

    for unit in supporters:
        supports = [o for o in options[unit.province] if isinstance(o, (SupportHold, SupportMove))]
        useful = [o for o in supports if _matches(o, chosen)]
        if useful and rng.random() < 0.85:
            chosen[unit.province] = rng.choice(useful)
        elif supports and rng.random() < 0.7:
            chosen[unit.province] = rng.choice(supports)
        else:
            # anything else it may do: a hold, a move (by convoy too), a convoy
            kind = rng.choice((Hold, Move, Convoy))
            others = [o for o in options[unit.province] if isinstance(o, kind)]
            chosen[unit.province] = rng.choice(others) if others else Hold(unit)
    out: dict[str, list[Order]] = {}
    for province, order in chosen.items():
        out.setdefault(owner[province], []).append(order)
    return out


def _pick_move(pos: Position, power: str, moves: list[Move], rng: random.Random) -> Move:
    """Attacks on other powers' units and moves to centres are likelier than others."""
    weights = []
    for move in moves:
        there = pos.owner_at(move.dest.province)
        w = 4 if there is not None and there != power else 1
        province = move.dest.province
        if pos.map.provinces[province].supply_center and pos.center_owner(province) != power:
            w += 2
        weights.append(w)
    return rng.choices(moves, weights)[0]


def _matches(support: Order, chosen: dict[str, Order]) -> bool:
    given = chosen.get(support.supported.province)  # type: ignore[union-attr]
    if isinstance(support, SupportMove):
        return (
            isinstance(given, Move)
            and given.dest.province == support.dest.province
            and (support.dest.coast is None or support.dest.coast == given.dest.coast)
        )
    return not isinstance(given, Move)


def retreat_orders(pos: Position, rng: random.Random) -> dict[str, list[Order]]:
    out: dict[str, list[Order]] = {}
    for power, by_unit in all_possible_orders(pos).items():
        for unit, options in by_unit.items():
            r = rng.random()
            retreats = [o for o in options if isinstance(o, Retreat)]
            if r < 0.1:
                continue  # no order: it disbands
            order = rng.choice(retreats) if retreats and r < 0.85 else Disband(unit)
            out.setdefault(power, []).append(order)
    return out


def adjustment_orders(pos: Position, rng: random.Random) -> dict[str, list[Order]]:
    out: dict[str, list[Order]] = {}
    for power in pos.map.power_names:
        options = possible_adjustments(pos, power)
        delta = pos.adjustment(power)
        if not options:
            continue
        if delta > 0:
            builds = [o for o in options if isinstance(o, Build)]
            rng.shuffle(builds)
            picked: list[Order] = []
            used: set[str] = set()
            for b in builds:
                if len(picked) < delta and b.unit.province not in used:
                    picked.append(b)
                    used.add(b.unit.province)
            if rng.random() < 0.2 and picked:
                picked.pop()
                if rng.random() < 0.5:
                    picked.append(Waive())
            out[power] = picked
        else:
            removes = [o for o in options if isinstance(o, Remove)]
            rng.shuffle(removes)
            # leave some removals to the civil-disorder rule
            count = -delta if rng.random() < 0.6 else rng.randrange(0, -delta)
            out[power] = removes[:count]
    return out


def random_game(seed: int, years: int = 10, game: int = 0) -> Iterator[PhaseRecord]:
    """The phases of one random game from the standard opening, for `years` years or
    until somebody wins."""
    rng = random.Random(seed)
    pos = Position.initial(load_variant("standard"))
    last_year = pos.phase.year + years - 1
    while pos.phase.year <= last_year:
        kind = pos.phase.type.name
        pick = {"MOVEMENT": movement_orders, "RETREATS": retreat_orders, "ADJUSTMENTS": adjustment_orders}[
            kind
        ]
        orders = pick(pos, rng)
        texts = {p: [str(o) for o in os] for p, os in sorted(orders.items())}
        yield PhaseRecord(game, pos, texts)
        report, pos = advance(pos, texts)
        if report.errors:  # every order was drawn from the legal ones
            raise AssertionError(f"seed {seed}: rejected orders {report.errors}")
        if winner(pos):
            return


def random_games(seed: int, count: int, years: int = 10) -> Iterator[PhaseRecord]:
    """`count` games; game `i` is played from the seed `seed * 1000 + i`."""
    for i in range(count):
        yield from random_game(seed * 1000 + i, years, game=i)


def units_json(pos: Position) -> dict[str, list[str]]:
    return {p: sorted(str(u) for u in us) for p, us in sorted(pos.units.items())}


def centers_json(pos: Position) -> dict[str, list[str]]:
    return {p: sorted(cs) for p, cs in sorted(pos.centers.items())}


def phase_cases(records: list[PhaseRecord]) -> Iterator[tuple[dict, list[PhaseRecord]]]:
    """`payjudge adjudicate` inputs, one per movement or adjustment phase, with the
    phases each covers. A retreat phase cannot start a case (the input has no dislodged
    units), so it rides with the movement phase before it."""
    i = 0
    while i < len(records):
        first = records[i]
        group = [first]
        if first.position.phase.is_retreats:  # pragma: no cover - never happens
            raise AssertionError("a retreat phase with no movement before it")
        if (
            first.position.phase.is_movement
            and i + 1 < len(records)
            and records[i + 1].game == first.game
            and records[i + 1].position.phase.is_retreats
        ):
            group.append(records[i + 1])
        doc = {
            "variant": "standard",
            "phase": first.phase,
            "units": units_json(first.position),
            "centers": centers_json(first.position),
            "orders": [r.orders for r in group],
        }
        yield doc, group
        i += len(group)
