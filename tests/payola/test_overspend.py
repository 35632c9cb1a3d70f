"""The line-and-pattern reduction of `payjudge/payola/overspend/` against the literal rounds of
rule 5.5 (`reduction.reduce_literal`), and `linear.Lin` comparisons against counting."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from payjudge.payola.overspend import reduce_overspending
from payjudge.payola.overspend.linear import Lin, Window
from payjudge.payola.reduction import reduce_literal
from payjudge.payola.rules import PayolaRules

from .randomsheets import heavy_auction, random_auction
from .test_tugs import FLAGS, _reduction


def _check(args) -> None:
    literal = reduce_literal(*args)
    assert reduce_overspending(*args, shortcuts=False) == literal
    assert reduce_overspending(*args) == literal


def test_heavy_auctions():
    for seed in range(80):
        rng = random.Random(f"tugs:{seed}")
        _check(_reduction(heavy_auction(rng, rules=PayolaRules.from_flags(FLAGS[seed % len(FLAGS)])), seed))


@pytest.mark.slow
def test_heavy_auctions_long():
    for seed in range(80, 400):
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
@settings(max_examples=30, deadline=None)
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
