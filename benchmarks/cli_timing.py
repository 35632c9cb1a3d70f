"""CPU time of one `payjudge <command> --jsonl` run, shared by the benchmarks that time the
console script as a subprocess (its marginal cost: a long run minus a short one)."""

from __future__ import annotations

import os
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


PURE = "pure"  # a `script` that is this virtualenv's with PAYJUDGE_PURE=1 (the engines from source)


def run_jsonl(command: str, path: Path, expect: int, script: str | None = None) -> float:
    """CPU time (user + system) of `payjudge <command> --jsonl <path>`, which must answer
    `expect` lines and no error; `script`: another console script than this virtualenv's,
    or `PURE`: this one with the engines run from their sources (payjudge/native.py)."""
    env = dict(os.environ)
    env.pop("PAYJUDGE_PURE", None)
    if script == PURE:
        script, env["PAYJUDGE_PURE"] = None, "1"
    start = _children_cpu()
    proc = subprocess.run(
        [script or payjudge_script(), command, "--jsonl", str(path)], capture_output=True, text=True, env=env
    )
    elapsed = _children_cpu() - start
    lines = proc.stdout.splitlines()
    if proc.returncode != 0 or len(lines) != expect or any(line.startswith('{"error"') for line in lines):
        sys.exit(f"payjudge failed on {path}: exit {proc.returncode}\n{proc.stderr[-2000:]}")
    return elapsed
