"""The offer-sheet grammar (rule 3.1, shared/spec/email.md), as data, and its round trip."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from payjudge.payola.offers import Offer, Term
from payjudge.payola.rules import PayolaRules
from payjudge.rules.mapfile import load_variant
from payjudge.rules.orders import Unit
from payjudge.rules.phase import Phase
from payjudge.rules.position import Position
from payjudge.text.sheet import parse_sheet

from .randomsheets import random_position, random_sheet_text, start_position

STANDARD = load_variant("standard")
CASES = json.loads((Path(__file__).parent / "sheet_cases.json").read_text())


def _position(units: dict | None) -> Position:
    if not units:
        return start_position()
    parsed = {p: tuple(Unit.parse(u) for u in us) for p, us in units.items()}
    return Position(STANDARD, Phase.parse("S1901M"), parsed, dict(STANDARD.start_centers))


@pytest.mark.parametrize("case", CASES, ids=[c["about"] for c in CASES])
def test_sheet_case(case):
    position = _position(case.get("units"))
    rules = PayolaRules.from_flags(case.get("rules", []))
    parsed = parse_sheet(
        case["sheet"],
        position,
        case.get("power", "FRANCE"),
        rules,
        balance=case.get("balance"),
        dummies=frozenset(case.get("dummies", [])),
    )
    assert [[p.line, p.kind.value] for p in parsed.problems] == case["problems"], [
        str(p) for p in parsed.problems
    ]
    for p in parsed.problems:
        assert p.message and (p.line == 0 or p.text)
    if case["problems"]:
        assert parsed.sheet is None
        return
    assert parsed.normalized == case["normalized"]
    again = parse_sheet(
        parsed.normalized,
        position,
        case.get("power", "FRANCE"),
        rules,
        balance=case.get("balance"),
        dummies=frozenset(case.get("dummies", [])),
    )
    assert again.problems == () and again.sheet == parsed.sheet


def test_offer_values():
    parsed = parse_sheet(
        "2*4#3 + 1 > A PAR - BUR | H  % why not\n5 $", start_position(), "FRANCE", PayolaRules()
    )
    offer, savings = parsed.sheet.items
    assert isinstance(offer, Offer) and offer.line == 1
    assert offer.terms == (Term(4, 2, 3), Term(1))
    assert list(offer.amounts()) == [(4, 3), (4, 3), (1, 0)]
    assert offer.total == 9 and offer.comment == "why not"
    assert [str(o) for o in offer.orders] == ["A PAR - BUR", "A PAR H"]
    assert savings.amount == 5 and parsed.sheet.savings == 5


def test_problem_text_names_line_and_reason():
    parsed = parse_sheet("3 : A PAR - BUR\n5 ; A MUN H", start_position(), "FRANCE", PayolaRules())
    (problem,) = parsed.problems
    assert str(problem).startswith("line 2: ") and "offer type" in str(problem)
    assert str(problem).endswith('("5 ; A MUN H")')


_terms = st.lists(
    st.tuples(st.integers(1, 3), st.integers(0, 40), st.booleans(), st.booleans()), min_size=1, max_size=3
)


def _term_text(rep: int, amount: int, plateau: bool, bare: bool) -> str:
    text = (f"{rep}*" if rep > 1 else "") + str(amount)
    if plateau and amount:
        text += "#" if bare else f"#{amount // 2}"
    return text


@given(
    terms=_terms,
    mark=st.sampled_from(":!>@&"),
    seed=st.integers(0, 10**6),
    spaces=st.sampled_from(["", " ", "  "]),
    comment=st.sampled_from(["", " % x", "%y z"]),
)
@settings(max_examples=150, deadline=None)
def test_normalised_text_round_trips(terms, mark, seed, spaces, comment):
    """parse(normalised) == parsed, for amounts, marks and orders of every shape."""
    rng = random.Random(seed)
    position = start_position() if seed % 2 else random_position(rng)
    power = rng.choice(STANDARD.power_names)
    body = random_sheet_text(rng, position, power, 1, 10).split(" ", 2)[2]
    amount = "+".join(_term_text(*t) for t in terms)
    text = f"{amount}{spaces}{mark}{spaces}{body}{comment}\n{rng.randint(0, 9)} $"
    parsed = parse_sheet(text, position, power, PayolaRules.from_flags(["ZERO_FOREIGN"]))
    assert parsed.problems == (), (text, [str(p) for p in parsed.problems])
    again = parse_sheet(parsed.normalized, position, power, PayolaRules.from_flags(["ZERO_FOREIGN"]))
    assert again.sheet == parsed.sheet
    assert again.normalized == parsed.normalized


@given(seed=st.integers(0, 10**6))
@settings(max_examples=60, deadline=None)
def test_random_sheets_round_trip(seed):
    rng = random.Random(seed)
    position = random_position(rng)
    power = rng.choice(STANDARD.power_names)
    text = random_sheet_text(rng, position, power, rng.randint(1, 12), 30, savings_high=20)
    parsed = parse_sheet(text, position, power, PayolaRules())
    assert parsed.sheet is not None, [str(p) for p in parsed.problems]
    assert parse_sheet(parsed.normalized, position, power, PayolaRules()).sheet == parsed.sheet


def test_unknown_power_and_wrong_phase():
    with pytest.raises(ValueError):
        parse_sheet("", start_position(), "NARNIA", PayolaRules())
    retreat = start_position().replace(phase=Phase.parse("F1901R"))
    with pytest.raises(ValueError):
        parse_sheet("", retreat, "FRANCE", PayolaRules())
