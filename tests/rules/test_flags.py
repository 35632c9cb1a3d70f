"""The adjudication flags of seed 003, each from its case file in tests/rules/flags/.

One file per flag, named after it (`NO_RETREAT.datc`), in the DATC format of
tests/rules/datc/README.md with six more keywords: `FLAGS` (the flags in force, with what
they bring by the registry), `DUMMIES` (the dummy powers), `NEXT` (the phase that follows
the last ORDERS block), `START` (the case begins from the map's opening position under
its flags, instead of PHASE/CENTERS/UNITS), `OWNERS` (the centre ownership expected after
the last block, complete) and `MAP` (the map played on: one of ours in
tests/rules/flags/maps/, else one of DPjudge's in ../shared/dpjudge-maps; the standard map
when not given). The situations are ours.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from payjudge.rules.errors import OrderError
from payjudge.rules.flag_registry import REGISTRY, closure, lookup
from payjudge.rules.flags import Flag, Status
from payjudge.rules.geography import Map
from payjudge.rules.mapfile import load_map_file, load_variant
from payjudge.rules.orders import Unit
from payjudge.rules.parse import parse_order, parse_unit
from payjudge.rules.phase import Phase
from payjudge.rules.position import Position
from payjudge.rules.turn import advance
from payjudge.rules.validate import validate

from .datc_format import Case, read_cases

FLAG_DIR = Path(__file__).parent / "flags"
CASES = read_cases(FLAG_DIR)
STANDARD = load_variant("standard")
OUR_MAPS = FLAG_DIR / "maps"
DPJUDGE = Path(__file__).resolve().parents[3] / "shared" / "dpjudge-maps"
if not DPJUDGE.is_dir():
    DPJUDGE = Path("/work/shared/dpjudge-maps")

# the flags of issue 10 item 5 that are done: each has its file and is SUPPORTED
DONE = {
    Flag.NO_RETREAT,
    Flag.BUILD_ANY,
    Flag.HOME_BUILDS,
    Flag.REMOTE_BUILDS,
    Flag.FRIENDLY_FIRE,
    Flag.DUMMY_FIRE,
    Flag.COASTAL_CRAWL,
    Flag.WEAK_BOUNCES,
    Flag.SAFE_CONVOYS,
    Flag.WEAK_CONVOYS,
    Flag.CONVOY_BACK,
    Flag.NO_RETURN,
    Flag.CD_BUILDS,
    Flag.CD_RETREATS,
    Flag.SMART_CD,
    Flag.IMMOBILE_DUMMIES,
    Flag.MOBILIZE,
    Flag.FLEX_SETUP,
    Flag.COASTAL_CONVOY,
    Flag.GARRISON,
    Flag.PORTAGE_CONVOY,
    Flag.MULTI_COAST_PORTAGE,
    Flag.UNITS_ADAPT,
    Flag.HIBERNATE,
}


def _map(name: str) -> Map:
    if name == "standard":
        return STANDARD
    ours = OUR_MAPS / f"{name}.map"
    if ours.is_file():
        return load_map_file(ours)
    search = [DPJUDGE / "trials", DPJUDGE / "maps"]
    found = [p / f"{name}.map" for p in search if (p / f"{name}.map").is_file()]
    if not found:
        pytest.skip(f"map {name} is not here (DPjudge's maps: ../shared/dpjudge-maps)")
    return load_map_file(found[0], search)


def _flags(case: Case) -> frozenset[Flag]:
    named = []
    for name in case.flags:
        flag = lookup(name)
        assert flag is not None, f"{case.file}: unknown flag {name}"
        named.append(flag)
    return closure(named)


def _unit(text: str, game_map: Map = STANDARD) -> Unit:
    spec = parse_unit(text, game_map)
    assert spec.type is not None, text
    return Unit(spec.type, spec.location)


def _units(d: dict[str, list[str]], game_map: Map = STANDARD) -> dict[str, set[str]]:
    return {p: {str(_unit(u, game_map)) for u in us} for p, us in d.items() if us}


def test_one_file_per_done_flag():
    files = {p.stem for p in FLAG_DIR.glob("*.datc")}
    assert files == {f.value for f in DONE}
    for flag in DONE:
        assert REGISTRY[flag].status is Status.SUPPORTED, flag


def test_every_file_names_its_flag():
    for case in CASES:
        named = {lookup(name) for name in case.flags}
        assert lookup(Path(case.file).stem) in named, f"{case.id}: FLAGS must name {case.file}"


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_flag_case(case: Case):
    play_case(case)


def play_case(case: Case) -> None:
    """Play a case file's blocks and check what it expects (also tests/rules/test_borders.py)."""
    flags = _flags(case)
    dummies = frozenset(case.dummies)
    board = _map(case.map)
    centers = (
        case.centers if case.centers is not None else {p: sorted(cs) for p, cs in board.start_centers.items()}
    )
    position = Position(
        board,
        Phase.parse(case.phase),
        {p: tuple(_unit(u, board) for u in us) for p, us in case.units.items()},
        {p: frozenset(cs) for p, cs in centers.items()},
    )
    if case.start:
        position = Position.initial(board, flags)
    report = None
    for block in case.blocks:
        before = position
        report, position = advance(position, block.orders, flags=flags, dummies=dummies)
        rejected = {(e.power, e.text) for e in report.errors}
        for power, text, expected in block.results:
            if (power, text) in rejected:
                got = "fails"
            else:
                try:
                    order = validate(parse_order(text, board), before, power, flags=flags, dummies=dummies)
                except OrderError as exc:
                    got = "fails"
                    assert expected == "fails", f"{text}: {exc}"
                    continue
                hits = [o for o in report.outcomes if o.power == power and o.order == order]
                assert hits, f"{text} not among the outcomes {[str(o) for o in report.outcomes]}"
                got = "succeeds" if hits[0].result.succeeded else "fails"
            assert got == expected, (
                f"{power}: {text}: expected {expected}, got {got} "
                f"({[str(o) for o in report.outcomes]}; errors {report.errors})"
            )
    if case.next_phase is not None:
        assert str(position.phase) == case.next_phase
    if case.position is not None:
        got = {p: {str(u) for u in us} for p, us in position.units.items() if us}
        assert got == _units(case.position, board)
    if case.owners is not None:
        got_owners = {p: sorted(cs) for p, cs in position.centers.items() if cs}
        assert got_owners == {p: sorted(cs) for p, cs in case.owners.items() if cs}
    if case.dislodged is not None:
        if report is not None and report.phase.is_movement:
            got = {p: {str(d.unit) for d in ds} for p, ds in report.dislodged.items() if ds}
        else:
            got = {p: {str(d.unit) for d in ds} for p, ds in position.dislodged.items() if ds}
        assert got == _units(case.dislodged, board)


