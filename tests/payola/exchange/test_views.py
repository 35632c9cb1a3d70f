"""What each party reads after an exchange phase (payola/exchange/views.py and the four
exchange templates), on the year of test_phase: golden texts in `views/`, and privacy:
the public results name no holder and no balance, an investor's statement names nobody
else, the annual report goes to the stockholders and the CEO only.

PAYJUDGE_UPDATE_GOLDEN=1 rewrites the golden texts after a deliberate wording change."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from payjudge.payola.exchange.market import MarketOrder, Side
from payjudge.payola.exchange.phase import ExchangeSheet, MarketState, run_exchange
from payjudge.payola.exchange.views import (
    company_statement,
    investor_statement,
    results_from_json,
    results_json,
    results_view,
    stockholder_report,
    stockholders,
)
from payjudge.templating import environment

HERE = Path(__file__).parent / "views"
OWNED = {"FRANCE": ("BRE", "MAR", "PAR"), "ITALY": ("NAP", "ROM", "VEN")}
STATE = MarketState(
    shares={"FRANCE": 10, "ITALY": 10},
    register={"FRANCE": {"@ALICE": 5, "@BOB": 3, "FRANCE": 2}, "ITALY": {"@CAROL": 10}},
    ceos={"FRANCE": "ALICE", "ITALY": "CAROL"},
    worths={"PAR": 16, "BRE": 16, "MAR": 16, "NAP": 16, "ROM": 16, "VEN": 16},
    last_prices={"FRANCE": 3, "ITALY": 2},
)
BALANCES = {"FRANCE": 95, "ITALY": 10, "@ALICE": 20, "@BOB": 40, "@CAROL": 5}
SHEETS = {
    "@ALICE": ExchangeSheet("@ALICE", (MarketOrder("@ALICE", Side.SELL, "FRANCE", 5, 4),)),
    "@BOB": ExchangeSheet("@BOB", (MarketOrder("@BOB", Side.BUY, "FRANCE", 6, 5),)),
    "@CAROL": ExchangeSheet("@CAROL", (MarketOrder("@CAROL", Side.BUY, "FRANCE", 3, 4),)),
    "FRANCE": ExchangeSheet(
        "FRANCE",
        (MarketOrder("FRANCE", Side.SELL, "FRANCE", 1, 5),),
        dividend=20,
        worths={"PAR": 20, "BRE": 12},
    ),
}
VOTES = {"FRANCE": {"ALICE": "ALICE", "BOB": "BOB"}}
OUT = run_exchange(STATE, SHEETS, BALANCES, VOTES, {"ALICE", "BOB", "CAROL"}, seed=1)
AFTER = dict(BALANCES)
for _m in OUT.money:
    AFTER[_m.account] += _m.amount


def _render(template: str, view) -> str:
    return environment().get_template(template).render(v=view)


TEXTS = {
    "results": _render("exchange_results.txt.j2", results_view("W1901X", STATE, OUT, OWNED)),
    "statement.ALICE": _render(
        "exchange_statement.txt.j2", investor_statement("W1901X", "@ALICE", BALANCES, OUT)
    ),
    "statement.CAROL": _render(
        "exchange_statement.txt.j2", investor_statement("W1901X", "@CAROL", BALANCES, OUT)
    ),
    "company.FRANCE": _render(
        "company_statement.txt.j2", company_statement("W1901X", "FRANCE", BALANCES, OUT)
    ),
    "report.FRANCE": _render(
        "stockholder_report.txt.j2", stockholder_report(1901, "FRANCE", AFTER, 48, OUT, OWNED)
    ),
}


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_golden(name):
    path = HERE / f"{name}.txt"
    if os.environ.get("PAYJUDGE_UPDATE_GOLDEN"):
        path.write_text(TEXTS[name])
    assert TEXTS[name] == path.read_text()


def test_the_public_results_name_no_holder_and_no_balance():
    text = TEXTS["results"]
    # CEOs are public; ALICE (no longer CEO, sold out) and the balances are not
    assert "BOB (new)" in text and "CAROL" in text
    assert "ALICE" not in text
    for amount in ("100 AgP", "95", "43"):
        assert amount not in text


def test_an_investors_statement_names_nobody_else():
    for name, others in (("ALICE", ("BOB", "CAROL")), ("CAROL", ("ALICE", "BOB"))):
        text = TEXTS[f"statement.{name}"]
        assert not any(other in text for other in others)
    assert "Cancelled: your buy orders commit 12 AgP, but you hold 5 AgP" in TEXTS["statement.CAROL"]


def test_the_annual_report_goes_to_the_stockholders_and_the_ceo():
    assert stockholders("FRANCE", OUT) == ("BOB",)  # ALICE sold out, CAROL was cancelled
    assert stockholders("ITALY", OUT) == ("CAROL",)


def test_the_public_results_round_trip_through_the_stored_report():
    view = results_view("W1901X", STATE, OUT, OWNED)
    assert results_from_json("W1901X", results_json(view)) == view


def test_a_report_stored_in_the_old_shape_gives_what_it_holds():
    old = {
        "exchange": [{"company": "FRANCE", "price": 4, "volume": 6}],
        "ceos": {"FRANCE": "BOB", "ITALY": None},
    }
    view = results_from_json("W1901X", old)
    assert [(c.company, c.price, c.volume, c.ceo, c.dividend) for c in view.companies] == [
        ("FRANCE", 4, 6, "BOB", None),
        ("ITALY", None, 0, None, None),
    ]
