"""Exchange Payola's pure engine, as data (tests/payola/exchange/cases/*.json): the call
market's clearing, dividends and elections; worths and income on the standard map."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from payjudge.payola.exchange.dividends import dividend
from payjudge.payola.exchange.election import Reason, elect
from payjudge.payola.exchange.market import MarketOrder, Side, clear
from payjudge.payola.exchange.problems import ExchangeProblem, ProblemKind
from payjudge.payola.exchange.worth import (
    allowance,
    check_worths,
    standard_worth,
    starting_worths,
    year_income,
)
from payjudge.payola.rules import PayolaRules
from payjudge.rules.mapfile import load_variant
from payjudge.rules.position import Position

CASES = Path(__file__).parent / "cases"


def _cases(name: str) -> list[dict]:
    return json.loads((CASES / f"{name}.json").read_text())


def _orders(case: dict) -> list[MarketOrder]:
    return [MarketOrder(acc, Side(side), case["company"], n, p) for acc, side, n, p in case["orders"]]


@pytest.mark.parametrize("case", _cases("market"), ids=lambda c: c["name"])
def test_clearing(case):
    orders = _orders(case)
    result = clear(case["company"], orders, case["last_price"], case["seed"])
    assert (result.price, result.volume) == (case["price"], case["volume"])
    assert [f.shares for f in result.fills] == case["fills"]
    # bought equals sold, nobody pays above its limit or sells below it
    bought = sum(f.shares for f in result.fills if f.order.side is Side.BUY)
    sold = sum(f.shares for f in result.fills if f.order.side is Side.SELL)
    assert bought == sold == result.volume
    for f in result.fills:
        assert 0 <= f.shares <= f.order.shares
        if f.shares:
            assert (f.price <= f.order.price) if f.order.side is Side.BUY else (f.price >= f.order.price)
    # the order in which the sheets arrive never matters
    for perm in itertools.islice(itertools.permutations(range(len(orders))), 24):
        again = clear(case["company"], [orders[i] for i in perm], case["last_price"], case["seed"])
        assert {(f.order, f.shares) for f in again.fills} == {(f.order, f.shares) for f in result.fills}


@pytest.mark.parametrize("case", _cases("dividends"), ids=lambda c: c["name"])
def test_dividends(case):
    d = dividend(case["company"], case["declared"], case["treasury"], case["register"])
    assert d.per_share == case["per_share"]
    assert dict(d.payments) == case["payments"]
    assert d.lowered == case["lowered"]
    assert d.total <= case["treasury"]


@pytest.mark.parametrize("case", _cases("elections"), ids=lambda c: c["name"])
def test_elections(case):
    e = elect("FRANCE", case["register"], case["votes"], case["incumbent"], case["playing"], case["seed"])
    assert (e.ceo, e.reason) == (case["ceo"], Reason(case["reason"]))
    assert [list(t) for t in e.tally] == case["tally"]


STANDARD = Position.initial(load_variant("standard"))
RULES = PayolaRules()


def test_starting_worths_spread_each_allowance_and_value_neutrals_at_the_standard_worth():
    worths = starting_worths(STANDARD, RULES)
    assert [allowance(n, STANDARD, RULES) for n in (1, 2, 3, 4, 5)] == [17, 33, 48, 62, 75]
    assert standard_worth(STANDARD, RULES) == 15  # 350 / 22
    assert {c: worths[c] for c in ("BRE", "MAR", "PAR")} == {"BRE": 16, "MAR": 16, "PAR": 16}
    assert {c: worths[c] for c in ("MOS", "SEV", "STP", "WAR")} == {
        "MOS": 16,
        "SEV": 16,
        "STP": 15,
        "WAR": 15,
    }
    assert worths["BEL"] == worths["SPA"] == 15
    assert len(worths) == 34


def test_income_is_the_worths_owned_capped_at_the_allowance():
    worths = starting_worths(STANDARD, RULES)
    france = ("BRE", "MAR", "PAR")
    assert year_income(france, worths, STANDARD, RULES) == 48
    # BEL and SPA taken: 16 x 3 + 15 x 2 = 78, capped at A(5) = 75, as ordinary Payola pays
    assert year_income((*france, "BEL", "SPA"), worths, STANDARD, RULES) == 75
    # a centre keeps its worth when captured: PAR set to 0 earns its captor nothing
    assert year_income(("PAR",), {**worths, "PAR": 0}, STANDARD, RULES) == 0
    # CAP applies to the allowance
    assert year_income((*france, "BEL", "SPA"), worths, STANDARD, PayolaRules(cap=50)) == 50


def test_check_worths():
    worths = starting_worths(STANDARD, RULES)
    france = ("BRE", "MAR", "PAR")
    assert check_worths("FRANCE", france, worths, {"PAR": 20, "BRE": 12}, STANDARD, RULES) == []
    assert check_worths("FRANCE", france, worths, {"BEL": 5}, STANDARD, RULES) == [
        ExchangeProblem(ProblemKind.NOT_OWNED, "FRANCE does not own BEL")
    ]
    assert check_worths("FRANCE", france, worths, {"PAR": 20}, STANDARD, RULES) == [
        ExchangeProblem(
            ProblemKind.OVER_ALLOWANCE,
            "FRANCE's centres would be worth 52 AgP, more than its allowance of 48 AgP for 3 centres",
        )
    ]
    assert check_worths("FRANCE", france, worths, {"PAR": -1}, STANDARD, RULES) == [
        ExchangeProblem(ProblemKind.NEGATIVE_WORTH, "a worth is a whole number of AgP, 0 or more (PAR -1)")
    ]


def test_exchange_income_comes_before_the_exchange_phase():
    """The year's income is paid when the year's last Diplomacy phase gives way to the
    exchange phase (not at the float, not when the exchange phase gives way to spring)."""
    from payjudge.payola.income import income_due
    from payjudge.payola.rules import Flag
    from payjudge.rules.phase import Phase

    rules = PayolaRules(flags=frozenset({Flag.EXCHANGE}))
    start, p = Phase.parse("W1900X"), Phase.parse
    assert not income_due(p("W1900X"), p("S1901M"), start, rules)  # the float: openings only
    assert income_due(p("W1901A"), p("W1901X"), start, rules)
    assert income_due(p("F1901M"), p("W1901X"), start, rules)  # no retreats, no builds
    assert not income_due(p("W1901X"), p("S1902M"), start, rules)
    assert not income_due(p("S1901M"), p("F1901M"), start, rules)


def test_exchange_year_end_pays_the_worths_owned():
    from payjudge.payola.exchange.worth import exchange_year_end

    worths = {**starting_worths(STANDARD, RULES), "PAR": 0, "BRE": 20}
    lines = exchange_year_end(STANDARD, {"FRANCE": 10, "ITALY": 5}, worths, RULES)
    assert (lines["FRANCE"].tax, lines["FRANCE"].balance) == (36, 46)
    assert (lines["ITALY"].tax, lines["ITALY"].balance) == (48, 53)


def test_a_departing_ceos_company_passes_to_the_largest_other_stockholder():
    from payjudge.payola.exchange.election import successor

    register = {"ALICE": 6, "BOB": 3, "CAROL": 3, "DAVE": 5}
    playing = {"ALICE", "BOB", "CAROL"}  # DAVE resigned too
    assert successor("FRANCE", register, "ALICE", playing, seed=1) in {"BOB", "CAROL"}
    assert successor("FRANCE", register, "ALICE", playing, seed=1) == successor(
        "FRANCE", register, "ALICE", playing, seed=1
    )
    assert successor("FRANCE", {"ALICE": 6, "BOB": 1}, "ALICE", playing, seed=1) == "BOB"
    assert successor("FRANCE", {"ALICE": 10}, "ALICE", playing, seed=1) is None  # unmanaged
