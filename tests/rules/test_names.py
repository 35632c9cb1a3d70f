"""The typed names of rules/names.py: mypy refuses a raw string where a power's name is
expected, and takes one that came from the map or a position."""

from __future__ import annotations

from pathlib import Path

from tests.mypysnippet import run_mypy

ROOT = Path(__file__).resolve().parents[2]

# each snippet is checked as a module of its own against the real payjudge package
RAW = """
from payjudge.rules.mapfile import load_variant
from payjudge.rules.position import Position

pos = Position.initial(load_variant("standard"))
pos.adjustment("ENGLAND")  # a player's text, not a name: refused
pos.units.get("FRANCE")  # the same for a lookup by power
"""

TYPED = """
from payjudge.rules.mapfile import load_variant
from payjudge.rules.position import Position
from payjudge.rules.turn import winners

m = load_variant("standard")
pos = Position.initial(m)
for power in m.power_names:  # names come from the map
    pos.adjustment(power)
england = m.power("e")  # a player's spelling, resolved by the map
if england is not None:
    pos.units.get(england.name)
for winner in winners(pos):
    pos.centers.get(winner)
owner = pos.center_owner("LON")
if owner is not None:
    pos.adjustment(owner)
"""


def test_a_raw_string_is_no_power_name(tmp_path: Path) -> None:
    out, status = run_mypy(tmp_path, RAW)
    assert status == 1
    lines = [line for line in out.splitlines() if "error" in line]
    assert len(lines) == 2, out
    assert 'incompatible type "str"; expected "PowerName"' in lines[0]
    assert '"get" of "Mapping"' in lines[1]


def test_names_from_the_map_and_the_position_are_power_names(tmp_path: Path) -> None:
    out, status = run_mypy(tmp_path, TYPED)
    assert status == 0, out
