"""The compiled engines: load them when they are exactly the sources beside them.

`tools/build_native.py` (run by `make native`, which `make run` and `make test` call)
compiles the pure engines — `rules/`, `payola/`, `text/` and `jsonapi/`, less the modules
it lists as left out — with mypyc into `payjudge/_compiled/`, and writes there a manifest
naming each compiled module, its extension file and the size, modification time and
SHA-256 of the source it was compiled from. The source stays the program: the compiled
module is the same code, type-checked by mypy and translated to C, and the tests run on
both (`make test` runs the suite on the compiled modules and the pure engines' tests
again with `PAYJUDGE_PURE=1`).

`install()`, called once when `payjudge` is imported, puts a finder first on
`sys.meta_path` that hands out the extension file for each module in the manifest, but
only when every compiled source is unchanged (by size and time, or else by hash) and the
extensions were built for this interpreter. Otherwise nothing is installed and every
module is imported from its source, as it is without a build: a compiled module that is
not its source is never run. `PAYJUDGE_PURE=1` turns the compiled modules off.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
import sysconfig
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import Any

PACKAGE = Path(__file__).resolve().parent
COMPILED = PACKAGE / "_compiled"
MANIFEST = COMPILED / "manifest.json"

# what `install` found: the compiled modules in use, or why there are none
_state: dict[str, Any] = {"active": False, "modules": (), "reason": "not looked for"}


class _Finder(MetaPathFinder):
    """Finds the compiled modules of the manifest, and no other module."""

    def __init__(self, table: dict[str, Path]):
        self.table = table

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        so = self.table.get(fullname)
        if so is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(so))
        return importlib.util.spec_from_file_location(fullname, so, loader=loader)


def _unchanged(source: Path, entry: dict[str, Any]) -> bool:
    """Whether `source` is the file the manifest entry was compiled from: the same size and
    time, or (a checkout or a copy changes the time) the same bytes."""
    try:
        st = source.stat()
    except OSError:
        return False
    if st.st_size != entry["size"]:
        return False
    if st.st_mtime_ns == entry["mtime_ns"]:
        return True
    return hashlib.sha256(source.read_bytes()).hexdigest() == entry["sha256"]


def check() -> tuple[dict[str, Path], str]:
    """The compiled modules to load (module name -> extension file), or an empty table and
    the reason none can be used."""
    if os.environ.get("PAYJUDGE_PURE", "") not in ("", "0"):
        return {}, "PAYJUDGE_PURE is set"
    try:
        manifest = json.loads(MANIFEST.read_text())
    except FileNotFoundError:
        return {}, "no compiled modules (make native builds them)"
    except (OSError, ValueError) as e:
        return {}, f"unreadable {MANIFEST.name}: {e}"
    if manifest.get("ext_suffix") != sysconfig.get_config_var("EXT_SUFFIX"):
        return {}, f"compiled for another interpreter ({manifest.get('ext_suffix')})"
    table: dict[str, Path] = {}
    for name, entry in manifest["modules"].items():
        if entry.get("source") and not _unchanged(PACKAGE / entry["source"], entry):
            return {}, f"payjudge/{entry['source']} changed since it was compiled (make native)"
        so = COMPILED / entry["extension"]
        if not so.is_file():
            return {}, f"{so.name} is missing (make native)"
        table[name] = so
    return table, ""


def install() -> None:
    """Put the finder of the compiled modules first on `sys.meta_path`, if they can be used
    (see the module's docstring); once per process."""
    if any(isinstance(f, _Finder) for f in sys.meta_path):
        return
    table, reason = check()
    if not table:
        _state.update(active=False, modules=(), reason=reason)
        if reason.endswith("(make native)"):
            # an out-of-date build is a developer's tree: say why the engines run slower
            sys.stderr.write(f"payjudge: running the pure-Python engines: {reason}\n")
        return
    sys.meta_path.insert(0, _Finder(table))
    _state.update(
        active=True, modules=tuple(sorted(n for n in table if n.startswith("payjudge."))), reason=""
    )


def status() -> dict[str, Any]:
    """Whether the compiled modules are in use (`active`), which (`modules`), or why not
    (`reason`)."""
    return dict(_state)
