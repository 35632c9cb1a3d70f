"""The engines stay pure (shared/STYLE.md): no I/O, jinja, database or global random in
`payjudge/payola` and `payjudge/text`."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "payjudge"
# every module of the two packages, found rather than listed: a new module is covered too
FILES = sorted((ROOT / "payola").rglob("*.py")) + sorted((ROOT / "text").rglob("*.py"))
FORBIDDEN_MODULES = {
    "jinja2",
    "sqlalchemy",
    "smtplib",
    "aiosmtpd",
    "imapclient",
    "os",
    "pathlib",
    "time",
    "datetime",
    "logging",
    "socket",
    "subprocess",
}
GLOBAL_RANDOM = {
    "random",
    "shuffle",
    "choice",
    "choices",
    "sample",
    "randint",
    "randrange",
    "uniform",
    "seed",
    "getrandbits",
}


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.name}" for p in FILES])
def test_pure_module(path):
    tree = ast.parse(path.read_text())
    assert ast.get_docstring(tree), "every module opens with a docstring"
    for node in ast.walk(_without_type_only_imports(tree)):
        if isinstance(node, ast.Import):
            names = {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            names = {(node.module or "").split(".")[0]} if node.level == 0 else set()
            if node.module == "random":
                names |= {a.name for a in node.names} & GLOBAL_RANDOM
        else:
            names = set()
        assert not names & FORBIDDEN_MODULES, f"{path.name} imports {names & FORBIDDEN_MODULES}"
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "random"
        ):
            assert node.func.attr == "Random", f"{path.name} calls random.{node.func.attr}"
    assert len(path.read_text().splitlines()) < 400, "small modules"


def _without_type_only_imports(tree: ast.Module) -> ast.Module:
    """The module without its `if TYPE_CHECKING:` blocks: what they import names a type
    for the checker (a `datetime` the caller passes in), and is never loaded at run time."""
    tree.body = [
        node
        for node in tree.body
        if not (
            isinstance(node, ast.If)
            and isinstance(node.test, ast.Name)
            and node.test.id == "TYPE_CHECKING"
            and not node.orelse
        )
    ]
    return tree


def test_type_only_imports_are_not_loaded():
    """The exemption above is safe only while such a block holds nothing but imports."""
    for path in FILES:
        for node in ast.parse(path.read_text()).body:
            if (
                isinstance(node, ast.If)
                and isinstance(node.test, ast.Name)
                and node.test.id == "TYPE_CHECKING"
            ):
                assert all(isinstance(n, (ast.Import, ast.ImportFrom)) for n in node.body), path
