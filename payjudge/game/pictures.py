"""The map picture of a phase: drawn from its stored turn when wanted, cached as a file.

A picture is a pure function of what the turn stores (the position it started from and
its public report) and of the map's drawing, so it is not kept in the database: it is
drawn when first wanted (for the results mail, or by the status page) and kept as
`<data_dir>/pictures/<digest>.png`, named by a digest of what it is drawn from. A phase
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
from ..render.board import board_svg
from ..render.files import drawing_path, geometry_for
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

VERSION = "3"  # bump when the drawing changes: cached pictures are then drawn again
MAIL_LIMIT = 450_000  # a larger picture is attached smaller (a mail stays well under 1 MB)
_MEMORY: OrderedDict[str, bytes] = OrderedDict()  # the last few pictures, by digest
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

    def png(
        self,
        game_map: Map,
        position: Position,
        report: Mapping[str, Any] | None,
        viewer: PowerName | None = None,
    ) -> bytes:
        """The picture of a phase: its board, and with its report its orders and results
        (no report: the board as it stands). A BLIND `viewer`'s picture counts only its
        own centres and units in the legend (the others read `?`)."""
        key = self.digest(game_map, position, report, viewer)
        path = self.cache_dir / f"{key}.png" if self.cache_dir else None
        with _MEMORY_LOCK:
            data = _MEMORY.get(key)
        if data is None and path is not None and path.is_file():
            data = path.read_bytes()
        if data is None:
            data = self._draw(game_map, position, report, viewer)
        if path is not None and not path.is_file():
            path.parent.mkdir(parents=True, exist_ok=True)
            partial = path.with_name(f"{key}.{threading.get_ident()}.part")
            partial.write_bytes(data)
            partial.replace(path)  # never a half-written picture under the real name
        with _MEMORY_LOCK:
            _MEMORY[key] = data
            _MEMORY.move_to_end(key)
            while len(_MEMORY) > _MEMORY_SIZE:
                _MEMORY.popitem(last=False)
        return data

    def _draw(
        self, game_map: Map, position: Position, report: Mapping[str, Any] | None, viewer: PowerName | None
    ) -> bytes:
        geometry = geometry_for(game_map, self.maps_dir, self.cache_dir / "maps" if self.cache_dir else None)
        outcomes = outcomes_from_report(position, report) if report else ()
        retreats = retreats_from_report(report) if report else {}
        # titled as the map names the phase (A.D. 1430 Adjustments)
        title = calendar_of(game_map).title(position.phase)
        text = board_svg(geometry, position, outcomes, retreats=retreats, title=title, viewer=viewer)
        data = png(text)
        if len(data) > MAIL_LIMIT:
            data = png(text, zoom=max(0.4, (MAIL_LIMIT / len(data)) ** 0.5))
        return data

    def attachment(
        self,
        game: Game,
        game_map: Map,
        position: Position,
        report: Mapping[str, Any],
        *,
        viewer: PowerName | None = None,
        whole: bool = False,
    ) -> Attachment | None:
        """The picture of a played phase for its results mail; None when the game gets no
        shared picture, or when drawing it failed (the results go out without it). In a
        BLIND game, `viewer`'s picture shows only what that power saw (`blind.sight_board`),
        and `whole` asks for the full picture, which only the Master and the omniscient get."""
        if viewer is not None:
            position, seen = sight_board(position, dict(report), viewer)
            report = seen
        elif not whole and not shared_pictures(game):
            return None
        try:
            data = self.png(game_map, position, report, viewer)
        except Exception:  # a picture is never worth losing the results mail over
            log.exception("game %s: the picture of %s could not be drawn", game.name, report.get("phase"))
            return None
        shown = calendar_of(game_map).short(Phase.parse(str(report["phase"])))
        return Attachment(f"{game.name}-{shown}.png", "image/png", data)
