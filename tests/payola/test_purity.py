"""The engines stay pure (shared/STYLE.md): no I/O, jinja, database or global random in
`payjudge/payola` and `payjudge/text`."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "payjudge"
TEXT = ("__init__.py", "amounts.py", "numbers.py", "problems.py", "sheet.py", "sheet_rules.py")
FILES = sorted((ROOT / "payola").glob("*.py")) + [ROOT / "text" / name for name in TEXT]
FORBIDDEN_MODULES = {"jinja2", "sqlalchemy", "smtplib", "aiosmtpd", "imapclient", "os",
                     "pathlib", "time", "datetime", "logging", "socket", "subprocess"}
GLOBAL_RANDOM = {"random", "shuffle", "choice", "choices", "sample", "randint", "randrange",
                 "uniform", "seed", "getrandbits"}


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.name}" for p in FILES])
def test_pure_module(path):
    tree = ast.parse(path.read_text())
    assert ast.get_docstring(tree), "every module opens with a docstring"
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            names = {(node.module or "").split(".")[0]} if node.level == 0 else set()
            if node.module == "random":
                names |= {a.name for a in node.names} & GLOBAL_RANDOM
        else:
            names = set()
        assert not names & FORBIDDEN_MODULES, f"{path.name} imports {names & FORBIDDEN_MODULES}"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "random":
            assert node.func.attr == "Random", f"{path.name} calls random.{node.func.attr}"
    assert len(path.read_text().splitlines()) < 400, "small modules"
