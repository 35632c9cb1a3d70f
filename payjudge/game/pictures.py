"""The map picture of a phase: drawn from its stored turn when wanted, cached as a file.

A picture is a pure function of what the turn stores (the position it started from and
its public report) and of the map's drawing, so it is not kept in the database: it is
drawn when first wanted (for the results mail, or by the status page) and kept as
`<data_dir>/pictures/<digest>.png`, named by a digest of what it is drawn from (a large
map's enlarged insets beside it as `<digest>-inset<n>.png`: a mail carries each as a picture
of its own, so that none is shrunk below what reads; a web page shows them under the board,
`<digest>-whole.png`). A phase
rolled back and played again has another report, hence another picture; deleting the
folder loses nothing. A DPjudge drawing's base map, rendered by Ghostscript, is kept
beside them in `pictures/maps/`.

Privacy: a picture shows what public results show (units, orders and their results,
centres) and never money. A BLIND game has no shared picture (`shared_pictures`): each
power's results carry a picture drawn from what that power saw (`blind.sight_board`), the
Master's and the omniscient observers' the whole board; the status page shows none.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..config import Config
from ..render.board import picture_sheets, picture_svg
from ..render.files import drawing_path, geometry_for
from ..render.geometry import Geometry
from ..render.picture import Picture
from ..render.raster import png
from ..render.stored import outcomes_from_report, retreats_from_report
from ..rules.calendar import calendar_of
from ..rules.flags import Flag
from ..rules.geography import Map
from ..rules.names import PowerName
from ..rules.phase import Phase
from ..rules.position import Position
from ..rules.serial import position_to_json
from ..store.models import Game
from ..text.compose import Attachment
from .blind import sight_board

log = logging.getLogger("payjudge.pictures")

VERSION = "4"  # bump when the drawing changes: cached pictures are then drawn again
MAIL_LIMIT = 450_000  # the most bytes of one attached picture: a larger one is drawn smaller
# ... but never smaller than this: province names (10 px) stay 8.5 px high, unit tokens
# (18 px) 15 px wide, the size `tests/render/test_readable.py` holds readable
MIN_ZOOM = 0.85
_MEMORY: OrderedDict[str, tuple[bytes, ...]] = OrderedDict()  # the last few pictures' sheets, by digest
_MEMORY_SIZE = 24
_MEMORY_LOCK = threading.Lock()  # the processor and the status page's readers share it


def shared_pictures(game: Game) -> bool:
    """Whether everyone may see the same picture of the game. Not in a BLIND game, where
    each power sees only part of the board: its pictures would be drawn per power."""
    return Flag.BLIND.value not in (game.rules or [])


def wants_map(game: Game, power: PowerName | None) -> bool:
    """Whether a power's player gets the picture with results (`SET MAP OFF` says no)."""
    return power not in (game.settings or {}).get("no_map", [])


def set_map(game: Game, power: PowerName, on: bool) -> None:
    """`SET MAP ON` / `SET MAP OFF`: a seat's choice, kept in the game's settings (no
    column of its own); it stays with the power when another player takes it over."""
    settings = dict(game.settings or {})
    off = set(settings.get("no_map", []))
    if on:
        off.discard(power)
    else:
        off.add(power)
    settings["no_map"] = sorted(off)
    if not settings["no_map"]:
        del settings["no_map"]
    game.settings = settings  # a new dict: the JSON column sees the change


