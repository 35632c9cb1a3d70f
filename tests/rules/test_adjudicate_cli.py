"""The JSON contract of `payjudge adjudicate` (shared/spec/judge-json.md), through click's
test runner and through the real console script."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from payjudge.cli import main

SPEC_INPUT = {
    "variant": "standard",
    "phase": "S1901M",
    "units": {"ENGLAND": ["F NTH", "A YOR"], "FRANCE": ["F BRE"]},
    "centers": {"ENGLAND": ["LON", "EDI", "LVP"]},
    "orders": [
        {"ENGLAND": ["F NTH C A YOR - NWY", "A YOR - NWY"], "FRANCE": ["F BRE - ENG"]},
        {"ENGLAND": ["A NWY - SWE"]},
    ],
}
SPEC_FIRST_PHASE = {
    "phase": "S1901M",
    "orders": {
        "ENGLAND": [
            {"order": "A YOR - NWY", "result": "succeeds"},
            {"order": "F NTH C A YOR - NWY", "result": "succeeds"},
        ],
        "FRANCE": [{"order": "F BRE - ENG", "result": "succeeds"}],
    },
    "errors": [],
}


def adjudicate(doc, *args: str) -> tuple[int, object, str]:
    """Run `payjudge adjudicate -` in-process: exit status, parsed stdout, stderr."""
    text = doc if isinstance(doc, str) else json.dumps(doc)
    result = CliRunner().invoke(main, ["adjudicate", *args, "-"], input=text)
    out = result.stdout
    if "--jsonl" in args:
        parsed: object = [json.loads(line) for line in out.splitlines()]
    else:
        parsed = json.loads(out) if out.strip() else None
    return result.exit_code, parsed, result.stderr


def _units(out: dict) -> dict[str, set[str]]:
    return {p: set(us) for p, us in out["units"].items()}


def test_spec_example_first_phase():
    doc = dict(SPEC_INPUT, orders=SPEC_INPUT["orders"][:1])
    code, out, _ = adjudicate(doc)
    assert code == 0
    assert out["phase"] == "F1901M"
    assert _units(out) == {"ENGLAND": {"F NTH", "A NWY"}, "FRANCE": {"F ENG"}}
    assert out["dislodged"] == {}
    assert out["centers"] == {"ENGLAND": ["EDI", "LON", "LVP"]}
    assert out["history"] == [SPEC_FIRST_PHASE]


def test_spec_example_both_order_sets():
    code, out, _ = adjudicate(SPEC_INPUT)
    assert code == 0
    assert out["history"][0] == SPEC_FIRST_PHASE
    fall = out["history"][1]
    assert fall["phase"] == "F1901M"
    assert fall["orders"]["ENGLAND"] == [
        {"order": "A NWY - SWE", "result": "succeeds"},
        {"order": "F NTH H", "result": "succeeds", "default": True},
    ]  # no order: it holds
    assert fall["center_changes"] == [{"center": "SWE", "from": None, "to": "ENGLAND"}]
    # England owns four centres, has two units and vacant homes: the winter is played
    assert out["phase"] == "W1901A"
    assert out["centers"] == {"ENGLAND": ["EDI", "LON", "LVP", "SWE"]}
    assert _units(out) == {"ENGLAND": {"F NTH", "A SWE"}, "FRANCE": {"F ENG"}}


def test_skipped_phases_take_no_order_set():
    """No dislodgement: no retreat phase; no adjustment due: no winter. Each order set goes
    to the next phase that really happens."""
    doc = {
        "phase": "F1901M",
        "orders": [
            {"FRANCE": ["A PAR - BUR"]},  # F1901M: nothing changes hands
            {"FRANCE": ["A BUR - MUN"], "GERMANY": ["A MUN H"]},
        ],
    }  # S1902M
    code, out, _ = adjudicate(doc)
    assert code == 0
    assert [h["phase"] for h in out["history"]] == ["F1901M", "S1902M"]
    assert {"order": "A BUR - MUN", "result": "bounced"} in out["history"][1]["orders"]["FRANCE"]
    assert out["phase"] == "F1902M"


def test_retreat_phase():
    doc = {
        "phase": "S1901M",
        "units": {"FRANCE": ["A BUR", "F BRE"], "GERMANY": ["A MUN", "A RUH"]},
        "orders": [{"GERMANY": ["A RUH - BUR", "A MUN S A RUH - BUR"], "FRANCE": ["A BUR H"]}],
    }
    code, out, _ = adjudicate(doc)
    assert code == 0
    assert out["phase"] == "S1901R"
    assert out["dislodged"] == {
        "FRANCE": [{"unit": "A BUR", "retreats": ["BEL", "GAS", "MAR", "PAR", "PIC"]}]
    }
    assert _units(out) == {"FRANCE": {"F BRE"}, "GERMANY": {"A BUR", "A MUN"}}
    moves = out["history"][0]
    assert {"order": "A BUR H", "result": "dislodged", "dislodged": True} in moves["orders"]["FRANCE"]
    assert moves["dislodged"] == out["dislodged"]

    doc["orders"].append({"FRANCE": ["a bur retreat paris"]})
    code, out, _ = adjudicate(doc)
    assert code == 0
    assert out["history"][1]["phase"] == "S1901R"
    assert out["history"][1]["orders"] == {"FRANCE": [{"order": "A BUR R PAR", "result": "succeeds"}]}
    assert out["phase"] == "F1901M" and out["dislodged"] == {}
    assert _units(out) == {"FRANCE": {"A PAR", "F BRE"}, "GERMANY": {"A BUR", "A MUN"}}


def test_unordered_retreat_disbands():
    doc = {
        "phase": "S1901M",
        "units": {"FRANCE": ["A BUR"], "GERMANY": ["A MUN", "A RUH"]},
        "orders": [{"GERMANY": ["A RUH - BUR", "A MUN S A RUH - BUR"]}, {}],
    }
    code, out, _ = adjudicate(doc)
    assert code == 0
    assert out["history"][1]["orders"] == {
        "FRANCE": [{"order": "A BUR D", "result": "succeeds", "default": True}]
    }
    assert "FRANCE" not in out["units"]


def test_civil_disorder_removal():
    """France must remove one unit and orders none: the unit off a supply centre goes."""
    doc = {
        "phase": "W1901A",
        "units": {"FRANCE": ["A PAR", "A MAR", "F BRE", "A BUR"]},
        "centers": {"FRANCE": ["PAR", "MAR", "BRE"]},
        "orders": [{}],
    }
    code, out, _ = adjudicate(doc)
    assert code == 0
    assert out["history"][0]["phase"] == "W1901A"
    assert out["history"][0]["orders"] == {
        "FRANCE": [{"order": "REMOVE A BUR", "result": "succeeds", "default": True}]
    }
    assert _units(out) == {"FRANCE": {"A PAR", "A MAR", "F BRE"}}
    assert out["phase"] == "S1902M"


def test_builds_and_waive():
    doc = {
        "phase": "W1901A",
        "units": {"RUSSIA": ["A MOS"]},
        "centers": {"RUSSIA": ["MOS", "STP", "SEV", "WAR"]},
        "orders": [{"RUSSIA": ["BUILD F STP/NC", "build army warsaw", "WAIVE", "BUILD A SEV"]}],
    }
    code, out, _ = adjudicate(doc)
    assert code == 0
    assert out["history"][0]["orders"]["RUSSIA"] == [
        {"order": "BUILD A SEV", "result": "void"},
        {"order": "BUILD A WAR", "result": "succeeds"},
        {"order": "BUILD F STP/NC", "result": "succeeds"},
        {"order": "WAIVE", "result": "succeeds"},
    ]
    assert _units(out) == {"RUSSIA": {"A MOS", "F STP/NC", "A WAR"}}


def test_illegal_order_is_reported_not_fatal():
    doc = {
        "phase": "S1901M",
        "orders": [{"FRANCE": ["F BRE - MUN", "A PAR - XYZ", "F MAO - SPA"], "ENGLAND": ["F LON - ENG"]}],
    }
    code, out, err = adjudicate(doc)
    assert code == 0 and err == ""
    errors = out["history"][0]["errors"]
    assert [(e["power"], e["order"], e["kind"]) for e in errors] == [
        ("FRANCE", "F BRE - MUN", "illegal"),
        ("FRANCE", "A PAR - XYZ", "invalid"),
        ("FRANCE", "F MAO - SPA", "illegal"),
    ]
    assert errors[0]["error"].startswith("F BRE cannot move to MUN")
    held = {"order": "F BRE H", "result": "succeeds", "default": True}
    assert held in out["history"][0]["orders"]["FRANCE"]
    assert "F ENG" in out["units"]["ENGLAND"]


@pytest.mark.parametrize(
    "doc, message",
    [
        ("{bad json", "malformed JSON"),
        ("[]", "must be a JSON object"),
        ({"variant": "no-such-variant"}, "unknown variant"),
        ({"units": {"FRANCE": ["A XYZ"]}}, "XYZ"),
        ({"centers": {"FRANCE": ["XYZ"]}}, "unknown province"),
        ({"units": {"NARNIA": ["A PAR"]}}, "unknown power"),
        ({"phase": "S1901X"}, "not a phase"),
        ({"orders": [{"FRANCE": "A PAR H"}]}, "must be a list of strings"),
    ],
)
def test_bad_input_exits_2_with_one_line(doc, message):
    code, out, err = adjudicate(doc)
    assert code == 2
    assert out is None
    assert len(err.splitlines()) == 1 and message in err


def test_jsonl_bad_line_gives_error_and_goes_on():
    lines = [
        json.dumps(dict(SPEC_INPUT, orders=SPEC_INPUT["orders"][:1])),
        "{oops",
        json.dumps({"variant": "no-such-variant"}),
        "",
        json.dumps({"centers": {"FRANCE": ["XYZ"]}}),
        json.dumps({"phase": "F1901M", "orders": []}),
    ]
    code, out, err = adjudicate("\n".join(lines) + "\n", "--jsonl")
    assert code == 0 and err == ""
    assert len(out) == 5  # the blank line is skipped
    assert out[0]["history"] == [SPEC_FIRST_PHASE]
    assert "malformed JSON" in out[1]["error"] and set(out[1]) == {"error"}
    assert "unknown variant" in out[2]["error"]
    assert "unknown province" in out[3]["error"]
    assert out[4]["phase"] == "F1901M" and out[4]["history"] == []


# -- the real console script ---------------------------------------------------------------------
SCRIPT = Path(sys.executable).with_name("payjudge")
needs_script = pytest.mark.skipif(not SCRIPT.exists(), reason="payjudge console script not installed")


@needs_script
def test_console_script_reads_a_file(tmp_path):
    path = tmp_path / "case.json"
    path.write_text(json.dumps(SPEC_INPUT))
    proc = subprocess.run([str(SCRIPT), "adjudicate", str(path)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["history"][0] == SPEC_FIRST_PHASE and out["phase"] == "W1901A"


@needs_script
def test_console_script_bad_input_exits_2():
    proc = subprocess.run(
        [str(SCRIPT), "adjudicate", "-"], input='{"variant": "nope"}', capture_output=True, text=True
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "unknown variant" in proc.stderr


@needs_script
def test_console_script_jsonl():
    text = json.dumps(SPEC_INPUT) + "\nnot json\n" + json.dumps({"phase": "W1901A", "orders": [{}]}) + "\n"
    proc = subprocess.run(
        [str(SCRIPT), "adjudicate", "--jsonl", "-"], input=text, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [sorted(o) == ["error"] for o in out] == [False, True, False]
    assert out[2]["history"] == [] or out[2]["history"][0]["phase"] == "W1901A"


@needs_script
def test_console_script_long_jsonl_run_writes_every_answer():
    """Once it has answered, the console script leaves without the interpreter's teardown
    (`cli.entry`): every line must still reach the pipe, far beyond its buffer."""
    case = json.dumps({"phase": "W1901A", "orders": [{}]})
    text = (case + "\n") * 2000
    proc = subprocess.run(
        [str(SCRIPT), "adjudicate", "--jsonl", "-"], input=text, capture_output=True, text=True
    )
    assert proc.returncode == 0 and proc.stderr == ""
    lines = proc.stdout.splitlines()
    assert len(proc.stdout) > 1 << 20 and len(lines) == 2000 and len(set(lines)) == 1
    assert json.loads(lines[-1])["phase"] == "S1902M"


def test_jsonl_reads_and_writes_as_the_standard_json_module():
    """Each --jsonl answer is what `json` reads and writes (compact): non-ASCII escaped,
    integers beyond 64 bits and NaN read exactly, lone surrogates accepted."""
    big = 123456789012345678901234567890
    lines = [
        '{"phase": "S1901M", "orders": [{"FRANCE": ["A PAR - M\\u00dcN"]}]}',
        json.dumps({"phase": big}),
        json.dumps({"units": {"FRANCE": [-big]}}),
        '{"phase": NaN}',
        '{"units": {"FRANCE": ["A \\ud800"]}}',
        json.dumps({"phase": "S1901M", "ignored": big, "orders": []}),
    ]
    result = CliRunner().invoke(main, ["adjudicate", "--jsonl", "-"], input="\n".join(lines) + "\n")
    assert result.exit_code == 0 and result.stderr == ""
    out = result.stdout.splitlines()
    assert out == [json.dumps(json.loads(line), separators=(",", ":")) for line in out]
    assert '"order":"A PAR - M\\u00dcN"' in out[0]
    assert json.loads(out[1]) == {"error": f"not a phase: '{big}'"}
    assert json.loads(out[2]) == {"error": f"a unit must be a string, not {-big}"}
    assert json.loads(out[3]) == {"error": "not a phase: 'nan'"}
    assert json.loads(out[4])["error"].startswith("bad unit 'A \\ud800'")
    assert json.loads(out[5])["phase"] == "S1901M"


@pytest.mark.parametrize("count, won", [(17, None), (18, "FRANCE")])
def test_winner_holds_the_victory_number_of_centres(count, won):
    from payjudge.rules.mapfile import load_variant

    centres = sorted(p.name for p in load_variant("standard").provinces.values() if p.supply_center)
    doc = {"phase": "W1905A", "units": {"FRANCE": ["A PAR"]}, "centers": {"FRANCE": centres[:count]}}
    code, out, _ = adjudicate(doc)
    assert code == 0
    assert out.get("winner") == won
    code, lines, _ = adjudicate(json.dumps(doc) + "\n" + json.dumps(doc) + "\n", "--jsonl")
    assert [line.get("winner") for line in lines] == [won, won]
