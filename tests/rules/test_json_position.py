"""Reading a position from judge-json (`jsonapi.common.position`): names read before are
looked up, not read again, and the answer is the same as reading them the first time —
the same `Position`, or the same refusal."""

from __future__ import annotations

import pytest

from payjudge.jsonapi import BadInput
from payjudge.jsonapi.common import position
from payjudge.rules.mapfile import load_variant
from payjudge.rules.orders import Unit
from payjudge.rules.phase import Phase
from payjudge.rules.position import Position

DOC = {
    "phase": "F1902M",
    "units": {"FRANCE": ["F BRE", "A BUR", "A PAR"], "GERMANY": ["A MUN", "F KIE"], "ITALY": []},
    "centers": {"FRANCE": ["PAR", "MAR", "BRE"], "GERMANY": ["MUN"], "ITALY": []},
}


def _by_hand(doc: dict) -> Position:
    units = {p: tuple(Unit.parse(u) for u in us) for p, us in doc["units"].items()}
    return Position(load_variant("standard"), Phase.parse(doc["phase"]), units, doc["centers"])


def test_a_position_read_again_is_the_same():
    first, again = position(DOC), position(DOC)
    assert first == again == _by_hand(DOC)
    assert list(again.units) == ["FRANCE", "GERMANY"]  # no empty entries; the input's order
    assert again.units["FRANCE"] == tuple(Unit.parse(u) for u in ("F BRE", "A BUR", "A PAR"))
    assert again.unit_at("KIE") == Unit.parse("F KIE") and again.owner_at("KIE") == "GERMANY"
    assert again.center_owner("MAR") == "FRANCE" and not again.dislodged


@pytest.mark.parametrize(
    "change, message",
    [
        ({"units": {"FRANCE": ["A PAR", "A BUR"], "GERMANY": ["A PAR"]}}, "two units in PAR"),
        ({"units": {"FRANCE": ["A PAR", "A PAR"]}}, "two units in PAR"),
        ({"units": {"FRANCE": ["A PAR"], "GERMANY": ["F BRE", "A BUR"]}, "centers": {}}, None),
        ({"centers": {"FRANCE": ["PAR", "MUN"], "GERMANY": ["MUN"]}}, "MUN is owned by both"),
        ({"units": {"FRANCE": "A PAR"}}, "units of FRANCE must be a list"),
        ({"units": {"FRANCE": {"A PAR": 1}}}, "units of FRANCE must be a list"),
        ({"centers": {"FRANCE": {"PAR": 1}}}, "centers of FRANCE must be a list"),
        ({"units": {"FRANCE": ["A PAR"], "france": ["A BUR"]}}, None),
        ({"centers": {"FRANCE": ["PAR"], "france": ["MAR"]}}, None),
        ({"units": {"FRANCE": ["A PAR", 3]}}, "a unit must be a string"),
        ({"centers": {"FRANCE": ["PAR", ["MAR"]]}}, "a province must be a string"),
    ],
)
def test_names_read_before_get_the_same_checks(change, message):
    """Every name below has been read once already (`DOC`, and the case read twice)."""
    position(DOC)
    position({"units": {"france": []}, "centers": {"france": []}})
    doc = dict(DOC, **change)
    if message is None:
        first, again = position(doc), position(doc)
        assert first == again
        return
    for _ in range(2):
        with pytest.raises(BadInput, match=message):
            position(doc)
