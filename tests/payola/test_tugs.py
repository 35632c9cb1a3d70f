"""The fast reduction where it is hardest: powers sitting at their limits, units going back and
forth between them (tugs of war, `payjudge/payola/tugs.py`), many ties, plateaus, dummies,
eBayola. Everything is checked against the literal rounds of rule 5.5, and the class-by-class
arithmetic of `slides.py` against brute force."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from payjudge.payola import tugs
from payjudge.payola.acceptance import expand_all
from payjudge.payola.book import compile_book
from payjudge.payola.reduction import reduce_fast, reduce_literal
from payjudge.payola.rules import Flag, PayolaRules
from payjudge.payola.schedule import INF
from payjudge.payola.slides import SlidingPlanner

from .randomsheets import heavy_auction

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


def _check(seed: int, flags: list[str], **kw) -> list[int]:
    rng = random.Random(f"tugs:{seed}")
    args = _reduction(heavy_auction(rng, rules=PayolaRules.from_flags(flags), **kw), seed)
    literal = reduce_literal(*args)
    assert reduce_fast(*args, shortcuts=False) == literal, (seed, flags)
    assert reduce_fast(*args) == literal, (seed, flags)
    return literal


def test_heavy_auctions(monkeypatch):
    """A fixed corpus, so that a regression shows the same seed every time; and the corpus
    does go through tugs of war (a pattern found and followed)."""
    found = []
    establish = tugs.Tugs.establish

    def counting(self, groups, t, now):
        pattern = establish(self, groups, t, now)
        found.append(pattern is not None)
        return pattern

    monkeypatch.setattr(tugs.Tugs, "establish", counting)
    for seed in range(250):
        _check(seed, FLAGS[seed % len(FLAGS)])
    assert sum(found) >= 20


@given(
    seed=st.integers(0, 10**9),
    flags=st.sampled_from(FLAGS),
    dummies=st.sampled_from([0, 0, 1, 2]),
    balance=st.sampled_from([30, 100, 400]),
)
@settings(max_examples=60, deadline=None)
def test_heavy_auctions_hypothesis(seed, flags, dummies, balance):
    _check(seed, flags, dummies=dummies, balances=(balance,))


def _planner(rng: random.Random) -> SlidingPlanner:
    """A planner with no book: four powers, the first two following a random pattern."""
    pl = SlidingPlanner.__new__(SlidingPlanner)
    pl.volatile = [False] * 4
    pl.rate = [rng.randint(0, 1) for _ in range(4)]
    pl.kb = [rng.randint(0, 50) for _ in range(4)]
    pl.tb = [rng.randint(0, 10)] * 4
    pl.L, pl.cum, pl._cls_t = rng.randint(2, 9), {}, -1
    for p in (0, 1):
        steps = [rng.randint(0, 1) for _ in range(pl.L)]
        steps[0] = 1
        cum = [0]
        for x in steps:
            cum.append(cum[-1] + x)
        pl.cum[p], pl.rate[p] = cum, 0
    return pl


def test_class_by_class_windows_are_exact():
    """first_fail and _first_step along a pattern give the very first step, as counting does."""
    rng = random.Random(5)
    for _ in range(3000):
        pl = _planner(rng)
        t0 = pl.tb[0] + rng.randint(0, 15)
        g = {q: rng.randint(-3, 3) for q in range(4)}
        strict = rng.random() < 0.5
        f0 = rng.randint(1 if strict else 0, 12)
        want = next(
            (
                d
                for d in range(1, 400)
                if (lambda v: v <= 0 if strict else v < 0)(
                    f0 + sum(x * (pl.rounds(q, t0 + d) - pl.rounds(q, t0)) for q, x in g.items())
                )
            ),
            INF,
        )
        got = pl.first_fail(g, f0, strict, t0)
        assert got == want or (want == INF and got >= 400), (g, f0, strict, pl.cum, pl.rate)
        target = pl.rounds(0, t0) + rng.randint(1, 20)
        pl.kend = [target]
        assert pl._first_step([(0, (0,))], t0) == next(
            t for t in range(t0, t0 + 2000) if pl.rounds(0, t) >= target
        )


def test_spender_is_evaluate():
    """The rounds taken one by one use `decide.Spender`: the very spending of `evaluate`."""
    from payjudge.payola.decide import Spender, evaluate, spending

    rng = random.Random(9)
    for seed in range(150):
        flags = FLAGS[seed % len(FLAGS)]
        book, _, ebayola, public = _reduction(heavy_auction(rng, rules=PayolaRules.from_flags(flags)), seed)
        spender = Spender(book, ebayola, public)
        top = max(book.flat) + max((e.plateau for e in book.entries), default=0) + 2
        for _ in range(5):
            k = [rng.randint(0, top) for _ in book.powers]
            assert spender.spending(k) == spending(book, evaluate(book, k, ebayola, public))
