"""Properties of the call market and of dividends over random books (hypothesis): shares
and money are conserved, nobody trades beyond its limit, and the order in which the
orders come never changes the outcome."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from payjudge.payola.exchange.dividends import dividend
from payjudge.payola.exchange.market import MarketOrder, Side, clear

ACCOUNTS = ("FRANCE", "@ALICE", "@BOB", "@CAROL", "@DAVE")
order = st.builds(
    MarketOrder,
    account=st.sampled_from(ACCOUNTS),
    side=st.sampled_from(Side),
    company=st.just("FRANCE"),
    shares=st.integers(1, 10),
    price=st.integers(1, 12),
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(order, max_size=8), st.integers(1, 12), st.integers(0, 2**32), st.randoms(use_true_random=False)
)
def test_the_market_conserves_and_respects_limits(orders, last, seed, rnd):
    result = clear("FRANCE", orders, last, seed)
    money = {}
    for f in result.fills:
        sign = -1 if f.order.side is Side.BUY else 1
        money[f.order.account] = money.get(f.order.account, 0) + sign * f.amount
        assert 0 <= f.shares <= f.order.shares
        if f.shares:
            assert (f.price <= f.order.price) if f.order.side is Side.BUY else (f.price >= f.order.price)
    assert sum(money.values()) == 0  # no AgP created or lost
    bought = sum(f.shares for f in result.fills if f.order.side is Side.BUY)
    sold = sum(f.shares for f in result.fills if f.order.side is Side.SELL)
    assert bought == sold == result.volume
    if result.price is None:
        assert result.volume == 0
    shuffled = list(orders)
    rnd.shuffle(shuffled)
    again = clear("FRANCE", shuffled, last, seed)
    assert sorted(
        (f.order.account, f.order.side.value, f.order.price, f.order.shares, f.shares) for f in again.fills
    ) == sorted(
        (f.order.account, f.order.side.value, f.order.price, f.order.shares, f.shares) for f in result.fills
    )


@given(
    st.integers(0, 50),
    st.integers(0, 500),
    st.dictionaries(st.sampled_from(ACCOUNTS), st.integers(0, 10)),
)
def test_a_dividend_never_overdraws(declared, treasury, register):
    d = dividend("FRANCE", declared, treasury, register)
    assert 0 <= d.total <= treasury
    assert d.per_share <= declared
    assert "FRANCE" not in dict(d.payments)  # the pool takes nothing
