"""BLIND visibility (seed 003 §1.6) as data: one board, what England sees under each of the
twelve modifiers, then how a unit's passage reads (ARRIVES, DEPARTS, FOUND, LOST)."""

from __future__ import annotations

import pytest

from payjudge.rules.flags import Flag
from payjudge.rules.mapfile import load_variant
from payjudge.rules.orders import Build, Disband, Move, Retreat, Unit
from payjudge.rules.position import Position
from payjudge.rules.visibility import Rules, Seen, Snapshot, seen, snapshot, unit_path


@pytest.fixture(scope="module")
def board() -> Position:
    m = load_variant("standard")
    units = {
        "ENGLAND": ("F LON", "A WAL", "F NTH"),
        "FRANCE": ("F ENG", "A PIC"),  # ENG: next to LON; PIC: only next to owned BEL
        "GERMANY": ("A YOR", "F HOL"),  # YOR: next to home centres; HOL: reached by F NTH
        "RUSSIA": ("F NWG", "A CLY"),  # NWG: reached by F NTH; CLY: seen by centres only
    }
    centres = {
        "ENGLAND": {"LON", "LVP", "EDI", "BEL"},
        "FRANCE": {"BRE", "PAR", "MAR"},
        "GERMANY": {"HOL", "KIE", "BER", "MUN"},
        "RUSSIA": {"NWY", "STP", "MOS", "SEV", "WAR"},
    }
    return Position(
        m,
        m_phase(m),
        {p: tuple(Unit.parse(u) for u in us) for p, us in units.items()},
        {p: frozenset(cs) for p, cs in centres.items()},
    )


def m_phase(m):  # the opening phase
    return Position.initial(m).phase


OWN = {"LON", "WAL", "NTH"}
OWN_CENTRES = {"LON", "LVP", "EDI", "BEL"}
NEAR_CENTRES = OWN_CENTRES | {"HOL", "NWY", "DEN"}  # F NTH could move there (DEN: seen unowned)
# (flags, foreign units England sees, centres whose owner England sees)
CASES = [
    ((), {"ENG", "YOR", "HOL", "NWG", "CLY"}, NEAR_CENTRES),
    ((Flag.OWN_SCS_SEE,), {"ENG", "YOR", "HOL", "NWG", "CLY", "PIC"}, NEAR_CENTRES),
    ((Flag.NO_SCS_SEE,), {"ENG", "YOR", "HOL", "NWG"}, NEAR_CENTRES),
    ((Flag.NO_UNITS_SEE,), {"ENG", "YOR", "NWG", "CLY"}, OWN_CENTRES),
    ((Flag.SEE_NO_SCS,), {"ENG", "YOR", "HOL", "NWG", "CLY"}, OWN_CENTRES),
    ((Flag.SEE_ALL_SCS,), {"ENG", "YOR", "HOL", "NWG", "CLY"}, "all"),
    ((Flag.SEE_NO_UNITS,), set(), NEAR_CENTRES),
    ((Flag.UNITS_SEE_OTHER,), {"ENG", "YOR"}, NEAR_CENTRES),
    ((Flag.UNITS_SEE_SAME,), {"ENG", "YOR", "HOL", "NWG"}, NEAR_CENTRES),
    ((Flag.MYOPIC,), set(), OWN_CENTRES),
    ((Flag.VENETIAN,), {"ENG", "YOR", "HOL", "NWG", "CLY", "PIC"}, OWN_CENTRES),
    ((Flag.GREEK,), {"ENG", "YOR", "HOL", "NWG"}, NEAR_CENTRES),
    ((Flag.TROJAN,), {"ENG", "YOR"}, NEAR_CENTRES),
]


@pytest.mark.parametrize(
    ("flags", "units", "owners"), CASES, ids=[",".join(f.value for f in c[0]) or "BLIND" for c in CASES]
)
def test_what_england_sees(board, flags, units, owners):
    got = snapshot(board, "ENGLAND", Rules.of((Flag.BLIND, *flags)))
    assert got.provinces == frozenset(OWN | units)
    assert {p for p, prov in got.units if prov in OWN} == {"ENGLAND"}
    expected = board.map.supply_centers if owners == "all" else frozenset(owners)
    assert got.owners == expected


def test_home_centres_see_even_when_lost(board):
    # France's home centres see the units next to them, whoever owns the centres
    got = snapshot(board, "FRANCE", Rules.of((Flag.BLIND,)))
    assert {("FRANCE", "PIC"), ("FRANCE", "ENG"), ("ENGLAND", "WAL")} <= got.units
    assert "BEL" in got.owners  # A PIC could move to Belgium: France sees England owns it


SEEN_BEFORE = Snapshot(frozenset({("GERMANY", "BUR"), ("GERMANY", "MUN")}), frozenset())
SEEN_AFTER = Snapshot(frozenset({("GERMANY", "MUN"), ("GERMANY", "PAR"), ("FRANCE", "RUH")}), frozenset())
PASSAGES = [
    ("MUN", "MUN", Seen.FULL),
    ("BUR", "RUH", Seen.DEPARTS),  # seen where it started only: it moved away
    ("RUH", "PAR", Seen.ARRIVES),
    ("BUR", "BUR", Seen.LOST),  # it stayed; the viewer's sight moved
    ("PAR", "PAR", Seen.FOUND),
    ("BUR", None, Seen.LOST),  # disbanded
    (None, "PAR", Seen.FOUND),  # built
    ("RUH", "KIE", None),
    ("KIE", "RUH", None),  # the unit seen in the Ruhr is another power's
]


@pytest.mark.parametrize(("start", "end", "how"), PASSAGES)
def test_passages(start, end, how):
    assert seen(SEEN_BEFORE, SEEN_AFTER, "GERMANY", start, end) is how


def test_unit_paths(board):
    a = Unit.parse("A PIC")
    assert unit_path(Move(a, Unit.parse("A BEL").location), True) == (a, "PIC", "BEL")
    assert unit_path(Move(a, Unit.parse("A BEL").location), False) == (a, "PIC", "PIC")
    assert unit_path(Retreat(a, Unit.parse("A BEL").location), False) == (a, "PIC", None)
    assert unit_path(Build(a), True) == (a, None, "PIC")
    assert unit_path(Disband(a), True) == (a, "PIC", None)
