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
