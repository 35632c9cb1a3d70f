"""Acceptance lists (rule 4), rule flags, income (rules 2.1, 6.1, 6.2, 6.6, 6.7) and
transfers (rules 2.3, 2.4)."""

from __future__ import annotations

import pytest

from payjudge.payola.acceptance import AcceptanceError, AcceptanceList, expand_all, parse_acceptance
from payjudge.payola.income import (
    IncomeLine,
    income,
    opening_balances,
    vassal_income,
    year_end,
    zerosum_year_end,
)
from payjudge.payola.rules import Flag, PayolaRules, RulesError
from payjudge.payola.transfers import Transfer, apply_transfer, check_transfer, forfeit_on_resign, giver_label
from payjudge.rules.mapfile import load_variant
from payjudge.rules.orders import Unit
from payjudge.rules.phase import Phase
from payjudge.rules.position import Position

M = load_variant("standard")
START = Position.initial(M)


# -- acceptance lists ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, entries",
    [
        ("", ("FRANCE", None)),
        ("FEG?", ("FRANCE", "ENGLAND", "GERMANY", None)),
        ("f, e g", ("FRANCE", "ENGLAND", "GERMANY", None)),  # short: a ? is added
        ("?F", (None, "FRANCE")),
        ("AEFGIRT", ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")),
    ],
)
def test_parse_acceptance(text, entries):
    assert parse_acceptance(text, M, "FRANCE").entries == entries


@pytest.mark.parametrize(
    "text, message",
    [
        ("FX?", "not a power initial"),
        ("FEF", "more than once"),
        ("F??", "only one '?'"),
        ("AEFGIRTA", "too long"),
    ],
)
def test_bad_acceptance(text, message):
    with pytest.raises(AcceptanceError, match=message):
        parse_acceptance(text, M, "FRANCE")
    assert issubclass(AcceptanceError, ValueError)


def test_question_mark_expanded_once_from_the_seed():
    lists = {"FRANCE": parse_acceptance("F?", M, "FRANCE"), "ENGLAND": parse_acceptance("E?G", M, "ENGLAND")}
    first = expand_all(lists, M, seed=42, dummies=["ITALY"])
    assert first == expand_all(lists, M, seed=42, dummies=["ITALY"])
    assert first["FRANCE"][0] == "FRANCE" and sorted(first["FRANCE"]) == sorted(M.power_names)
    assert first["ENGLAND"][0] == "ENGLAND" and first["ENGLAND"][-1] == "GERMANY"
    assert first["GERMANY"][0] == "GERMANY"  # no list on record: G?
    assert sorted(first["ITALY"]) == sorted(M.power_names)  # a dummy's list is drawn
    draws = {expand_all(lists, M, seed=s)["FRANCE"] for s in range(40)}
    assert len(draws) > 1  # the seed does draw


def test_acceptance_text():
    assert AcceptanceList.default("GERMANY").text(M) == "G?"


# -- rule flags ---------------------------------------------------------------------------
def test_implied_flags():
    classic = PayolaRules.from_flags(["payola_classic"])
    assert {Flag.FLAT_TAX, Flag.NO_SAVINGS, Flag.DIRECT_ONLY, Flag.ZERO_FOREIGN} <= classic.flags
    assert classic.tax == 7 and not classic.savings_allowed and not classic.plateaus_allowed
    assert Flag.DIRECT_ONLY in PayolaRules.from_flags(["LIMIT_OFFERS"])
    assert Flag.SIGNAL_SUPPORT in PayolaRules.from_flags(["RESTRICT_SIGNAL"])
    assert Flag.TOUCH_BRIBE in PayolaRules.from_flags(["TOUCH_OFFER"])
    other = PayolaRules.from_flags(["EBAYOLA", "NO_PRESS"])
    assert "NO_PRESS" in other and "EBAYOLA" in other and Flag.EBAYOLA in other
    assert other.names() == ("EBAYOLA", "NO_PRESS", "SILENT_ABSENCES")  # NO_PRESS brings it
    with pytest.raises(RulesError):
        PayolaRules.from_flags(["TOUCH_BRIBE", "REMOTE_BRIBE"])


