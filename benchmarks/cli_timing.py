"""CPU time of one `payjudge <command> --jsonl` run, shared by the benchmarks that time the
console script as a subprocess (its marginal cost: a long run minus a short one)."""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path


def payjudge_script() -> str:
    script = Path(sys.executable).with_name("payjudge")
    if not script.exists():
        sys.exit(f"no console script at {script}: install payjudge into this virtualenv")
    return str(script)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_jsonl(command: str, path: Path, expect: int, script: str | None = None) -> float:
    """CPU time (user + system) of `payjudge <command> --jsonl <path>`, which must answer
    `expect` lines and no error; `script`: another console script than this virtualenv's."""
    start = _children_cpu()
    proc = subprocess.run(
        [script or payjudge_script(), command, "--jsonl", str(path)], capture_output=True, text=True
    )
    elapsed = _children_cpu() - start
    lines = proc.stdout.splitlines()
    if proc.returncode != 0 or len(lines) != expect or any(line.startswith('{"error"') for line in lines):
        sys.exit(f"payjudge failed on {path}: exit {proc.returncode}\n{proc.stderr[-2000:]}")
    return elapsed
