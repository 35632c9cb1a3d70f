"""Finding a map's files (the maps a judge has installed, those payjudge ships, the files
a map USEs) and reading their lines into DPjudge's tables (`mapmodel.Model`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path

from .mapmodel import Model
from .mapread import Reader


class MapError(ValueError):
    """A map file that cannot be loaded; the message names the file and line."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("\n".join(problems))


def _finder(search: list[Path], paths: list[Path]) -> Callable[[str], tuple[str, str] | None]:
    def find(name: str) -> tuple[str, str] | None:
        for folder in search:
            candidate = folder / name
            if candidate.is_file():
                data = candidate.read_bytes()
                try:
                    text = data.decode("utf-8")
                except UnicodeDecodeError:  # DPjudge's maps are latin-1
                    text = data.decode("latin-1")
                paths.append(candidate)
                return candidate.name, text
        return None

    return find


def read_model(path: Path, search: Sequence[Path | None]) -> tuple[Model, list[Path]]:
    model, paths = Model(), list[Path]()
    beside = [path.parent]
    if path.parent.name == "trials":  # DPjudge's trial maps use the maps beside them
        beside.append(path.parent.parent / "maps")
    reader = Reader(model, _finder([*beside, *(s for s in search if s is not None)], paths))
    if not path.is_file():
        raise MapError([f"map file not found: {path}"])
    reader.read_file(path.name)
    return model, paths


def map_sources(path: str | Path, search: list[Path] | None = None) -> list[Path]:
    """The files a map is made of: itself and every file it USEs, in reading order."""
    path = Path(path)
    return read_model(path, [*(search or []), variant_dir()])[1]


@lru_cache(maxsize=1)
def variant_dir() -> Path:
    # the installed package does not move while the process runs; asking importlib each
    # time was a tenth of a `payjudge adjudicate --jsonl` case
    return Path(str(resources.files("payjudge") / "variants"))


def shipped_dir() -> Path:
    """The folder of the maps payjudge ships."""
    return variant_dir()


def _valid_name(name: str) -> bool:
    return bool(name) and all(c.isalnum() or c in "_-" for c in name) and name.isascii()


def find_map(name: str, maps_dir: Path | None = None) -> Path | None:
    """The file of an installed map (the maps directory first) or of one payjudge ships."""
    name = name.lower().removesuffix(".map")
    if not _valid_name(name):
        return None
    for folder in (maps_dir, variant_dir()):
        if folder is not None and (folder / f"{name}.map").is_file():
            return folder / f"{name}.map"
    return None


def map_names(maps_dir: Path | None = None) -> list[str]:
    """Every map a game can be created on: installed ones and those payjudge ships."""
    names: set[str] = set()
    for folder in (maps_dir, variant_dir()):
        if folder is not None and folder.is_dir():
            names.update(p.stem.lower() for p in folder.glob("*.map") if _valid_name(p.stem.lower()))
    return sorted(names)
