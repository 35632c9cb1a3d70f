"""Type-check a snippet with the project's mypy settings: the tests that show a string is
refused where a typed value belongs (test_names, test_typed_words, test_note_types)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_mypy(tmp_path: Path, source: str) -> tuple[str, int]:
    """mypy's output on `source` (dedented, written as tmp_path/snippet.py) and its status."""
    path = tmp_path / "snippet.py"
    path.write_text(textwrap.dedent(source))
    # in a process of its own: mypy's API raises the interpreter's recursion limit for good,
    # which would change what other tests see (a parser's RecursionError)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--cache-dir",
            str(tmp_path / "cache"),
            "--no-error-summary",
            str(path),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout + done.stderr, done.returncode