# -- income -------------------------------------------------------------------------------
def test_income_table_of_rule_2_1():
    rules = PayolaRules()
    table = [income([f"c{i}" for i in range(n)], START, rules) for n in range(1, 18)]
    assert table == [17, 33, 48, 62, 75, 87, 98, 108, 117, 125, 132, 138, 143, 147, 150, 152, 153]


def test_opening_balances():
    assert opening_balances(START, PayolaRules()) == {
        "AUSTRIA": 48,
        "ENGLAND": 48,
        "FRANCE": 48,
        "GERMANY": 48,
        "ITALY": 48,
        "RUSSIA": 62,
        "TURKEY": 48,
    }
    assert opening_balances(START, PayolaRules.from_flags(["PAYOLA_CLASSIC"]))["RUSSIA"] == 28
    assert opening_balances(START, PayolaRules.from_flags(["FLAT_TAX"]))["FRANCE"] == 21
    assert opening_balances(START, PayolaRules.from_flags(["ZEROSUM"]))["RUSSIA"] == 40
    assert opening_balances(START, PayolaRules(tax=5))["FRANCE"] == 15
    assert opening_balances(START, PayolaRules(cap=40))["RUSSIA"] == 40


def test_half_income_for_units_without_centres():
    """Rule 6.2 (e.g. Void): half of what as many centres would pay."""
    pos = Position(M, Phase.parse("S1901M"), {"FRANCE": (Unit.parse("A PAR"), Unit.parse("A MAR"))}, {})
    assert opening_balances(pos, PayolaRules())["FRANCE"] == 33 // 2


def test_year_end():
    pos = START.replace(centers={**START.centers, "FRANCE": START.centers["FRANCE"] | {"SPA", "POR"}})
    lines = year_end(pos, {"FRANCE": 10, "ENGLAND": 5}, PayolaRules())
    assert lines["FRANCE"] == IncomeLine("FRANCE", 10, 75, balance=85)
    assert year_end(pos, {"FRANCE": 10}, PayolaRules.from_flags(["NO_HOARDING"]))["FRANCE"].balance == 75
    assert year_end(pos, {}, PayolaRules(center_taxes={"SPA": 20}, tax=1))["FRANCE"].tax == 24
    with pytest.raises(ValueError):
        year_end(pos, {}, PayolaRules.from_flags(["ZEROSUM"]))


def test_zerosum_year_end():
    rules = PayolaRules.from_flags(["ZEROSUM"])
    start = {p: set(cs) for p, cs in START.centers.items()}
    end = {p: set(cs) for p, cs in START.centers.items()}
    end["FRANCE"] |= {"SPA", "MUN"}  # SPA was neutral, MUN was German
    end["GERMANY"] -= {"MUN"}
    pos = START.replace(centers=end)
    lines = zerosum_year_end(start, pos, {"FRANCE": 30, "GERMANY": 29}, {"GERMANY": 1, "FRANCE": 4}, rules)
    assert lines["FRANCE"].captures == (("MUN", 10), ("SPA", 10))
    assert lines["FRANCE"].balance == 30 + 4 + 20
    assert lines["GERMANY"].losses == (("MUN", 10),) and lines["GERMANY"].balance == 29 + 1 - 10


