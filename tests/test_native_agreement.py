"""The compiled engines and their sources give the same answers, byte for byte.

`make test` runs the whole suite on the sources while `make native` compiles the engines,
then the engines' tests once more on the build; this test checks the two builds against
each other directly, beyond what the cases' expectations name: every DATC case through
`payjudge adjudicate --jsonl` and every Payola case through `payjudge auction --jsonl`,
once in a process on the sources (PAYJUDGE_PURE=1) and once on the compiled modules, and
the whole output compared. Without a current build it is skipped, unless
PAYJUDGE_REQUIRE_NATIVE=1 (set by `make test`) says a build must be there.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.rules.datc_format import read_cases

HERE = Path(__file__).resolve().parent
PAYOLA_CASES = sorted((HERE / "payola" / "cases").glob("*/*.json"))


def _env(pure: bool) -> dict[str, str]:
    return {**os.environ, "PAYJUDGE_PURE": "1" if pure else "0"}


def _compiled_in_use() -> tuple[bool, str]:
    """Whether a process started without PAYJUDGE_PURE runs the compiled engines (asked of
    a child, since this process may run on the sources)."""
    probe = (
        "import json; from payjudge import native; s = native.status(); "
        "print(json.dumps([bool(s['active']), str(s['reason'])]))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe],
        env=_env(False),
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    active, reason = json.loads(out.stdout)
    return active, reason


@pytest.fixture(scope="module")
def compiled() -> None:
    active, reason = _compiled_in_use()
    if active:
        return
    if os.environ.get("PAYJUDGE_REQUIRE_NATIVE", "") not in ("", "0"):
        pytest.fail(f"PAYJUDGE_REQUIRE_NATIVE is set but the compiled engines are not in use: {reason}")
    pytest.skip(f"no current build of the engines (`make native`): {reason}")


def _datc_inputs() -> list[str]:
    lines = []
    for case in read_cases():
        doc: dict[str, object] = {
            "variant": "standard",
            "phase": case.phase,
            "units": case.units,
            "orders": [block.orders for block in case.blocks],
        }
        if case.centers is not None:
            doc["centers"] = case.centers
        lines.append(json.dumps(doc))
    return lines


def _auction_inputs() -> list[str]:
    return [json.dumps(json.loads(path.read_text())["input"]) for path in PAYOLA_CASES]


def _answers(command: str, lines: list[str], *, pure: bool) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-m", "payjudge.cli", command, "--jsonl", "-"],
        input="\n".join(lines) + "\n",
        env=_env(pure),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


@pytest.mark.parametrize(
    ("command", "inputs"),
    [("adjudicate", _datc_inputs), ("auction", _auction_inputs)],
    ids=["datc", "payola"],
)
def test_compiled_and_source_answers_agree(compiled, command, inputs):
    lines = inputs()
    assert len(lines) > 100  # every case, not a few
    source = _answers(command, lines, pure=True)
    native = _answers(command, lines, pure=False)
    assert len(source) == len(lines)
    differ = [i for i, (a, b) in enumerate(zip(source, native)) if a != b]
    assert not differ, f"{len(differ)} of {len(lines)} answers differ, the first: input {lines[differ[0]]}"
    # the cases are answered, not refused: an error line in both would agree and test nothing
    answered = sum(1 for line in source if "error" not in json.loads(line))
    assert answered > len(lines) * 0.9
