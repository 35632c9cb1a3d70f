"""The end of an Exchange game: liquidation (money conserved, rounding stays in the
company, pools take nothing) and the ranking by net worth (ties share the place)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from payjudge.payola.exchange.liquidation import liquidate, ranking
from payjudge.payola.exchange.phase import MoneyKind


def test_liquidation_pays_the_holders_pro_rata_rounded_down():
    moves = liquidate(
        {"FRANCE": 100, "ITALY": 40, "TURKEY": 30},
        {
            "FRANCE": {"@ALICE": 3, "@BOB": 3, "@CAROL": 1, "FRANCE": 3},  # the pool takes nothing
            "ITALY": {"ITALY": 10},  # nobody holds ITALY: its treasury counts for no one
            "TURKEY": {"@BOB": 10},
        },
    )
    totals: dict[str, int] = {}
    for m in moves:
        totals[m.account] = totals.get(m.account, 0) + m.amount
    # 100 x 3 / 7 = 42 (twice), 100 x 1 / 7 = 14: the 2 AgP left by rounding stay in FRANCE
    assert totals == {"FRANCE": -98, "@ALICE": 42, "@BOB": 72, "@CAROL": 14, "TURKEY": -30}
    assert sum(m.amount for m in moves) == 0
    assert {m.kind for m in moves} == {MoneyKind.LIQUIDATION_OUT, MoneyKind.LIQUIDATION_IN}


def test_ranking_shares_the_top():
    ranks = ranking({"@ALICE": 80, "@BOB": 120, "@CAROL": 120, "@DAVE": 5, "FRANCE": 999})
    assert [(r.place, r.investor, r.net_worth) for r in ranks] == [
        (1, "@BOB", 120),
        (1, "@CAROL", 120),
        (3, "@ALICE", 80),
        (4, "@DAVE", 5),
    ]


@given(
    st.dictionaries(st.sampled_from(("FRANCE", "ITALY")), st.integers(0, 500)),
    st.dictionaries(st.sampled_from(("@A", "@B", "@C", "FRANCE")), st.integers(0, 10)),
)
def test_liquidation_conserves_money_and_never_overdraws(treasuries, register):
    moves = liquidate(treasuries, {"FRANCE": register, "ITALY": register})
    assert sum(m.amount for m in moves) == 0
    for company, treasury in treasuries.items():
        out = sum(m.amount for m in moves if m.account == company)
        assert -treasury <= out <= 0