def test_possible_adjustments_follow_the_build_flags():
    """The list of legal builds (rules.possible) uses the same sites as the adjudicator."""
    from payjudge.rules.possible import possible_adjustments

    position = Position(STANDARD, Phase.parse("W1901A"), {}, {"FRANCE": frozenset({"PAR", "SPA"})})
    plain = {str(o) for o in possible_adjustments(position, "FRANCE")}
    anywhere = {str(o) for o in possible_adjustments(position, "FRANCE", closure({Flag.BUILD_ANY}))}
    assert not any("SPA" in o for o in plain) and any("PAR" in o for o in plain)
    assert any("SPA" in o for o in anywhere)
    mobilized = Position.initial(STANDARD, closure({Flag.MOBILIZE}))
    assert str(mobilized.phase) == "W1900A" and not mobilized.units


def test_without_the_flags_a_unit_on_changed_terrain_is_destroyed_and_reported():
    """The terrain of each phase is in force (the map's `IN` lines): without UNITS_ADAPT or
    HIBERNATE a unit on a space its kind cannot stand on any more is destroyed, and the
    phase's report names it."""
    from payjudge.rules.geography import Terrain
    from payjudge.rules.serial import position_from_json, position_to_json

    tides = _map("tides")
    units = {"NORTH": ("F LAG", "A FLD"), "SOUTH": ("A PAS", "A VAL")}
    position = Position(
        tides,
        Phase.parse("S1901M"),
        {p: tuple(_unit(u, tides) for u in us) for p, us in units.items()},
        {"NORTH": frozenset({"HOM"}), "SOUTH": frozenset({"VAL", "SHO"})},
    )
    assert position.map.provinces["LAG"].terrain is Terrain.WATER
    report, fall = advance(position, {})
    assert str(fall.phase) == "F1901M" and fall.map.provinces["LAG"].terrain is Terrain.LAND
    assert {p: {str(u) for u in us} for p, us in fall.units.items()} == {"SOUTH": {"A VAL"}}
    lost = [(p, str(u)) for p, u in report.stranded]
    assert lost == [("NORTH", "A FLD"), ("NORTH", "F LAG"), ("SOUTH", "A PAS")]
    # a position read back from storage is on the board of its phase too
    stored = position_from_json(tides, position_to_json(fall))
    assert stored.map.provinces["PAS"].terrain is Terrain.SHUT


def test_a_hibernating_unit_has_only_its_hold_among_the_possible_orders():
    from payjudge.rules.possible import possible_orders

    tides = _map("tides")
    position = Position(
        tides,
        Phase.parse("S1901M"),
        {"NORTH": (_unit("F LAG", tides),), "SOUTH": (_unit("A PAS", tides),)},
        {"NORTH": frozenset({"HOM"}), "SOUTH": frozenset({"VAL"})},
    )
    assert len(possible_orders(position, "LAG")) > 1
    _, fall = advance(position, {}, flags=_flags_named("HIBERNATE"))
    assert [str(o) for o in possible_orders(fall, "LAG")] == ["F LAG H"]
    assert [str(o) for o in possible_orders(fall, "PAS")] == ["A PAS H"]


def _flags_named(*names: str) -> frozenset[Flag]:
    return closure(lookup(n) for n in names)
