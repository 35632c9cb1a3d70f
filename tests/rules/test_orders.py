"""Orders as players write them: lenient input to canonical text, the three kinds of
error, and the property that canonical text round-trips (`possible_orders` gives the
orders to try)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from payjudge.rules.errors import OrderError, ProblemKind
from payjudge.rules.geography import Location, Terrain, UnitType
from payjudge.rules.mapfile import load_map_file, load_variant
from payjudge.rules.orders import Build, Convoy, Disband, Move, Remove, Retreat, SupportMove, Unit, Waive
from payjudge.rules.parse import (
    _canonical_words,
    _read_canonical,
    parse_order,
    parse_order_body,
    parse_unit,
    read_body_tokens,
    read_order_tokens,
)
from payjudge.rules.phase import Phase
from payjudge.rules.position import Dislodged, Position
from payjudge.rules.possible import (
    all_possible_orders,
    orderable_units,
    orders_by_power,
    possible_adjustments,
    possible_orders,
)
from payjudge.rules.turn import read_orders
from payjudge.rules.validate import validate

M = load_variant("standard")
L = Location.parse


def _units(spec: dict[str, str]) -> dict[str, tuple[Unit, ...]]:
    return {p: tuple(Unit.parse(u.strip()) for u in us.split(",")) for p, us in spec.items()}


POSITIONS = {
    "move": Position(
        M,
        Phase.parse("S1901M"),
        _units(
            {
                "ENGLAND": "F NTH, A YOR, F LON, A WAL, F MAO, F ENG",
                "FRANCE": "A PAR, A MAR, F BRE, F GAS, F POR",
                "RUSSIA": "F STP/SC, A MOS, F BOT, F BUL/EC",
                "ITALY": "F LYO, A ROM, F WES",
            }
        ),
        {},
    ),
    "retreat": Position(
        M,
        Phase.parse("F1901R"),
        _units({"GERMANY": "A BUR, F ENG"}),
        {},
        {
            "FRANCE": (
                Dislodged(Unit.parse("A BUR"), "MUN", (L("GAS"), L("PIC"))),
                Dislodged(Unit.parse("F MAO"), "ENG", (L("POR"), L("SPA/NC"), L("SPA/SC"))),
            )
        },
    ),
    "adjust": Position(
        M,
        Phase.parse("W1901A"),
        _units({"RUSSIA": "A MOS", "FRANCE": "A PAR, A MAR, F BRE"}),
        {"RUSSIA": {"STP", "MOS", "WAR", "SEV"}, "FRANCE": {"PAR", "BRE"}},
    ),
}


def _read(where: str, power: str, text: str):
    return validate(parse_order(text, M), POSITIONS[where], power)


# -- lenient input -> canonical text ---------------------------------------------------------
CANONICAL = [
    ("move", "ENGLAND", "f north sea convoys a yorkshire to norway", "F NTH C A YOR - NWY"),
    ("move", "ENGLAND", "a yor-nwy", "A YOR - NWY"),
    ("move", "ENGLAND", "Yorkshire - Norway", "A YOR - NWY"),  # no unit type
    ("move", "ENGLAND", "A YOR - NTH - NWY", "A YOR - NWY"),  # a DPjudge route
    ("move", "ENGLAND", "A WAL TO LON", "A WAL - LON"),
    ("move", "ENGLAND", "A WAL -> LVP", "A WAL - LVP"),
    ("move", "ENGLAND", "A WAL - LVP VIA CONVOY", "A WAL - LVP VIA CONVOY"),
    ("move", "ENGLAND", "a wal - lvp by convoy", "A WAL - LVP VIA CONVOY"),
    ("move", "ENGLAND", "F London supports A Yorkshire - Wales", "F LON S A YOR - WAL"),
    ("move", "ENGLAND", "F London S A YOR", "F LON S A YOR"),
    ("move", "ENGLAND", "F LON S A YOR H", "F LON S A YOR"),
    ("move", "ENGLAND", "F lon hold", "F LON H"),
    ("move", "ENGLAND", "F LON", "F LON H"),
    ("move", "ENGLAND", "F Mid-Atlantic Ocean - Spain(nc)", "F MAO - SPA/NC"),
    ("move", "ENGLAND", "F MAO - spa (SC)", "F MAO - SPA/SC"),
    ("move", "ENGLAND", "F MAO - Spain north coast", "F MAO - SPA/NC"),
    ("move", "ENGLAND", "F English Channel -> Irish Sea", "F ENG - IRI"),
    ("move", "ENGLAND", "fleet english channel move mid atlantic", "F ENG - MAO"),
    ("move", "RUSSIA", "F St Petersburg (south coast) - Gulf of Bothnia", "F STP/SC - BOT"),
    ("move", "RUSSIA", "F STP - BOT", "F STP/SC - BOT"),  # coast of the unit filled in
    ("move", "RUSSIA", "F BUL/SC - BLA", "F BUL/EC - BLA"),  # a wrong one ignored (6.B.10)
    ("move", "FRANCE", "F GAS S F MAO - SPA/NC", "F GAS S F MAO - SPA/NC"),
    ("move", "FRANCE", "F POR S F MAO - SPA", "F POR S F MAO - SPA"),  # support: coast optional
    ("move", "FRANCE", "A MAR - SPA/NC", "A MAR - SPA"),  # an army ignores coasts (6.B.12)
    ("move", "FRANCE", "F BRE - Mid Atlantic", "F BRE - MAO"),
    ("move", "FRANCE", "army paris move burgundy", "A PAR - BUR"),
    ("move", "ITALY", "F LYO C A ROM - SPA", "F LYO C A ROM - SPA"),
    ("move", "ITALY", "A Rome - Tuscany", "A ROM - TUS"),
    ("retreat", "FRANCE", "A BUR R GAS", "A BUR R GAS"),
    ("retreat", "FRANCE", "A BUR - PIC", "A BUR R PIC"),
    ("retreat", "FRANCE", "disband a bur", "A BUR D"),
    ("retreat", "FRANCE", "A BUR D", "A BUR D"),
    ("retreat", "FRANCE", "F MAO R spain(sc)", "F MAO R SPA/SC"),
    ("retreat", "FRANCE", "F MAO R POR", "F MAO R POR"),
    ("adjust", "RUSSIA", "BUILD A STP", "BUILD A STP"),
    ("adjust", "RUSSIA", "build fleet st petersburg north coast", "BUILD F STP/NC"),
    ("adjust", "RUSSIA", "B F STP/SC", "BUILD F STP/SC"),
    ("adjust", "RUSSIA", "waive", "WAIVE"),
    ("adjust", "FRANCE", "remove army marseilles", "REMOVE A MAR"),
    ("adjust", "FRANCE", "D A MAR", "REMOVE A MAR"),
    ("adjust", "FRANCE", "A MAR D", "REMOVE A MAR"),
]


@pytest.mark.parametrize(
    "where, power, text, canonical", CANONICAL, ids=[f"{w}:{t}" for w, _, t, _ in CANONICAL]
)
def test_lenient_input_gives_canonical_text(where, power, text, canonical):
    order = _read(where, power, text)
    assert str(order) == canonical
    assert _read(where, power, canonical) == order  # and the canonical text reads back


# -- the three kinds of error ----------------------------------------------------------------
INVALID, ILLEGAL, AMBIGUOUS = ProblemKind.INVALID, ProblemKind.ILLEGAL, ProblemKind.AMBIGUOUS
ERRORS = [
    # not understood
    ("move", "ENGLAND", "", INVALID, "empty order"),
    ("move", "ENGLAND", "A WAL LON", INVALID, "move mark"),
    ("move", "ENGLAND", "XYZ H", INVALID, "'XYZ'"),
    ("move", "ENGLAND", "A YOR - XYZ", INVALID, "'XYZ'"),
    ("move", "ENGLAND", "A YOR S", INVALID, "ends too early"),
    ("move", "ENGLAND", "A YOR - NWY (", INVALID, "'('"),
    ("adjust", "RUSSIA", "BUILD STP", INVALID, "unit type"),
    # not allowed: the message names the unit and why
    ("move", "ENGLAND", "A LON - WAL", ILLEGAL, "F LON"),
    ("move", "ENGLAND", "F NTH - PIC", ILLEGAL, "F NTH cannot move to PIC"),
    ("move", "ENGLAND", "A YOR - MOS", ILLEGAL, "A YOR cannot move to MOS"),
    ("move", "ENGLAND", "F MAO - BUR", ILLEGAL, "F MAO cannot move to BUR"),
    ("move", "ENGLAND", "A PAR - BUR", ILLEGAL, "A PAR belongs to FRANCE"),
    ("move", "ENGLAND", "F NTH C F LON - BEL", ILLEGAL, "F NTH cannot convoy F LON"),
    ("move", "ENGLAND", "F NTH S F NTH", ILLEGAL, "F NTH cannot support itself"),
    ("move", "ENGLAND", "F ENG C A PAR - PIC", ILLEGAL, "F ENG cannot convoy A PAR to PIC"),
    ("move", "ENGLAND", "F NTH C A WAL - BRE", ILLEGAL, "F NTH cannot convoy A WAL to BRE"),
    ("move", "FRANCE", "A PAR SUPPORTS A MAR", ILLEGAL, "A PAR cannot support A MAR"),
    ("move", "FRANCE", "F BRE - MAO VIA CONVOY", ILLEGAL, "F BRE is a fleet"),
    ("move", "FRANCE", "F GAS - SPA/SC", ILLEGAL, "F GAS cannot reach SPA/SC"),
    ("move", "ITALY", "A ROM - TUN", ILLEGAL, "A ROM cannot move to TUN"),
    ("move", "ENGLAND", "A YOR R NWY", ILLEGAL, "not possible in a movement phase"),
    ("retreat", "FRANCE", "A BUR R PAR", ILLEGAL, "A BUR cannot retreat to PAR"),
    ("retreat", "GERMANY", "A BUR R GAS", ILLEGAL, "A BUR belongs to FRANCE"),
    ("retreat", "FRANCE", "A PAR R GAS", ILLEGAL, "no dislodged unit in PAR"),
    ("retreat", "FRANCE", "A BUR H", ILLEGAL, "not possible in a retreat phase"),
    ("adjust", "RUSSIA", "BUILD A MOS", ILLEGAL, "MOS is occupied"),
    ("adjust", "RUSSIA", "BUILD F WAR", ILLEGAL, "cannot be built in WAR"),
    ("adjust", "RUSSIA", "BUILD A PAR", ILLEGAL, "PAR is not a home centre of RUSSIA"),
    ("adjust", "FRANCE", "REMOVE A MOS", ILLEGAL, "A MOS belongs to RUSSIA"),
    # understood, but it could mean more than one order
    ("move", "ENGLAND", "F MAO - SPA", AMBIGUOUS, "F MAO - SPA: say which coast"),
    ("retreat", "FRANCE", "F MAO R SPA", AMBIGUOUS, "F MAO R SPA: say which coast"),
    ("adjust", "RUSSIA", "BUILD F STP", AMBIGUOUS, "BUILD F STP: say which coast"),
]


@pytest.mark.parametrize(
    "where, power, text, kind, fragment", ERRORS, ids=[f"{w}:{t}" for w, _, t, _, _ in ERRORS]
)
def test_errors_have_a_kind_and_a_reason(where, power, text, kind, fragment):
    with pytest.raises(OrderError) as caught:
        _read(where, power, text)
    assert caught.value.kind is kind
    assert fragment in str(caught.value)


# -- possible_orders ---------------------------------------------------------------------------
def test_possible_orders_of_one_unit():
    pos = POSITIONS["move"]
    orders = {str(o) for o in possible_orders(pos, Unit.parse("A WAL"), "ENGLAND")}
    assert {
        "A WAL H",
        "A WAL - LON",
        "A WAL - LVP",
        "A WAL - YOR",
        "A WAL S F LON",
        "A WAL S A YOR",
        "A WAL S A YOR - LON",
        "A WAL - LON VIA CONVOY",
    } <= orders
    assert "A WAL - LVP VIA CONVOY" not in orders  # no fleet in the Irish Sea
    assert "A WAL - BRE" in orders  # by convoy through ENG
    assert possible_orders(pos, "WAL", "FRANCE") == []  # not France's unit
    assert possible_orders(pos, "BUR") == []  # no unit there
    nth = {str(o) for o in possible_orders(pos, "NTH")}
    assert "F NTH C A YOR - NWY" in nth and "F NTH C A WAL - BEL" in nth
    assert "F NTH S F ENG - BEL" in nth and "F NTH S A YOR - NWY" not in nth  # NTH would carry it
    lyo = {str(o) for o in possible_orders(pos, "LYO")}
    assert {"F LYO S F WES - SPA", "F LYO S F WES - SPA/SC", "F LYO S F MAO - SPA/NC"} <= lyo
    assert "F LYO S F WES - SPA/NC" not in lyo  # WES cannot reach the north coast


def test_possible_orders_in_retreats_and_adjustments():
    pos = POSITIONS["retreat"]
    assert possible_orders(pos, "MAO") == [
        Retreat(Unit.parse("F MAO"), L("POR")),
        Retreat(Unit.parse("F MAO"), L("SPA/NC")),
        Retreat(Unit.parse("F MAO"), L("SPA/SC")),
        Disband(Unit.parse("F MAO")),
    ]
    assert orderable_units(pos) == {"FRANCE": (Unit.parse("A BUR"), Unit.parse("F MAO"))}
    pos = POSITIONS["adjust"]
    assert [str(o) for o in possible_adjustments(pos, "RUSSIA")] == [
        "BUILD A SEV",
        "BUILD F SEV",
        "BUILD A STP",
        "BUILD F STP/NC",
        "BUILD F STP/SC",
        "BUILD A WAR",
        "WAIVE",
    ]
    assert possible_adjustments(pos, "FRANCE") == [Remove(u) for u in pos.units["FRANCE"]]
    assert possible_orders(pos, "PAR") == [Remove(Unit.parse("A PAR"))]
    assert possible_orders(pos, "MOS") == []  # Russia builds, it removes nothing
    assert set(orders_by_power(pos)) == {"RUSSIA", "FRANCE"}


def test_possible_orders_are_exactly_the_legal_ones():
    """Every text validate() accepts for these units, tried by brute force, is in the list
    (a supported fleet move names only a coast the fleet can reach; VIA CONVOY is not
    tried here), and every order of the list is accepted."""
    pos = Position(
        M,
        Phase.parse("S1901M"),
        _units(
            {
                "ENGLAND": "F NTH, A YOR, F ENG, A WAL",
                "FRANCE": "F MAO, A BRE, F SPA/SC",
                "RUSSIA": "F STP/NC, A NWY",
            }
        ),
        {},
    )
    locations = sorted({*M.fleet_adjacency, *(Location(p) for p in M.provinces)}, key=str)
    listed = {(p, o) for p, by in all_possible_orders(pos).items() for os in by.values() for o in os}
    accepted = set()
    for power, unit in pos.all_units():
        texts = [f"{unit} H", *(f"{unit} - {loc}" for loc in locations)]
        for _, other in pos.all_units():
            texts.append(f"{unit} S {other}")
            texts += [f"{unit} {verb} {other} - {loc}" for loc in locations for verb in "SC"]
        for text in texts:
            try:
                accepted.add((power, validate(parse_order(text, M), pos, power)))
            except OrderError:
                pass
    missing = {
        (p, o) for p, o in accepted - listed if not (isinstance(o, SupportMove) and o.dest.coast is not None)
    }
    assert not missing
    extra = {(p, o) for p, o in listed - accepted if not (isinstance(o, Move) and o.via_convoy)}
    assert not extra
    assert any(isinstance(o, Convoy) for _, o in listed)


# -- the property: canonical text round-trips --------------------------------------------------
LAND = [p for p, prov in M.provinces.items() if prov.terrain is not Terrain.SHUT]


@st.composite
def positions(draw) -> Position:
    """A random standard-map position in a random phase (dislodged units in a retreat phase)."""
    kind = draw(st.sampled_from("MRA"))
    season = "W" if kind == "A" else draw(st.sampled_from("SF"))
    phase = Phase.parse(f"{season}{draw(st.integers(1901, 1920))}{kind}")
    places = draw(st.lists(st.sampled_from(LAND), min_size=1, max_size=34, unique=True))
    units: dict[str, list[Unit]] = {}
    for province in places:
        units.setdefault(draw(st.sampled_from(M.power_names)), []).append(draw(_unit_in(province)))
    centers: dict[str, set[str]] = {}
    for center in sorted(M.supply_centers):
        owner = draw(st.sampled_from((None, *M.power_names)))
        if owner:
            centers.setdefault(owner, set()).add(center)
    dislodged: dict[str, list[Dislodged]] = {}
    if kind == "R":
        for province in draw(st.lists(st.sampled_from(places), max_size=5, unique=True)):
            unit = draw(_unit_in(province))
            if unit.type is UnitType.ARMY:
                options = [Location(p) for p in sorted(M.army_neighbours(province))]
            else:
                options = sorted(M.fleet_neighbours(unit.location), key=str)
            retreats = draw(st.lists(st.sampled_from(options), unique=True)) if options else []
            dislodged.setdefault(draw(st.sampled_from(M.power_names)), []).append(
                Dislodged(unit, province, tuple(sorted(retreats, key=str)))
            )
    return Position(M, phase, units, centers, dislodged)


def _unit_in(province: str):
    prov = M.provinces[province]
    kinds = []
    if prov.terrain.army_can_enter:
        kinds.append(Unit(UnitType.ARMY, Location(province)))
    if prov.terrain.fleet_can_enter:
        kinds += [Unit(UnitType.FLEET, Location(province, c)) for c in prov.coasts or (None,)]
    return st.sampled_from(kinds)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pos=positions(), data=st.data())
def test_canonical_text_round_trips(pos, data):
    """validate(parse_order(str(o)), pos, power) == o for every legal order of a random unit
    (or of a random power, in an adjustment phase)."""
    if pos.phase.is_adjustments:
        choices = [(p, possible_adjustments(pos, p)) for p in M.power_names]
    else:
        choices = [(p, possible_orders(pos, u, p)) for p, us in orderable_units(pos).items() for u in us]
    choices = [(p, os) for p, os in choices if os]
    if not choices:
        return
    power, orders = data.draw(st.sampled_from(choices))
    for order in orders:
        text = str(order)
        again = validate(parse_order(text, M), pos, power)
        assert again == order, text
        assert str(again) == text
        assert isinstance(again, type(order))


@settings(max_examples=60, deadline=None)
@given(pos=positions())
def test_every_power_may_waive_or_must_remove(pos):
    if not pos.phase.is_adjustments:
        return
    for power in M.power_names:
        orders = possible_adjustments(pos, power)
        delta = pos.adjustment(power)
        if delta < 0:
            assert orders and all(isinstance(o, Remove) for o in orders)
        elif delta > 0 and pos.buildable_homes(power):
            assert orders[-1] == Waive() and all(isinstance(o, Build) for o in orders[:-1])
        else:
            assert orders == []


# -- canonical text has a faster reader; it must agree with the tokenizer ------------------------
TOY = load_map_file(Path(__file__).parent / "maps" / "toy.map")
# names that collide with the canonical words: a name begins with `CAS` and goes on past it
# (`CAS - BET`), so `CAS` must be left to the tokenizer; `VIA` is a province's name, so
# the keyword is not read alone and every text goes through the tokenizer
CLASHING = dataclasses.replace(TOY, aliases={**TOY.aliases, "CAS - BET": Location("NSE")})
VIA_PROVINCE = dataclasses.replace(TOY, aliases={**TOY.aliases, "VIA": Location("INL")})
_KEYWORDS = ["A", "F", "H", "-", "S", "C", "R", "D", "VIA", "CONVOY", "BUILD", "REMOVE", "WAIVE"]
_SHAPES = [
    "U L H",
    "U L - L",
    "U L - L VIA CONVOY",
    "U L S U L",
    "U L S U L - L",
    "U L C U L - L",
    "U L R L",
    "U L D",
    "BUILD U L",
    "REMOVE U L",
    "WAIVE",
]


def _names(m) -> list[str]:
    return sorted({str(loc) for loc in m.aliases.values()})


@st.composite
def order_texts(draw, m) -> str:
    """Mostly texts of the canonical shapes, some of arbitrary words and marks."""
    names = _names(m)
    if draw(st.booleans()):
        shape = draw(st.sampled_from(_SHAPES)).split()
        return " ".join(
            draw(st.sampled_from("AF")) if w == "U" else draw(st.sampled_from(names)) if w == "L" else w
            for w in shape
        )
    words = names + _KEYWORDS + ["NC", "/", "(", ")", "NORTH", "COAST", "TO", "PARIS", "x"]
    return " ".join(draw(st.lists(st.sampled_from(words), min_size=1, max_size=7)))


@pytest.mark.parametrize("m", [M, TOY, CLASHING, VIA_PROVINCE], ids=["standard", "toy", "clashing", "via"])
@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_canonical_reader_agrees_with_the_tokenizer(m, data):
    text = data.draw(order_texts(m))
    fast = _read_canonical(text, m)
    try:
        full = read_order_tokens(text, m)
    except OrderError:
        full = None
    assert fast is None or fast == full, text


@pytest.mark.parametrize("m", [M, TOY, CLASHING, VIA_PROVINCE], ids=["standard", "toy", "clashing", "via"])
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_order_bodies_read_as_the_tokenizer_reads_them(m, data):
    """What follows a unit (after `|` in an offer) reads alike by either reader."""
    text = data.draw(order_texts(m))
    words = text.split()
    if len(words) < 2:
        return
    try:
        unit = parse_unit(" ".join(words[:2]), m)
    except OrderError:
        return
    body = " ".join(words[2:])
    try:
        full = read_body_tokens(unit, body, m)
    except OrderError:
        with pytest.raises(OrderError):
            parse_order_body(unit, body, m)
        return
    assert parse_order_body(unit, body, m) == full, text


def test_canonical_reader_reads_every_canonical_word():
    for m in (M, TOY):
        assert set(_canonical_words(m)) == set(_names(m))
    assert set(_canonical_words(CLASHING)) == set(_names(TOY)) - {"CAS"}
    assert _canonical_words(VIA_PROVINCE) is None
    for m in (CLASHING, VIA_PROVINCE):
        assert _read_canonical("A CAS - BET", m) is None
        assert _read_canonical("A BET - CAS", m) is None
        assert parse_order("A CAS - BET", m) == read_order_tokens("A CAS - BET", m)
    assert _read_canonical("A BET H", CLASHING) is not None


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pos=positions(), data=st.data())
def test_canonical_text_takes_the_fast_reader(pos, data):
    """Every legal order's text is read by the canonical reader, as the tokenizer reads it."""
    if pos.phase.is_adjustments:
        orders = [o for p in M.power_names for o in possible_adjustments(pos, p)]
    else:
        orders = [o for p, us in orderable_units(pos).items() for u in us for o in possible_orders(pos, u, p)]
    for order in orders:
        fast = _read_canonical(str(order), M)
        assert fast is not None and fast == read_order_tokens(str(order), M), str(order)


