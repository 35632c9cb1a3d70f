"""The wheel ships every data file the judge needs, and the layers import only downwards."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_wheel_ships_maps_templates_and_migrations(tmp_path):
    out = tmp_path / "dist"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(out),
            str(ROOT),
        ],
        check=True,
        timeout=300,
    )
    wheel = next(out.glob("payjudge-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in (
        "payjudge/variants/standard.map",
        "payjudge/variants/standard.geometry.json",
        "payjudge/templates/reply.txt.j2",
        "payjudge/templates/statement.txt.j2",
        "payjudge/templates/notes/sheet.txt.j2",
        "payjudge/migrations/env.py",
        "payjudge/migrations/script.py.mako",
    ):
        assert needed in names, needed
    assert any(n.startswith("payjudge/migrations/versions/") and n.endswith(".py") for n in names)
    # unpacked on its own (no source tree around it), it finds its data and works
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    db = tmp_path / "x.sqlite"
    code = (
        "from payjudge.rules.mapfile import load_variant; from payjudge.templating import templates_dir;"
        "from payjudge.store.db import migrations_dir, upgrade; import sys;"
        "assert 'site' in str(templates_dir()) and 'site' in str(migrations_dir()),"
        " (templates_dir(), migrations_dir());"
        "assert len(load_variant('standard').supply_centers) == 34;"
        f"upgrade('sqlite:///{db}'); print('ok')"
    )
    env = {**os.environ, "PYTHONPATH": str(site)}
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tempfile.gettempdir(),
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.stdout.strip() == "ok", result.stderr


LAYERS = {
    "vocabulary": set(),  # the enums of the judge's records (payjudge/vocabulary.py)
    "rules": set(),
    "payola": {"rules"},
    "text": {"rules", "payola"},
}
# above the pure core, each package may import only what lies below it
BELOW = {
    "game": {
        "vocabulary",
        "rules",
        "payola",
        "text",
        "store",
        "templating",
        "config",
        "ports",
        "memory",
        "render",
    },
    # commands never import store: queries are use cases in game/
    "commands": {"vocabulary", "rules", "payola", "text", "game", "config"},
    "service": {
        "vocabulary",
        "rules",
        "payola",
        "text",
        "store",
        "game",
        "commands",
        "config",
        "ports",
        "memory",
    },
    "store": {"vocabulary", "ports", "rules", "text"},  # text: the bounded header reading
    "mail": {"ports", "text"},
    "render": {"rules"},
    "web": {"vocabulary", "rules", "game", "store", "render", "templating", "config"},
}
FORBIDDEN_ANYWHERE = {
    "sqlalchemy": "store",
    "alembic": "store",
    "aiosmtpd": "mail",
    "imapclient": "mail",
    "smtplib": "mail",
    "imaplib": "mail",
    "aiohttp": "web",
}
IMPURE = {
    "sqlalchemy",
    "aiosmtpd",
    "imapclient",
    "smtplib",
    "socket",
    "asyncio",
    "apscheduler",
    "jinja2",
    "logging",
    "time",
    "os",
    "subprocess",
    "threading",
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = path.parent.relative_to(ROOT).parts[1:]
                up = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                out.add(".".join(("payjudge", *up, *(node.module.split(".") if node.module else ()))))
            elif node.module:
                out.add(node.module)
    return out


def test_layers_import_only_downwards():
    pkg = ROOT / "payjudge"
    for path in pkg.rglob("*.py"):
        rel = path.relative_to(pkg)
        layer = rel.parts[0] if len(rel.parts) > 1 else rel.stem
        for name in _imports(path):
            top = name.split(".")[0]
            owner = FORBIDDEN_ANYWHERE.get(top)
            if owner is not None:
                assert layer == owner, f"{rel} imports {name} (only payjudge/{owner}/ may)"
            if layer in BELOW and name.startswith("payjudge."):
                target = name.split(".")[1]
                assert target == layer or target in BELOW[layer], f"{rel} imports {name} (upwards)"
            if layer in LAYERS:
                assert top not in IMPURE, f"{rel}: the pure core must not import {name}"
                if name.startswith("payjudge."):
                    target = name.split(".")[1]
                    assert target == layer or target in LAYERS[layer], f"{rel} imports {name}"
