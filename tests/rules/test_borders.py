"""The special borders of DPjudge maps in play (rules/borders.py), from the case files in
tests/rules/borders/: the format of tests/rules/flags/ (test_flags.py plays them), on a map
of ours (tests/rules/flags/maps/borders.map) and on DPjudge's 1900, loeb9 and imperial."""

from __future__ import annotations

from pathlib import Path

import pytest

from payjudge.rules.position import Position
from payjudge.rules.possible import all_possible_orders

from .datc_format import Case, read_cases
from .test_flags import _map, play_case

CASES = read_cases(Path(__file__).parent / "borders")


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_border_case(case: Case):
    play_case(case)


def test_the_lists_of_possible_orders_keep_to_the_borders():
    """rules.possible lists no order that validate refuses for a special border."""
    board = _map("borders")
    position = Position.initial(board)
    orders = {str(o) for us in all_possible_orders(position).values() for os in us.values() for o in os}
    assert "A WES S A HIL - MID" not in orders and "A WES - MID" in orders
    assert "F OUT - INN" not in orders
    assert "A HIL - EAS" not in orders and "A EAS - HIL" in orders


def test_a_remembered_order_is_read_again_when_the_straits_owner_changes():
    """read_orders remembers accepted orders by their text; a strait only the Gate's owner
    may sail makes the same order legal or not by who owns a centre, so on such a map
    nothing is remembered (F OUT - INN: accepted while WEST owns GAT, refused after)."""
    from payjudge.rules.orders import Unit
    from payjudge.rules.turn import read_orders

    board = _map("borders")
    start = Position.initial(board)
    fleet = Unit.parse("F OUT")
    owner = Position(board, start.phase, {"WEST": (fleet,)}, {"WEST": frozenset({"WES", "GAT"})})
    other = Position(
        board, start.phase, {"WEST": (fleet,)}, {"WEST": frozenset({"WES"}), "EAST": frozenset({"GAT"})}
    )
    accepted, problems = read_orders(owner, {"WEST": ["F OUT - INN"]})
    assert [str(o) for o in accepted["WEST"]] == ["F OUT - INN"] and not problems
    accepted, problems = read_orders(other, {"WEST": ["F OUT - INN"]})
    assert "WEST" not in accepted and len(problems) == 1


def test_no_support_across_a_marked_border_means_not_adjacent_for_touch_and_remote():
    """Seed 003: TOUCH_BRIBE/REMOTE_BRIBE (and the press rules) call units adjacent when
    either could support the other to hold; across WES~MID no support is given."""
    from payjudge.payola.rules import PayolaRules
    from payjudge.rules.orders import Unit
    from payjudge.rules.proximity import supports_either_way, touching
    from payjudge.text.sheet import parse_sheet

    board = _map("borders")
    start = Position.initial(board)
    west, mid, hill = Unit.parse("A WES"), Unit.parse("A MID"), Unit.parse("A HIL")
    assert not supports_either_way(board, west, mid) and supports_either_way(board, hill, mid)
    apart = Position(board, start.phase, {"WEST": (west,), "EAST": (mid,)}, {})
    near = Position(board, start.phase, {"WEST": (hill,), "EAST": (mid,)}, {})
    assert not touching(apart, "WEST", "EAST") and touching(near, "WEST", "EAST")
    for flag, refused_at in (("TOUCH_BRIBE", apart), ("REMOTE_BRIBE", near)):
        rules = PayolaRules.from_flags([flag])
        for pos in (apart, near):
            parsed = parse_sheet("3 : A MID H", pos, "WEST", rules, balance=10)
            assert bool(parsed.problems) is (pos is refused_at), (flag, parsed.problems)
