"""Exchange Payola's mail lines (text/exchange.py) and the limits on a sheet when it is
sent (payola/exchange/orders.py), as data where it fits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from payjudge.payola.exchange.dividends import check_dividend
from payjudge.payola.exchange.market import MarketOrder, Side
from payjudge.payola.exchange.orders import check_orders
from payjudge.payola.exchange.phase import MarketState
from payjudge.payola.exchange.problems import ExchangeProblem, ProblemKind
from payjudge.text.exchange import (
    CeoVoteLine,
    DividendLine,
    PassLine,
    TradeLine,
    WorthLine,
    parse_exchange_line,
)
from payjudge.text.problems import LineError

COMPANIES = {"FRANCE": "FRANCE", "F": "FRANCE", "ITALY": "ITALY", "I": "ITALY"}
CENTRES = ("PAR", "BRE", "MAR", "ROM")
CASES = json.loads((Path(__file__).parent / "cases" / "lines.json").read_text())


def _shown(parsed) -> list:
    match parsed:
        case TradeLine(side, n, company, price):
            return ["trade", side.value, n, company, price]
        case PassLine():
            return ["pass"]
        case DividendLine(d):
            return ["dividend", d]
        case WorthLine(centre, worth):
            return ["worth", centre, worth]
        case CeoVoteLine(company, candidate):
            return ["vote", company, candidate]
    raise AssertionError(parsed)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["line"])
def test_lines(case):
    if "error" in case:
        with pytest.raises(LineError) as err:
            parse_exchange_line(case["line"], companies=COMPANIES, shares=10, centres=CENTRES)
        assert err.value.message == case["error"]
    else:
        parsed = parse_exchange_line(case["line"], companies=COMPANIES, shares=10, centres=CENTRES)
        assert _shown(parsed) == case["parsed"]


STATE = MarketState(
    shares={"FRANCE": 10, "ITALY": 10},
    register={"FRANCE": {"@ALICE": 3, "FRANCE": 2, "@BOB": 5}, "ITALY": {"ITALY": 10}},
    ceos={"FRANCE": "BOB", "ITALY": None},
    worths={},
    last_prices={},
)


def o(acc, side, n, company, p):
    return MarketOrder(acc, Side(side), company, n, p)


@pytest.mark.parametrize(
    ("account", "orders", "cash", "is_float", "problems"),
    [
        ("@ALICE", [o("@ALICE", "buy", 4, "ITALY", 6), o("@ALICE", "sell", 3, "FRANCE", 3)], 24, False, []),
        (
            "@ALICE",
            [o("@ALICE", "buy", 20, "ITALY", 6)],
            70,
            False,
            ["your buy orders would commit 120 AgP, but you hold 70 AgP"],
        ),
        (
            "@ALICE",
            [o("@ALICE", "sell", 5, "FRANCE", 3)],
            0,
            False,
            ["you hold 3 FRANCE shares: you cannot sell 5"],
        ),
        (
            "@ALICE",
            [o("@ALICE", "sell", 1, "FRANCE", 3), o("@ALICE", "buy", 1, "FRANCE", 2)],
            9,
            False,
            ["you cannot both buy and sell FRANCE in one phase"],
        ),
        ("FRANCE", [o("FRANCE", "sell", 2, "FRANCE", 5)], 0, False, []),
        (
            "FRANCE",
            [o("FRANCE", "sell", 3, "FRANCE", 5)],
            0,
            False,
            ["FRANCE's pool holds 2 shares: you cannot sell 3"],
        ),
        (
            "FRANCE",
            [o("FRANCE", "buy", 1, "ITALY", 5)],
            50,
            False,
            ["a company trades only its own stock (FRANCE cannot buy ITALY)"],
        ),
        ("FRANCE", [o("FRANCE", "sell", 1, "FRANCE", 5)], 0, True, ["at the float only investors trade"]),
    ],
)
def test_check_orders(account, orders, cash, is_float, problems):
    found = check_orders(account, orders, STATE, cash, is_float=is_float)
    assert [str(p) for p in found] == problems
    assert all(isinstance(p, ExchangeProblem) for p in found)


@pytest.mark.parametrize(
    ("account", "orders", "cash", "is_float", "kind"),
    [
        ("@ALICE", [o("@ALICE", "buy", 20, "ITALY", 6)], 70, False, ProblemKind.OVERCOMMITTED),
        ("@ALICE", [o("@ALICE", "sell", 5, "FRANCE", 3)], 0, False, ProblemKind.OVERSOLD),
        (
            "@ALICE",
            [o("@ALICE", "sell", 1, "FRANCE", 3), o("@ALICE", "buy", 1, "FRANCE", 2)],
            9,
            False,
            ProblemKind.BOTH_SIDES,
        ),
        ("FRANCE", [o("FRANCE", "sell", 3, "FRANCE", 5)], 0, False, ProblemKind.OVERSOLD),
        ("FRANCE", [o("FRANCE", "buy", 1, "ITALY", 5)], 50, False, ProblemKind.FOREIGN_STOCK),
        ("FRANCE", [o("FRANCE", "sell", 1, "FRANCE", 5)], 0, True, ProblemKind.FLOAT_COMPANY),
    ],
)
def test_check_orders_kinds(account, orders, cash, is_float, kind):
    """Each problem says which limit it broke as a kind, not only in words."""
    assert [p.kind for p in check_orders(account, orders, STATE, cash, is_float=is_float)] == [kind]


@pytest.mark.parametrize(
    ("declared", "treasury", "register", "kind", "text"),
    [
        (0, 0, {}, None, None),
        (5, 40, {"@ALICE": 8, "FRANCE": 2}, None, None),
        (3, 40, {"FRANCE": 10}, ProblemKind.NO_OUTSTANDING, "FRANCE has no outstanding shares"),
        (
            6,
            40,
            {"@ALICE": 8, "FRANCE": 2},
            ProblemKind.DIVIDEND_TOO_HIGH,
            "FRANCE holds 40 AgP for 8 outstanding shares: at most 5 AgP a share",
        ),
    ],
)
def test_check_dividend(declared, treasury, register, kind, text):
    found = check_dividend("FRANCE", declared, treasury, register)
    assert found == ([] if kind is None else [ExchangeProblem(kind, text)])
