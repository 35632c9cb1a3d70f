"""The auction with investors (docs/exchange.md, "The auction with investors"): investors
pay from their own cash, rank after every power in every acceptance list, among
themselves in an order drawn from the seed; each payer is reduced on its own."""

from __future__ import annotations

from payjudge.payola.acceptance import investor_order
from payjudge.payola.auction import run_auction
from payjudge.payola.rules import PayolaRules
from payjudge.rules.mapfile import load_variant
from payjudge.rules.position import Position
from payjudge.text.sheet import parse_sheet

POS = Position.initial(load_variant("standard"))
RULES = PayolaRules()
BALANCES = {"FRANCE": 48, "GERMANY": 48, "@ALICE": 20, "@BOB": 20}


def sheet(text: str, as_power: str = "TURKEY"):
    """An investor's sheet: read as a power with no unit near (a sheet carries no owner)."""
    parsed = parse_sheet(text, POS, as_power, RULES)
    assert parsed.sheet is not None, parsed.problems
    return parsed.sheet


def order_at(auction, province: str) -> str:
    return str(auction.orders[province])


def run(sheets, seed=1, balances=BALANCES):
    return run_auction(POS, sheets, balances, {}, RULES, seed=seed, investors=("@ALICE", "@BOB"))


def test_an_investors_offer_wins_a_unit_and_is_paid_from_its_cash():
    a = run({"@ALICE": sheet("5 : A PAR - BUR"), "FRANCE": sheet("1 : A PAR - PIC", "FRANCE")})
    assert order_at(a, "PAR") == "A PAR - BUR"
    assert a.spent["@ALICE"] == 5 and a.balances["@ALICE"] == 15
    assert a.spent["FRANCE"] == 0


def test_a_tie_between_a_power_and_an_investor_goes_to_the_power():
    a = run({"@ALICE": sheet("3 : A PAR - BUR"), "GERMANY": sheet("3 : A PAR - GAS", "GERMANY")})
    assert order_at(a, "PAR") == "A PAR - GAS"


def test_investors_tied_go_by_the_seeded_order_the_same_on_every_run():
    for seed in range(6):
        first = investor_order(("@ALICE", "@BOB"), seed)[0]
        a = run({"@ALICE": sheet("3 : A PAR - BUR"), "@BOB": sheet("3 : A PAR - GAS")}, seed=seed)
        assert order_at(a, "PAR") == ("A PAR - BUR" if first == "@ALICE" else "A PAR - GAS")
        assert (
            run({"@ALICE": sheet("3 : A PAR - BUR"), "@BOB": sheet("3 : A PAR - GAS")}, seed=seed).orders
            == a.orders
        )
    assert {investor_order(("@ALICE", "@BOB"), s)[0] for s in range(6)} == {"@ALICE", "@BOB"}


def test_an_investor_overspending_is_reduced_on_its_own_account():
    # ALICE (FRANCE's CEO, say) offers 30 of her 20 AgP privately; FRANCE's offer stands
    poor = {**BALANCES, "@ALICE": 20}
    a = run(
        {"@ALICE": sheet("30 : A MUN - RUH"), "FRANCE": sheet("10 : A MAR - BUR", "FRANCE")}, balances=poor
    )
    assert a.spent["FRANCE"] == 10  # its own offer, paid in full from its treasury
    assert order_at(a, "MAR") == "A MAR - BUR"
    assert a.reductions["@ALICE"] > 0 and a.reductions["FRANCE"] == 0
    assert a.spent["@ALICE"] <= 20