@dataclass(frozen=True)
class Pictures:
    """Where pictures are cached, and where installed maps (and their drawings) are."""

    cache_dir: Path | None = None
    maps_dir: Path | None = None

    @classmethod
    def of(cls, config: Config) -> Pictures:
        """Cached under the data directory, once the daemon (or a command) has made it."""
        cache = config.data_dir / "pictures" if config.data_dir.is_dir() else None
        return cls(cache, config.maps_path)

    def digest(
        self,
        game_map: Map,
        position: Position,
        report: Mapping[str, Any] | None,
        viewer: PowerName | None = None,
    ) -> str:
        ps = drawing_path(game_map, self.maps_dir)
        drawing = f"{ps.stat().st_size}:{ps.stat().st_mtime_ns}" if ps else ""
        doc = {
            "version": VERSION,
            "map": game_map.name,
            "drawing": drawing,
            "position": position_to_json(position),
            "report": report,
            "viewer": viewer,
        }
        calendar = calendar_of(game_map)
        if not calendar.standard:  # pictures drawn before the map's own titles are not reused
            doc["title"] = calendar.title(position.phase)
        return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:32]

    def sheets(
        self,
        game_map: Map,
        position: Position,
        report: Mapping[str, Any] | None,
        viewer: PowerName | None = None,
    ) -> tuple[bytes, ...]:
        """The picture of a phase as a mail carries it: the board with its legend, then
        each enlarged inset, one PNG each (`render.board.picture_sheets`), each at most
        `MAIL_LIMIT` bytes unless that would shrink it below `MIN_ZOOM`. A picture with
        no inset is one sheet. A BLIND `viewer`'s legend counts only its own centres and
        units (the others read `?`)."""
        key = self.digest(game_map, position, report, viewer)
        with _MEMORY_LOCK:
            found = _MEMORY.get(key)
        if found is None:
            found = self._kept(key)
        if found is None:
            found = self._draw(game_map, position, report, viewer)
        self._keep(key, found)
        self._remember(key, found)
        return found

    def png(
        self,
        game_map: Map,
        position: Position,
        report: Mapping[str, Any] | None,
        viewer: PowerName | None = None,
    ) -> bytes:
        """The picture of a phase in one PNG, for a web page: its board, and with its
        report its orders and results (no report: the board as it stands), its insets
        under the board at full size (a page has no mail's limit). Without insets, the
        same as the one sheet a mail carries."""
        drawn = self.sheets(game_map, position, report, viewer)
        if len(drawn) == 1:
            return drawn[0]
        key = self.digest(game_map, position, report, viewer) + "-whole"
        with _MEMORY_LOCK:
            found = _MEMORY.get(key)
        if found is None:
            found = self._kept(key)
        if found is None:
            found = (png(picture_svg(*self._picture(game_map, position, report, viewer))),)
        self._keep(key, found)
        self._remember(key, found)
        return found[0]

    def _kept(self, key: str) -> tuple[bytes, ...] | None:
        """The sheets kept under the data directory: `<key>.png`, then `<key>-inset<n>.png`
        (written first, so the board's file says they are all there)."""
        if self.cache_dir is None or not (self.cache_dir / f"{key}.png").is_file():
            return None
        insets = sorted(
            self.cache_dir.glob(f"{key}-inset*.png"), key=lambda p: int(p.stem.rsplit("inset", 1)[1])
        )
        return tuple(p.read_bytes() for p in [self.cache_dir / f"{key}.png", *insets])

    def _keep(self, key: str, sheets: tuple[bytes, ...]) -> None:
        """Keep the sheets under the data directory, unless they are there already."""
        if self.cache_dir is None or (self.cache_dir / f"{key}.png").is_file():
            return
        self.cache_dir.mkdir(parents=True, exist_ok=True)
        names = [f"{key}-inset{n}.png" for n in range(1, len(sheets))] + [f"{key}.png"]
        for name, data in zip(names, [*sheets[1:], sheets[0]], strict=True):
            path = self.cache_dir / name
            partial = path.with_name(f"{name}.{threading.get_ident()}.part")
            partial.write_bytes(data)
            partial.replace(path)  # never a half-written picture under the real name

    @staticmethod
    def _remember(key: str, sheets: tuple[bytes, ...]) -> None:
        with _MEMORY_LOCK:
            _MEMORY[key] = sheets
            _MEMORY.move_to_end(key)
            while len(_MEMORY) > _MEMORY_SIZE:
                _MEMORY.popitem(last=False)

    def _picture(
        self, game_map: Map, position: Position, report: Mapping[str, Any] | None, viewer: PowerName | None
    ) -> tuple[Geometry, Picture]:
        geometry = geometry_for(game_map, self.maps_dir, self.cache_dir / "maps" if self.cache_dir else None)
        outcomes = outcomes_from_report(position, report) if report else ()
        retreats = retreats_from_report(report) if report else {}
        # titled as the map names the phase (A.D. 1430 Adjustments)
        title = calendar_of(game_map).title(position.phase)
        return geometry, Picture(position, outcomes, retreats, title, viewer)

    def _draw(
        self, game_map: Map, position: Position, report: Mapping[str, Any] | None, viewer: PowerName | None
    ) -> tuple[bytes, ...]:
        return tuple(
            fitted(text) for text in picture_sheets(*self._picture(game_map, position, report, viewer))
        )

    def attachments(
        self,
        game: Game,
        game_map: Map,
        position: Position,
        report: Mapping[str, Any],
        *,
        viewer: PowerName | None = None,
        whole: bool = False,
    ) -> tuple[Attachment, ...]:
        """The pictures of a played phase for its results mail: `<game>-<phase>.png`, the
        board, then `<game>-<phase>-<n>.png`, each inset the board numbers `n`. None when
        the game gets no shared picture, or when drawing failed (the results go out
        without it). In a BLIND game, `viewer`'s picture shows only what that power saw
        (`blind.sight_board`), and `whole` asks for the full picture, which only the Master
        and the omniscient get."""
        if viewer is not None:
            position, seen = sight_board(position, dict(report), viewer)
            report = seen
        elif not whole and not shared_pictures(game):
            return ()
        try:
            drawn = self.sheets(game_map, position, report, viewer)
        except Exception:  # a picture is never worth losing the results mail over
            log.exception("game %s: the picture of %s could not be drawn", game.name, report.get("phase"))
            return ()
        shown = f"{game.name}-{calendar_of(game_map).short(Phase.parse(str(report['phase'])))}"
        names = [f"{shown}.png"] + [f"{shown}-{n}.png" for n in range(1, len(drawn))]
        return tuple(Attachment(name, "image/png", data) for name, data in zip(names, drawn, strict=True))


def fitted(text: str) -> bytes:
    """A sheet's PNG within `MAIL_LIMIT`, drawn smaller if need be but never below
    `MIN_ZOOM`: a sheet that cannot fit at that size goes out larger than the limit, since
    a picture that cannot be read is worth nothing."""
    data, zoom = png(text), 1.0
    while len(data) > MAIL_LIMIT and zoom > MIN_ZOOM:
        # a PNG's size goes roughly with its area; a little under, so one retry is rare
        zoom = max(MIN_ZOOM, round(zoom * (MAIL_LIMIT / len(data)) ** 0.5 * 0.98, 3))
        data = png(text, zoom=zoom)
    return data
