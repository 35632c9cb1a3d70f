"""The source file of a payjudge module, whether it runs from that source or compiled
(a compiled module's `__file__` is its extension in payjudge/_compiled/)."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def source_of(module: ModuleType) -> Path:
    return ROOT.joinpath(*module.__name__.split(".")).with_suffix(".py")