# -- read_orders remembers accepted movement orders; the answer must follow the board ----------
def _accepted(units: dict[str, list[Unit]], power: str, text: str) -> list:
    """The orders read_orders accepts from `text`, with the very same Unit objects."""
    pos = Position(M, Phase.parse("S1901M"), {p: tuple(us) for p, us in units.items()}, {})
    accepted, _problems = read_orders(pos, {power: [text]})
    return accepted.get(power, [])


def test_remembered_orders_follow_the_board():
    lon, nth, yor_army, yor_fleet, nwg = (
        Unit.parse(t) for t in ("A LON", "F NTH", "A YOR", "F YOR", "F NWG")
    )
    # a convoy route depends on the fleets on the board, not on the units the order names
    assert _accepted({"ENGLAND": [lon, nth]}, "ENGLAND", "A LON - NWY") == [Move(lon, L("NWY"))]
    assert _accepted({"ENGLAND": [lon]}, "ENGLAND", "A LON - NWY") == []
    assert _accepted({"ENGLAND": [lon, nth, nwg]}, "ENGLAND", "F NWG S A LON - NWY") != []
    assert _accepted({"ENGLAND": [lon, nwg]}, "ENGLAND", "F NWG S A LON - NWY") == []
    # a fleet cannot support the move it convoys: the chain must do without it
    around = [Unit.parse(f"F {sea}") for sea in ("ENG", "IRI", "NAO")]
    assert _accepted({"ENGLAND": [lon, nth, nwg, *around]}, "ENGLAND", "F NTH S A LON - NWY") != []
    assert _accepted({"ENGLAND": [lon, nth]}, "ENGLAND", "F NTH S A LON - NWY") == []
    # the same unit object, now another power's
    assert _accepted({"ENGLAND": [lon]}, "ENGLAND", "A LON - WAL") == [Move(lon, L("WAL"))]
    assert _accepted({"FRANCE": [lon]}, "ENGLAND", "A LON - WAL") == []
    assert _accepted({"FRANCE": [lon]}, "FRANCE", "A LON - WAL") == [Move(lon, L("WAL"))]
    # another unit in the same place
    assert _accepted({"ENGLAND": [Unit.parse("F LON")]}, "ENGLAND", "A LON - WAL") == []
    # the supported unit is no longer the one named
    assert _accepted({"ENGLAND": [lon, yor_army]}, "ENGLAND", "A LON S A YOR") != []
    assert _accepted({"ENGLAND": [lon, yor_fleet]}, "ENGLAND", "A LON S A YOR") == []
    assert _accepted({"ENGLAND": [lon]}, "ENGLAND", "A LON S A YOR") == []
