"""Tin Cup (rule 6.3): an ignored offer has no effect at all on the auction.

Random sheets under BLIND, with offers to units that are not there (or not of the type
written, or supporting a unit that is not there) slipped in among the real lines: every
order, total, payment, expenditure, reduction and balance is what the same sheets without
those lines give, and exactly those lines are reported as ignored.
"""

from __future__ import annotations

import random

import pytest

from payjudge.payola.auction import run_auction
from payjudge.payola.rules import PayolaRules
from payjudge.rules.geography import Terrain, UnitType
from payjudge.text.sheet import parse_sheet

from .randomsheets import AcceptanceList, position_pool, random_sheet_text

BLIND = PayolaRules.from_flags(["BLIND"])


def _phantoms(rng: random.Random, pos) -> list[str]:
    land = (p.name for p in pos.map.provinces.values() if p.terrain is Terrain.LAND)
    empty = sorted(name for name in land if pos.unit_at(name) is None)
    units = [u for _, u in pos.all_units()]
    real = rng.choice(units)
    other = "F" if real.type is UnitType.ARMY else "A"
    lines = [
        f"{rng.randint(1, 30)} : A {rng.choice(empty)} H",
        f"{rng.randint(1, 30)} : {other} {real.location} H",  # the type does not match
    ]
    # a real unit's support of an army that is not there, next to it
    pairs = [(u, e) for u in units for e in empty if pos.map.reaches_province(u.type, u.location, e)]
    if pairs:
        supporter, absent = rng.choice(pairs)
        lines.append(f"{rng.randint(1, 30)} > {supporter} S A {absent} H")
    return lines


def _auction(pos, texts, balances, accept, seed):
    sheets = {}
    for p, text in texts.items():
        parsed = parse_sheet(text, pos, p, BLIND, balance=balances[p])
        assert parsed.sheet is not None, (text, parsed.problems)
        sheets[p] = parsed.sheet
    return run_auction(pos, sheets, balances, accept, BLIND, seed=seed)


@pytest.mark.parametrize("seed", range(40))
def test_ignored_offers_change_nothing(seed):
    rng = random.Random(seed)
    pos = rng.choice(position_pool())
    powers = list(pos.map.power_names)
    balances = {p: rng.randint(0, 30) for p in powers}
    accept = {p: AcceptanceList(tuple(rng.sample(powers, len(powers)))) for p in powers}
    plain, salted, slipped = {}, {}, {}
    for p in powers:
        text = random_sheet_text(rng, pos, p, rng.randint(1, 6), 12, savings_high=10)
        lines = text.splitlines()
        extra = _phantoms(rng, pos)
        mixed = lines[:]
        for line in extra:
            mixed.insert(rng.randrange(len(mixed) + 1), line)
        plain[p], salted[p], slipped[p] = text, "\n".join(mixed), extra
    a = _auction(pos, plain, balances, accept, seed)
    b = _auction(pos, salted, balances, accept, seed)
    assert a.ignored == {}
    assert {p: sorted(str(o) for o in os) for p, os in b.ignored.items()} == {
        p: sorted(str(parse_sheet(x, pos, p, BLIND).sheet) for x in extra) for p, extra in slipped.items()
    }
    for field in ("orders", "totals", "spent", "balances", "reductions", "paid"):
        assert dict(getattr(a, field)) == dict(getattr(b, field)), field
