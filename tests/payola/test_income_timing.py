"""When tax income is paid (payola/income.py `income_due`, rules 2.1 and 6.6), and the
opening balances of rule 6.2 on maps of other sizes."""

from __future__ import annotations

from payjudge.payola.income import income_due, opening_balances
from payjudge.payola.rules import IncomeEvery, PayolaRules
from payjudge.rules.mapfile import load_variant
from payjudge.rules.phase import Phase
from payjudge.rules.position import Position

YEARLY = PayolaRules()
SEASONAL = PayolaRules(income_every=IncomeEvery.MOVEMENT)
P = Phase.parse


def test_yearly_income_at_the_years_end():
    start = P("S1901M")
    assert income_due(P("W1901A"), P("S1902M"), start, YEARLY)
    assert income_due(P("F1901M"), P("S1902M"), start, YEARLY)  # no retreats, no builds
    assert not income_due(P("S1901R"), P("F1901M"), start, YEARLY)
    assert not income_due(P("F1901M"), P("W1901A"), start, YEARLY)


def test_a_winter_start_is_not_paid_again_at_the_end_of_its_year():
    start = P("W1898A")
    assert not income_due(P("W1898A"), P("S1899M"), start, YEARLY)
    assert income_due(P("W1899A"), P("S1900M"), start, YEARLY)
    assert not income_due(P("W1898A"), P("S1899M"), start, SEASONAL)
    assert income_due(P("S1899R"), P("F1899M"), start, SEASONAL)


def test_a_fall_start_is_paid_at_the_end_of_its_year():
    # void starts in Fall 1900: its opening money pays for that fall's offers
    assert income_due(P("W1900A"), P("S1901M"), P("F1900M"), YEARLY)


def test_income_every_movement_phase():
    start = P("S1901M")
    assert income_due(P("S1901R"), P("F1901M"), start, SEASONAL)
    assert income_due(P("S1901M"), P("F1901M"), start, SEASONAL)  # no retreats
    assert income_due(P("W1901A"), P("S1902M"), start, SEASONAL)
    assert not income_due(P("F1901M"), P("F1901R"), start, SEASONAL)
    assert not income_due(P("F1901R"), P("W1901A"), start, SEASONAL)


def test_standard_openings():
    pos = Position.initial(load_variant("standard"))
    got = opening_balances(pos, YEARLY)
    assert got["RUSSIA"] == 17 + 16 + 15 + 14 and got["FRANCE"] == 17 + 16 + 15
