"""The line-and-pattern reduction of `payjudge/payola/overspend/` against the literal rounds of
rule 5.5 (`reduction.reduce_literal`), where it is hardest: powers sitting at their limits,
units going back and forth between them (tugs of war), many ties, plateaus, dummies,
eBayola; and `linear.Lin` comparisons against counting."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from payjudge.payola import overspend
from payjudge.payola.acceptance import expand_all
from payjudge.payola.book import compile_book
from payjudge.payola.overspend import line, reduce_overspending
from payjudge.payola.overspend.affine import Affine, Region, unit_slope, unpack
from payjudge.payola.overspend.plans import Plans
from payjudge.payola.reduction import overspending, reduce_literal
from payjudge.payola.rules import Flag, PayolaRules

from .randomsheets import heavy_auction, random_auction

FLAGS = [[], [], [], ["EBAYOLA"], ["EBAYOLA", "PUBLIC_TOTALS"], ["NO_PLATEAU"]]


def _reduction(args, seed: int):
    """The arguments of the reduction procedures for an auction (as `run_auction` makes them)."""
    position, sheets, balances, accept, rules, dummies = args
    book = compile_book(
        position, sheets, expand_all(accept, position.map, seed, dummies), rules, frozenset(dummies)
    )
    limits = [
        max(balances.get(p, 0) - (sheets[p].savings if p in sheets and rules.savings_allowed else 0), 0)
        for p in position.map.power_names
    ]
    return book, limits, Flag.EBAYOLA in rules, Flag.PUBLIC_TOTALS in rules


def _check(args) -> None:
    literal = reduce_literal(*args)
    assert reduce_overspending(*args, shortcuts=False) == literal
    assert reduce_overspending(*args) == literal


def test_heavy_auctions(monkeypatch):
    """A fixed corpus, so that a regression shows the same seed every time; and the corpus
    does go through tugs of war (whole periods of a pattern jumped over)."""
    jumps = []
    whole_periods = overspend.whole_periods

    def counting(*args):
        periods = whole_periods(*args)
        jumps.append(periods > 0)
        return periods

    monkeypatch.setattr(overspend, "whole_periods", counting)
    for seed in range(250):
        rng = random.Random(f"tugs:{seed}")
        _check(_reduction(heavy_auction(rng, rules=PayolaRules.from_flags(FLAGS[seed % len(FLAGS)])), seed))
    assert sum(jumps) >= 20


@pytest.mark.slow
def test_heavy_auctions_long():
    for seed in range(250, 600):
        rng = random.Random(f"tugs:{seed}")
        _check(_reduction(heavy_auction(rng, rules=PayolaRules.from_flags(FLAGS[seed % len(FLAGS)])), seed))


def _big_ebayola(seed: int):
    """eBayola with big balances: thousands of rounds, second prices and rebates moving
    with every round, tugs of war whose rhythms drift (the cases whose cost grew with the
    money)."""
    rng = random.Random(f"big-ebayola:{seed}")
    flags = ["EBAYOLA", "PUBLIC_TOTALS"] if seed % 4 == 3 else ["EBAYOLA"]
    args = heavy_auction(
        rng, rules=PayolaRules.from_flags(flags), balances=(1000, 2500), offers=(20, 40), dummies=0
    )
    return _reduction(args, seed)


def test_big_ebayola_auctions():
    for seed in range(4):
        _check(_big_ebayola(seed))


@pytest.mark.slow
def test_big_ebayola_auctions_long():
    for seed in range(4, 24):
        _check(_big_ebayola(seed))


def _big_plain(seed: int):
    """Plain rules with big balances: long first lines, where units are followed by their
    offers past their piece ends (docs/overexpenditure.md, Step 4½)."""
    rng = random.Random(f"big-plain:{seed}")
    flags = ["NO_PLATEAU"] if seed % 4 == 3 else []
    args = heavy_auction(rng, rules=PayolaRules.from_flags(flags), balances=(1000, 2500), offers=(20, 40))
    return _reduction(args, seed)


def test_big_plain_auctions(monkeypatch):
    """fast == literal where units are followed past their offers' piece ends, and they
    are (the corpus does go through piece-end updates and comparison ends)."""
    made: list[Plans] = []

    def recording(*args):
        made.append(Plans(*args))
        return made[-1]

    monkeypatch.setattr(overspend, "Plans", recording)  # (the entry point is interpreted)
    for seed in range(4):
        _check(_big_plain(seed))
    assert sum(p.piece_ends for p in made) >= 100
    assert sum(p.comparison_ends for p in made) >= 10


@pytest.mark.slow
def test_big_plain_auctions_long():
    for seed in range(4, 16):
        _check(_big_plain(seed))


def test_small_auctions():
    for seed in range(600):
        rng = random.Random(seed)
        flags = rng.choice([[], ["EBAYOLA"], ["EBAYOLA", "PUBLIC_TOTALS"]])
        args = random_auction(
            rng,
            rules=PayolaRules.from_flags(flags),
            offers=rng.choice([3, 6, 10]),
            high=rng.choice([2, 5, 12]),
            balance_high=rng.choice([2, 8, 20]),
            savings_high=rng.choice([0, 6]),
            dummies=rng.choice([0, 0, 1]),
            plateaus=rng.random() < 0.7,
        )
        _check(_reduction(args, seed))


@given(
    seed=st.integers(0, 10**9),
    flags=st.sampled_from(FLAGS),
    dummies=st.sampled_from([0, 0, 1, 2]),
    balance=st.sampled_from([30, 100, 400]),
)
@settings(max_examples=60, deadline=None)
def test_heavy_auctions_hypothesis(seed, flags, dummies, balance):
    rng = random.Random(seed)
    _check(
        _reduction(
            heavy_auction(rng, rules=PayolaRules.from_flags(flags), dummies=dummies, balances=(balance,)),
            seed,
        )
    )


def test_plans_say_who_overspends_at_every_state():
    """The plans kept across the reduction (checked only when their budget runs out) give
    who overspends exactly as deciding every unit again, along walks of rounds of random
    powers, long jumps, and steps back."""
    for seed in range(40):
        rng = random.Random(f"plans:{seed}")
        book, limits, ebayola, public = _reduction(
            heavy_auction(rng, rules=PayolaRules.from_flags(FLAGS[seed % len(FLAGS)])), seed
        )
        plans = Plans(book, limits, ebayola, public)
        n = len(book.powers)
        k = [0] * n
        for _ in range(120):
            move = rng.random()
            if move < 0.7:  # a round of some powers
                k = [x + (rng.random() < 0.5) for x in k]
            elif move < 0.9:  # a jump
                k = [x + rng.choice([0, rng.randrange(60)]) for x in k]
            else:  # back to an earlier state (as when a pattern is checked from its start)
                k = [max(x - rng.randrange(20), 0) for x in k]
            assert plans.overspending(k) == overspending(book, k, limits, ebayola, public)


def test_lines_say_when_the_overspending_powers_change():
    """`Line.departure` gives the first step at which the overspending powers differ from
    the expected ones, as deciding every unit at every step does: along the first line
    (every power), along random directions, and along parallel lines a step apart that
    share the plans they make (as the lines of a pattern check do), where plans made on one
    line are reused on the next."""
    for seed in range(16):
        rng = random.Random(f"lines:{seed}")
        flags = [] if seed % 4 else ["NO_PLATEAU"]
        rules = PayolaRules.from_flags(flags)
        auction = heavy_auction(rng, rules=rules, balances=(300, 600), offers=(20, 40))
        book, limits, ebayola, public = args = _reduction(auction, seed)
        plans = Plans(book, limits, ebayola, public)
        n = len(book.powers)
        for _ in range(6):
            start = [rng.randrange(40) for _ in range(n)]
            direction = rng.choice([[1] * n, [rng.randrange(3) for _ in range(n)]])
            if not any(direction):
                direction[0] = 1
            expected = overspending(book, start, limits, ebayola, public)
            made: dict = {}
            at = start
            for _ in range(3):  # parallel lines, one round (of some powers) apart
                at = [k + (rng.random() < 0.5) for k in at]
                horizon = 150
                assert line.Line(plans, at, direction, made).departure(expected, horizon) == _departure(
                    args, at, direction, expected, horizon
                )


def _departure(args, start, direction, expected, horizon: int) -> int:
    """`Line.departure`, step by step (every unit decided at every step)."""
    book, limits, ebayola, public = args
    for q in range(horizon):
        at = [k + q * d for k, d in zip(start, direction)]
        if overspending(book, at, limits, ebayola, public) != expected:
            return q
    return horizon


@given(
    a=st.integers(-30, 30),
    sa=st.tuples(st.integers(-4, 4), st.integers(-4, 4)),
    b=st.integers(-30, 30),
    sb=st.tuples(st.integers(-4, 4), st.integers(-4, 4)),
    op=st.sampled_from(["<", "<=", ">", ">=", "==", "!="]),
)
def test_a_comparison_holds_exactly_where_its_conditions_hold(a, sa, b, sb, op):
    """At every state k >= k0 (two powers) where the recorded conditions hold, the
    comparison answers as at k0; for the orderings, the conditions fail exactly where the
    answer changes (`==`/`!=` may give up early, where the sign may change)."""
    region = Region()
    x = Affine(a, unit_slope(0, sa[0]) + unit_slope(1, sa[1]), region)
    y = Affine(b, unit_slope(0, sb[0]) + unit_slope(1, sb[1]), region)
    compare = {
        "<": lambda u, v: u < v,
        "<=": lambda u, v: u <= v,
        ">": lambda u, v: u > v,
        ">=": lambda u, v: u >= v,
        "==": lambda u, v: u == v,
        "!=": lambda u, v: u != v,
    }[op]
    now = compare(x, y)
    assert now == compare(a, b)
    for d0 in range(12):
        for d1 in range(12):
            same = compare(a + sa[0] * d0 + sa[1] * d1, b + sb[0] * d0 + sb[1] * d1) == now
            holds = all(d + _dot(packed, (d0, d1)) > 0 for d, packed in region.conditions)
            if op in ("==", "!="):
                assert same or not holds
            else:
                assert same == holds


def _dot(packed: int, steps: tuple[int, int]) -> int:
    return sum(c * steps[p] for p, c in unpack(packed).items())
