"""One exchange phase through `run_exchange`: the float, then a year's exchange with a
dividend, trades, a share issue, an election and new worths; money and shares conserved
(hypothesis over random sheets)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from payjudge.payola.exchange.election import Reason
from payjudge.payola.exchange.market import MarketOrder, Side
from payjudge.payola.exchange.phase import ExchangeSheet, MarketState, MoneyKind, float_state, run_exchange

COMPANIES = ("FRANCE", "ITALY")
INVESTORS = ("ALICE", "BOB", "CAROL")
PLAYING = frozenset(INVESTORS)


def buy(acc, n, company, p):
    return MarketOrder(acc, Side.BUY, company, n, p)


def sell(acc, n, company, p):
    return MarketOrder(acc, Side.SELL, company, n, p)


def _totals(outcome, balances):
    after = dict(balances)
    for m in outcome.money:
        after[m.account] = after.get(m.account, 0) + m.amount
    return after


def test_the_float_sells_the_pools_and_gives_the_largest_holders_the_companies():
    state = float_state(COMPANIES, 10, {"PAR": 16}, reserve=1)
    balances = {"FRANCE": 48, "ITALY": 48, "@ALICE": 50, "@BOB": 50, "@CAROL": 50}
    sheets = {
        "@ALICE": ExchangeSheet("@ALICE", (buy("@ALICE", 6, "FRANCE", 5),)),
        "@BOB": ExchangeSheet("@BOB", (buy("@BOB", 6, "FRANCE", 3), buy("@BOB", 2, "ITALY", 2))),
        "@CAROL": ExchangeSheet("@CAROL", (buy("@CAROL", 4, "FRANCE", 2),)),
        # a company sheet at the float counts for nothing
        "FRANCE": ExchangeSheet("FRANCE", (), dividend=3, worths={"PAR": 40}),
    }
    votes = {"FRANCE": {"CAROL": "CAROL"}}
    out = run_exchange(state, sheets, balances, votes, PLAYING, seed=5, float_price=1)
    assert [(c.company, c.price, c.volume) for c in out.clearings] == [
        ("FRANCE", 3, 10),
        ("ITALY", 1, 2),
    ]  # sellers left over: the lowest
    assert out.state.register["FRANCE"] == {"@ALICE": 6, "@BOB": 4}
    assert out.state.register["ITALY"] == {"@BOB": 2, "ITALY": 8}
    # CAROL's vote has no shares behind it: the largest holders take over
    assert out.state.ceos == {"FRANCE": "ALICE", "ITALY": "BOB"}
    assert out.elections[0].reason is Reason.LARGEST_HOLDER
    assert out.dividends == () and out.state.worths == {"PAR": 16}
    after = _totals(out, balances)
    assert after == {"FRANCE": 78, "ITALY": 50, "@ALICE": 32, "@BOB": 36, "@CAROL": 50}
    assert sum(after.values()) == sum(balances.values())


def test_a_year_with_a_dividend_trades_an_issue_an_election_and_worths():
    state = MarketState(
        shares={"FRANCE": 10, "ITALY": 10},
        register={"FRANCE": {"@ALICE": 5, "@BOB": 3, "FRANCE": 2}, "ITALY": {"@CAROL": 10}},
        ceos={"FRANCE": "ALICE", "ITALY": "CAROL"},
        worths={"PAR": 16, "BRE": 16, "MAR": 16},
        last_prices={"FRANCE": 3, "ITALY": 2},
    )
    balances = {"FRANCE": 95, "ITALY": 10, "@ALICE": 20, "@BOB": 40, "@CAROL": 5}
    sheets = {
        # ALICE sells out of FRANCE; BOB buys and votes himself in
        "@ALICE": ExchangeSheet("@ALICE", (sell("@ALICE", 5, "FRANCE", 4),)),
        "@BOB": ExchangeSheet("@BOB", (buy("@BOB", 6, "FRANCE", 5),)),
        # CAROL commits more than she holds (5 + 5 of dividend = 10 < 12): cancelled
        "@CAROL": ExchangeSheet("@CAROL", (buy("@CAROL", 3, "FRANCE", 4),)),
        "FRANCE": ExchangeSheet(
            "FRANCE", (sell("FRANCE", 1, "FRANCE", 5),), dividend=20, worths={"PAR": 20, "BRE": 12}
        ),
    }
    votes = {"FRANCE": {"ALICE": "ALICE", "BOB": "BOB"}}
    out = run_exchange(state, sheets, balances, votes, PLAYING, seed=1)
    (d,) = out.dividends
    assert (d.per_share, d.lowered, d.total) == (11, True, 88)  # 95 // 8
    assert [(c.account, c.company) for c in out.cancelled] == [("@CAROL", None)]
    (france,) = out.clearings
    assert (france.price, france.volume) == (5, 6)
    assert out.state.register["FRANCE"] == {"@BOB": 9, "FRANCE": 1}
    assert out.state.ceos["FRANCE"] == "BOB" and out.state.ceos["ITALY"] == "CAROL"
    assert out.state.worths == {"PAR": 20, "BRE": 12, "MAR": 16}
    assert out.state.last_prices == {"FRANCE": 5, "ITALY": 2}
    after = _totals(out, balances)
    assert after == {
        "FRANCE": 95 - 88 + 5,
        "ITALY": 10,
        "@ALICE": 20 + 55 + 25,
        "@BOB": 40 + 33 - 30,
        "@CAROL": 5,
    }
    assert sum(after.values()) == sum(balances.values())
    kinds = {m.kind for m in out.money}
    assert kinds == {MoneyKind.DIVIDEND_OUT, MoneyKind.DIVIDEND_IN, MoneyKind.PURCHASE, MoneyKind.SALE}


ACCOUNTS = ("@ALICE", "@BOB", "@CAROL", "FRANCE", "ITALY")
order = st.builds(
    MarketOrder,
    account=st.sampled_from(ACCOUNTS),
    side=st.sampled_from(Side),
    company=st.sampled_from(COMPANIES),
    shares=st.integers(1, 10),
    price=st.integers(1, 9),
)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(order, max_size=10),
    st.dictionaries(st.sampled_from(COMPANIES), st.integers(0, 30)),
    st.lists(st.integers(0, 10), min_size=3, max_size=3),
    st.dictionaries(st.sampled_from(ACCOUNTS), st.integers(0, 100)),
    st.integers(0, 10**6),
    st.booleans(),
)
def test_money_and_shares_are_conserved(orders, declared, holdings, balances, seed, is_float):
    a, b, c = holdings
    register = {
        "FRANCE": {"@ALICE": a, "@BOB": b, "FRANCE": 10 - min(a + b, 10)},
        "ITALY": {"@CAROL": c, "ITALY": 10 - c},
    }
    if a + b > 10:
        register["FRANCE"] = {"@ALICE": a, "@BOB": 10 - a, "FRANCE": 0}
    state = MarketState({"FRANCE": 10, "ITALY": 10}, register, {"FRANCE": "ALICE", "ITALY": None}, {}, {})
    sheets = {
        acc: ExchangeSheet(acc, tuple(o for o in orders if o.account == acc), dividend=declared.get(acc))
        for acc in ACCOUNTS
    }
    out = run_exchange(state, sheets, balances, {}, PLAYING, seed, float_price=1 if is_float else None)
    after = _totals(out, balances)
    assert sum(after.values()) == sum(balances.values())
    assert all(v >= 0 for v in after.values())
    for company in COMPANIES:
        held = out.state.register[company]
        assert sum(held.values()) == 10 and all(n >= 0 for n in held.values())
        moved = sum(m.amount for m in out.shares if m.company == company)
        assert moved == 0


def test_the_exchange_phase_comes_after_the_years_last_diplomacy_phase():
    from payjudge.payola.exchange.phase import phase_after
    from payjudge.rules.phase import Phase

    p = Phase.parse
    assert phase_after(p("W1900X")) == p("S1901M")  # the float opens the game
    assert phase_after(p("W1901A"), p("S1902M")) == p("W1901X")
    assert phase_after(p("F1901R"), p("S1902M")) == p("W1901X")  # no adjustments to make
    assert phase_after(p("F1901M"), p("S1902M")) == p("W1901X")  # no retreats either
    assert phase_after(p("F1901M"), p("W1901A")) == p("W1901A")
    assert phase_after(p("W1901X")) == p("S1902M")