def test_zerosum_vassal_dummies_move_money_and_never_make_or_lose_it():
    """ZEROSUM with VASSAL_DUMMIES: a dummy's loss comes out of its own treasury (its captor
    is paid), a vassal's net gain goes to its controller, and a dummy nobody controls keeps
    its gain; the world's money changes by the first-capture bonuses only."""
    rules = PayolaRules.from_flags(["ZEROSUM", "VASSAL_DUMMIES"])
    start = {p: set(cs) for p, cs in START.centers.items()}
    start["GERMANY"] |= {"DEN"}
    start["AUSTRIA"] |= {"SER"}
    end = {p: set(cs) for p, cs in start.items()}
    end["GERMANY"] -= {"DEN"}
    end["RUSSIA"] |= {"DEN"}  # Russia takes a centre of dummy Germany
    end["ITALY"] |= {"TUN"}  # vassal Italy captures a neutral centre
    end["AUSTRIA"] |= {"GRE"}  # dummy Austria, nobody's vassal, captures one too
    pos = START.replace(centers=end)
    before = dict.fromkeys(START.centers, 30) | {"GERMANY": 40, "AUSTRIA": 40}
    accrued = {"GERMANY": 4, "ITALY": 3, "AUSTRIA": 2}
    lines = zerosum_year_end(start, pos, before, accrued, rules)
    dummies = frozenset({"GERMANY", "ITALY", "AUSTRIA"})
    out = vassal_income(lines, dummies, {"ITALY": "FRANCE"}, zerosum=True)
    share = (40 + 4) // 4
    assert out["RUSSIA"].balance == 30 + share
    assert out["GERMANY"].balance == 40 + 4 - share  # debited, though nobody's vassal
    assert "ITALY" not in out and out["FRANCE"].vassals == (("ITALY", 3 + 10),)
    assert out["FRANCE"].balance == 30 + 3 + 10
    assert out["AUSTRIA"].balance == 40 + 2 + 10  # kept: the bribes were paid by others
    after = {p: out[p].balance if p in out else before[p] for p in before}
    assert sum(after.values()) == sum(before.values()) + sum(accrued.values()) + 2 * 10


# -- transfers ----------------------------------------------------------------------------
def test_transfers():
    free = PayolaRules()
    assert check_transfer(free, START, "FRANCE", "ENGLAND", 10, 48) is None
    assert "holds only" in check_transfer(free, START, "FRANCE", "ENGLAND", 49, 48)
    assert "itself" in check_transfer(free, START, "FRANCE", "FRANCE", 1, 48)
    assert "at least 1" in check_transfer(free, START, "FRANCE", "ENGLAND", 0, 48)
    assert "unknown" in check_transfer(free, START, "FRANCE", "NARNIA", 1, 48)
    assert "NO_TRANSFER" in check_transfer(
        PayolaRules.from_flags(["NO_TRANSFER"]), START, "FRANCE", "ENGLAND", 1, 48
    )
    one = PayolaRules.from_flags(["ONE_TRANSFER"])
    assert "ONE_TRANSFER" in check_transfer(one, START, "FRANCE", "ENGLAND", 1, 48, sent={"ENGLAND"})
    assert check_transfer(one, START, "FRANCE", "GERMANY", 1, 48, sent={"ENGLAND"}) is None
    gone = START.replace(centers={p: cs for p, cs in START.centers.items() if p != "ITALY"})
    donations = PayolaRules.from_flags(["NO_DONATIONS"])
    assert "NO_DONATIONS" in check_transfer(donations, gone, "ITALY", "FRANCE", 1, 5)
    assert check_transfer(donations, gone, "FRANCE", "ITALY", 1, 5) is None  # giving to one is fine
    looting = PayolaRules.from_flags(["NO_LOOTING"])
    assert "NO_LOOTING" in check_transfer(looting, START, "ITALY", "FRANCE", 1, 5, dummies={"ITALY"})
    assert apply_transfer({"FRANCE": 5, "ENGLAND": 1}, Transfer("FRANCE", "ENGLAND", 3)) == {
        "FRANCE": 2,
        "ENGLAND": 4,
    }
    assert giver_label(PayolaRules.from_flags(["ANON_TRANSFER"]), "FRANCE") == "SOMEONE"
    assert giver_label(free, "FRANCE") == "FRANCE"


def test_eliminated_power_forfeits_on_resigning():
    gone = START.replace(centers={p: cs for p, cs in START.centers.items() if p != "ITALY"})
    assert forfeit_on_resign(gone, "ITALY", 12) == 12
    assert forfeit_on_resign(gone, "FRANCE", 12) == 0
