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
from payjudge.payola.overspend import reduce_overspending
from payjudge.payola.overspend.linear import Lin, Window
from payjudge.payola.reduction import reduce_literal
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


@given(
    a=st.integers(-30, 30),
    sa=st.integers(-4, 4),
    b=st.integers(-30, 30),
    sb=st.integers(-4, 4),
    op=st.sampled_from(["<", "<=", ">", ">=", "==", "!="]),
)
def test_a_comparison_holds_exactly_until_its_window_ends(a, sa, b, sb, op):
    """Every step before the window's end answers as step 0; the end may come early only
    for `==`/`!=` (which stop where the sign may change)."""
    win = Window()
    x, y = Lin(a, sa, win), Lin(b, sb, win)
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
    first = next((d for d in range(1, 200) if compare(a + sa * d, b + sb * d) != now), None)
    if op in ("==", "!="):
        assert first is None or win.end <= first
    elif first is None:
        assert win.end > 60
    else:
        assert win.end == first
