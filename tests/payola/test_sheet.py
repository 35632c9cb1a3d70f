"""The offer-sheet grammar (rule 3.1, shared/spec/email.md), as data, and its round trip."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from payjudge.jsonapi.common import position as jsonapi_position
from payjudge.payola.offers import Offer, Term
from payjudge.payola.rules import PayolaRules
from payjudge.rules import validate as validate_module
from payjudge.rules.flags import Flag
from payjudge.rules.geography import UnitType
from payjudge.rules.mapfile import load_variant
from payjudge.rules.orders import Unit
from payjudge.rules.phase import Phase
from payjudge.rules.position import Position
from payjudge.text.offer_memo import VALIDATE_FLAGS, table_for
from payjudge.text.problems import LineError
from payjudge.text.sheet import _parse_line, _read_line, parse_sheet, split_comment
from payjudge.text.sheet_rules import SheetContext
from tests.sources import source_of

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


# -- the shortcuts of the reader: the usual line, and orders read before -------------------------
# `_parse_line` takes the usual line (`7 : A PAR - BUR`) apart at its spaces and recalls orders
# read before (`text.offer_memo`); `_read_line`, given no memo, reads any line the long way.
# Both must give the same item, normalised text and problems, on every board: the same
# texts are read on boards that share unit objects, with a unit gone (a convoy chain
# broken, a supported unit missing) or handed to another power (IMMOBILE_DUMMIES).

FLAG_SETS = [
    [],
    ["ZERO_FOREIGN"],
    ["SIGNAL_SUPPORT"],
    ["DIRECT_ONLY"],
    ["NO_PLATEAU"],
    ["IMMOBILE_DUMMIES"],
    ["CONVOY_BACK"],
    ["COASTAL_CONVOY"],
    ["PORTAGE_CONVOY"],
    ["TOUCH_BRIBE"],
]
ODD_LINES = [
    "x : A ROM H",
    "5 : A XYZ H",
    "3 : F PAR - BUR",
    "2 :: A PAR H",
    "3 : ",
    "3 : A PAR",
    "A PAR - BUR",
    "PAR - BUR",
    "a paris - burgundy",
    "7:A BOH H",
    "0 : A PAR H | H",
    "1 : WAIVE",
    "12345 : A PAR H",
    "1 ; A PAR H",
    "2 : A PAR-BUR",
    "1 : F BUL - CON",
    "3 $",
    "007 : A PAR H",
    "9999 : A PAR H",
    "10000 : A PAR H",
    "1 :  A PAR H",
    "1 :A PAR H",
    "1 : A PAR H |",
    "1 : A PAR - BUR | ",
    "1 : A PAR - BUR | - BUR",
    "1 : $ A PAR H",
    "1 : : A PAR H",
    "1 \u00b2 : A PAR H",
    "\u0663 : A PAR H",
]


def _reading(line: str, position: Position, power: str, rules, dummies, readings) -> tuple:
    """One line as `_parse_line` reads it with `readings`, or as `_read_line` reads it
    (readings None): the item, its line and normalised text, or the problems."""
    ctx = SheetContext(position, power, rules, None, dummies)
    body, comment = split_comment(line)
    read = _read_line if readings is None else _parse_line
    try:
        item = read(body.strip(), comment, 7, ctx, readings)
    except LineError as e:
        return e.problems
    return item, item.line, str(item)


def _convoy_lines(position: Position, rng: random.Random) -> list[str]:
    """Convoyed moves, their convoys and supports, fleets carried overland
    (PORTAGE_CONVOY): texts whose legality hangs on other units than those they name."""
    m = position.map
    units = [u for _, u in position.all_units()]
    armies = [u for u in units if u.type is UnitType.ARMY and m.is_coastal(u.province)]
    fleets = [u for u in units if u.type is UnitType.FLEET]
    coasts = sorted(p for p in m.provinces if m.is_coastal(p))
    lines = []
    for army in armies:
        for dest in rng.sample(coasts, 6):
            lines.append(f"{rng.randint(0, 9)} : {army} - {dest}")
            if fleets:
                fleet = rng.choice(fleets)
                lines.append(f"{rng.randint(0, 9)} : {fleet} C {army} - {dest}")
                lines.append(f"{rng.randint(0, 9)} : {fleet} S {army} - {dest}")
                lines.append(f"{rng.randint(0, 9)} : {army} C {fleet} - {dest}")
    for fleet in fleets:
        for dest in rng.sample(coasts, 4):
            lines.append(f"{rng.randint(0, 9)} : {fleet} - {dest}")
    return lines


def _variants(position: Position, dummies: frozenset[str], rng: random.Random) -> list[Position]:
    """Boards sharing `position`'s unit objects: one unit gone, or given to another power
    (often a dummy)."""
    out = [position]
    units = {p: list(us) for p, us in position.units.items()}
    powers = sorted(p for p, us in units.items() if us)
    for _ in range(4):
        changed = {p: list(us) for p, us in units.items()}
        power = rng.choice(powers)
        unit = changed[power].pop(rng.randrange(len(changed[power])))
        if rng.random() < 0.6:
            others = [p for p in STANDARD.power_names if p != power]
            given = [p for p in others if p in dummies] or others
            changed.setdefault(rng.choice(given), []).append(unit)
        board = {p: tuple(us) for p, us in changed.items()}
        out.append(Position(position.map, position.phase, board, dict(position.centers)))
    return out


def _lines_for(position: Position, power: str, rng: random.Random) -> list[str]:
    legal = random_sheet_text(rng, position, power, 25, 12).splitlines()
    lines = legal + _convoy_lines(position, rng) + ODD_LINES
    for line in rng.sample(legal, 5):  # the same orders written otherwise
        lines += [line.replace(" ", "  "), line.lower(), line + " % why", line.replace(" H", " H ?")]
    return lines


@pytest.mark.parametrize("flags", FLAG_SETS, ids=lambda f: "+".join(f) or "plain")
@given(seed=st.integers(0, 10**6))
@settings(max_examples=3, deadline=None)
def test_usual_lines_read_as_any_line(flags, seed):
    """Each line is read under `flags` and under the plain rules in turn: readings kept
    under one set of flags are recalled under the other where `validate` reads neither."""
    rng = random.Random(seed)
    position = random_position(rng, units_per_power=rng.randint(3, 6))
    dummies = frozenset(rng.sample(STANDARD.power_names, rng.randint(0, 2)))
    both = []
    for rules in (PayolaRules.from_flags(flags), PayolaRules()):
        ctx = SheetContext(position, "FRANCE", rules, None, dummies)
        both.append((rules, table_for(STANDARD, ctx.in_force, dummies)))
    lines = _lines_for(position, "FRANCE", rng)
    for board in _variants(position, dummies, rng):
        for power in rng.sample(STANDARD.power_names, 2):
            for line in lines:
                for rules, readings in both:
                    general = _reading(line, board, power, rules, dummies, None)
                    assert _reading(line, board, power, rules, dummies, readings) == general, line
                    if readings is not None:  # now remembered, if it was read
                        assert _reading(line, board, power, rules, dummies, readings) == general, line


def test_readings_are_kept_apart_by_every_flag_validate_reads():
    source = source_of(validate_module).read_text()
    named = {Flag[name] for name in re.findall(r"\bFlag\.([A-Z_]+)", source)}
    assert named <= VALIDATE_FLAGS


def test_real_lines_read_as_any_line():
    """Every line of the 126 DPjudge cases, read in turn as `payjudge auction --jsonl` reads
    them (one memo, boards built from one cache of units)."""
    for path in sorted((Path(__file__).parent / "cases" / "dpjudge").glob("*.json")):
        doc = json.loads(path.read_text())["input"]
        board = jsonapi_position(doc)
        rules = PayolaRules.from_flags(doc.get("rules", []))
        dummies = frozenset(doc.get("dummies", []))
        ctx = SheetContext(board, "FRANCE", rules, None, dummies)
        readings = table_for(STANDARD, ctx.in_force, dummies)
        for power, text in doc["sheets"].items():
            for line in text.splitlines():
                if not line.split("%")[0].strip():
                    continue
                general = _reading(line, board, power, rules, dummies, None)
                assert _reading(line, board, power, rules, dummies, readings) == general, (path.name, line)


def _board(units: dict[str, list[Unit]]) -> Position:
    return Position(STANDARD, Phase.parse("S1901M"), {p: tuple(us) for p, us in units.items()}, {})


# (line, flags, dummies, the board's units by power, problem expected or None): read in
# turn with one memo, the boards sharing unit objects, so that each line after the first
# of a group is recalled unless what it depends on changed
U = {t: Unit.parse(t) for t in ("A PAR", "A MAR", "A LON", "F NTH", "F ENG", "A BRE", "F BRE")}
RECALLED = [
    # the ordered unit's owner: IMMOBILE_DUMMIES
    ("1 : A PAR - PIC", ["IMMOBILE_DUMMIES"], ["GERMANY"], {"FRANCE": ["A PAR"]}, None),
    ("1 : A PAR - PIC", ["IMMOBILE_DUMMIES"], ["GERMANY"], {"GERMANY": ["A PAR"]}, "dummy"),
    # the dummies, under IMMOBILE_DUMMIES
    ("2 : A PAR - PIC", ["IMMOBILE_DUMMIES"], [], {"FRANCE": ["A PAR"]}, None),
    ("2 : A PAR - PIC", ["IMMOBILE_DUMMIES"], ["FRANCE"], {"FRANCE": ["A PAR"]}, "dummy"),
    # the chain of fleets a convoyed move needs, and its support
    ("1 : A LON - NWY", [], [], {"ENGLAND": ["A LON", "F NTH"]}, None),
    ("1 : A LON - NWY", [], [], {"ENGLAND": ["A LON"]}, "no chain of fleets"),
    ("1 : F ENG S A LON - BEL", [], [], {"ENGLAND": ["A LON", "F NTH", "F ENG"]}, None),
    ("1 : F ENG S A LON - BEL", [], [], {"ENGLAND": ["A LON", "F ENG"]}, "cannot move to BEL"),
    # the supported unit
    ("1 : A PAR S A MAR - BUR", [], [], {"FRANCE": ["A PAR", "A MAR"]}, None),
    ("1 : A PAR S A MAR - BUR", [], [], {"FRANCE": ["A PAR"]}, "no army in MAR"),
    # the ordered unit itself
    ("1 : A BRE - PIC", [], [], {"FRANCE": ["A BRE"]}, None),
    ("1 : A BRE - PIC", [], [], {"FRANCE": ["F BRE"]}, "is a fleet"),
    # rules of offers, under which a kept reading is shared
    ("1 : A PAR - PIC | H", ["ZERO_FOREIGN"], [], {"FRANCE": ["A PAR"]}, None),
    ("1 : A PAR - PIC | H", ["DIRECT_ONLY"], [], {"FRANCE": ["A PAR"]}, "DIRECT_ONLY"),
]


def test_recalled_orders_follow_the_board():
    STANDARD._derived.pop("sheet:readings", None)  # (a memo of this test's own)
    for line, flags, dummies, units, problem in RECALLED:
        board = _board({p: [U[u] for u in us] for p, us in units.items()})
        parsed = parse_sheet(line, board, "ITALY", PayolaRules.from_flags(flags), dummies=frozenset(dummies))
        messages = " ".join(str(p) for p in parsed.problems)
        if problem is None:
            assert parsed.problems == (), (line, units, messages)
        else:
            assert problem in messages, (line, units, messages)


def test_no_reading_is_kept_where_a_border_follows_a_centre():
    """A border only the owner of a centre may cross (as imperial's AEG-BLA, for CON's
    owner; here AEG-EAS): the same text on the same unit objects is legal or not by who
    owns the centre."""
    m = dataclasses.replace(STANDARD, special_adjacency=(*STANDARD.special_adjacency, ("CON)", "AEG", "EAS")))
    assert table_for(m, frozenset(), frozenset()) is None
    fleet = Unit.parse("F AEG")
    phase = Phase.parse("S1901M")
    for owner, problem in (("ITALY", None), ("TURKEY", "only for the owner of CON")):
        board = Position(m, phase, {"ITALY": (fleet,)}, {owner: frozenset({"CON"})})
        parsed = parse_sheet("1 : F AEG - EAS", board, "FRANCE", PayolaRules())
        messages = " ".join(str(p) for p in parsed.problems)
        assert (problem in messages) if problem else not messages, messages
