"""Compile payjudge's pure engines with mypyc into payjudge/_compiled/ (`make native`).

    .venv/bin/python tools/build_native.py [--force] [--check]

The modules compiled are every module of `payjudge/rules`, `payjudge/payola`,
`payjudge/text` and `payjudge/jsonapi` but the packages' `__init__.py` files and the few
listed in LEFT_OUT (each with its reason). mypyc type-checks them with the project's own
mypy configuration and translates them to C; setuptools compiles the C. The extension
files go to `payjudge/_compiled/` beside a manifest (`manifest.json`) naming, for each
module, its extension file and the size, time and SHA-256 of its source, which
`payjudge/native.py` checks before it loads anything.

Nothing is rebuilt when the manifest already matches every source and this build's
settings (the mypy version, the options, this file): the check costs a few milliseconds,
so `make test` and `make run` call it every time. `--check` only says whether a build is
needed (exit 1 if so). A failed build leaves the previous state as it was and exits 1.

Why compiled at all: issue 14's speed targets. The same source runs interpreted when no
build is there (`PAYJUDGE_PURE=1`, or a machine without a C compiler), with the same
results: `make test` runs the pure engines' tests that way too.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "payjudge"
TARGET = PACKAGE / "_compiled"
PACKAGES = ("rules", "payola", "text", "jsonapi")
LEFT_OUT = {
    # map files are read once per map and process; their model is copied with
    # copy.deepcopy, which mypyc's frozen classes do not support
    "rules/mapread.py": "read once per map",
    "rules/mapmodel.py": "read once per map (the model copy.deepcopy copies)",
    "rules/mapfile.py": "read once per map",
    "rules/mapkeys.py": "read once per map",
    "rules/mapedits.py": "read once per map",
    "rules/mapnames.py": "read once per map",
    "rules/mapsearch.py": "read once per map (and it finds the map's files)",
    "rules/mapchecks.py": "read once per map",
    # PhaseTitle subclasses str, which mypyc cannot compile; it names phases for mail
    "rules/calendar.py": "names phases, a str subclass",
}
GROUP = "payjudge_core"  # the shared library: payjudge_core__mypyc
OPT_LEVEL = "3"


def sources() -> list[Path]:
    """The modules to compile, in a fixed order."""
    out = []
    for pkg in PACKAGES:
        for path in sorted((PACKAGE / pkg).rglob("*.py")):
            rel = path.relative_to(PACKAGE).as_posix()
            if path.name != "__init__.py" and rel not in LEFT_OUT:
                out.append(path)
    return out


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def build_key() -> str:
    """What else decides the build's output: the compiler, its options, this script."""
    import mypy.version

    parts = [mypy.version.__version__, OPT_LEVEL, GROUP, sys.version, _sha256(Path(__file__))]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _module_name(path: Path) -> str:
    return "payjudge." + ".".join(path.relative_to(PACKAGE).with_suffix("").parts)


def current() -> bool:
    """Whether payjudge/_compiled/ already holds this build of these sources."""
    try:
        manifest = json.loads((TARGET / "manifest.json").read_text())
    except (OSError, ValueError):
        return False
    if manifest.get("key") != build_key():
        return False
    modules = manifest.get("modules", {})
    wanted = {_module_name(p): p for p in sources()}
    if set(wanted) != {n for n, e in modules.items() if e.get("source")}:
        return False
    for name, path in wanted.items():
        entry = modules[name]
        st = path.stat()
        if st.st_size != entry["size"]:
            return False
        if st.st_mtime_ns != entry["mtime_ns"] and _sha256(path) != entry["sha256"]:
            return False
        if not (TARGET / entry["extension"]).is_file():
            return False
    return True


def build() -> None:
    """Compile the sources into a new payjudge/_compiled/ (replaced whole at the end)."""
    from mypyc.build import mypycify
    from setuptools import Distribution

    files = sources()
    # the sources as compiled: read before compiling, so an edit made meanwhile shows
    # as a changed source at the next import instead of being recorded as compiled
    entries = {}
    for path in files:
        st = path.stat()
        entries[_module_name(path)] = {
            "source": path.relative_to(PACKAGE).as_posix(),
            "size": st.st_size,
            "mtime_ns": st.st_mtime_ns,
            "sha256": _sha256(path),
        }
    with tempfile.TemporaryDirectory(prefix="payjudge-native-") as tmp:
        cwd = os.getcwd()
        os.chdir(ROOT)  # mypy reads pyproject.toml's configuration from here
        try:
            extensions = mypycify(
                # the project's mypy settings name modules this build does not compile
                ["--no-warn-unused-configs", *(p.relative_to(ROOT).as_posix() for p in files)],
                opt_level=OPT_LEVEL,
                group_name=GROUP,
                multi_file=True,  # several C files, compiled in parallel below
                target_dir=str(Path(tmp, "c")),
            )
            # a bare Distribution: setup() would read pyproject.toml, which is hatchling's
            dist = Distribution({"name": "payjudge-native", "ext_modules": extensions})
            cmd = dist.get_command_obj("build_ext")
            cmd.build_lib = str(Path(tmp, "lib"))  # type: ignore[attr-defined]
            cmd.build_temp = str(Path(tmp, "obj"))  # type: ignore[attr-defined]
            cmd.parallel = os.cpu_count() or 1  # type: ignore[attr-defined]
            dist.run_command("build_ext")
        finally:
            os.chdir(cwd)
        lib = Path(tmp, "lib")
        staging = PACKAGE / "_compiled.new"
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir()
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        modules: dict[str, dict[str, object]] = {}
        for so in sorted(lib.rglob(f"*{suffix}")):
            rel = so.relative_to(lib)
            dest = staging / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(so, dest)
            name = ".".join(rel.parts)[: -len(suffix)]
            modules[name] = {"extension": rel.as_posix(), **entries.get(name, {})}
        missing = set(entries) - set(modules)
        if missing:
            raise SystemExit(f"build_native: no extension built for {sorted(missing)}")
        manifest = {"key": build_key(), "ext_suffix": suffix, "modules": modules}
        (staging / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
        shutil.rmtree(TARGET, ignore_errors=True)
        staging.rename(TARGET)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--force", action="store_true", help="build even if the build is current")
    ap.add_argument("--check", action="store_true", help="only say whether a build is needed")
    args = ap.parse_args()
    if not args.force and current():
        print("build_native: payjudge/_compiled is current")
        return 0
    if args.check:
        print("build_native: payjudge/_compiled needs a build")
        return 1
    start = time.monotonic()
    print(f"build_native: compiling {len(sources())} modules with mypyc (a few minutes)", flush=True)
    build()
    print(f"build_native: done in {time.monotonic() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
