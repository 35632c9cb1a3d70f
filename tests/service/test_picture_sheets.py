"""A large map's results mail carries its picture as separate sheets (issue 28 item 1):
the board with its legend, then each enlarged inset, each a PNG within `MAIL_LIMIT` and
none shrunk below `MIN_ZOOM`; the web's picture is the same board with the insets under it,
and every sheet is kept under the data directory. DPjudge's maps are read in place."""

from __future__ import annotations

import shutil
import struct
from pathlib import Path

import pytest

from payjudge.game.pictures import MAIL_LIMIT, MIN_ZOOM, Pictures
from payjudge.rules.mapfile import load_map_file
from payjudge.rules.position import Position
from payjudge.rules.turn import advance
from payjudge.store.models import Game
from tests.render.test_golden_pictures import YOUNGSTOWN_SPRING

MAPS = Path("/work/shared/dpjudge-maps/maps")


def _width(data: bytes) -> int:
    return int(struct.unpack(">I", data[16:20])[0])


@pytest.mark.skipif(not MAPS.is_dir() or shutil.which("gs") is None, reason="needs DPjudge's maps and gs")
def test_youngstown_results_carry_the_board_and_each_inset(tmp_path):
    m = load_map_file(MAPS / "youngstown.map", [MAPS])
    before = Position.initial(m)
    report, _ = advance(before, YOUNGSTOWN_SPRING)
    stored = {
        "phase": str(before.phase),
        "orders": [
            {"power": o.power, "order": str(o.order), "result": o.result.value} for o in report.outcomes
        ],
    }
    pictures = Pictures(tmp_path / "pictures", MAPS)
    game = Game(name="yt", rules=[])
    board, *insets = pictures.attachments(game, m, before, stored)
    assert board.filename == "yt-S1901M.png"
    assert [a.filename for a in insets] == [f"yt-S1901M-{n}.png" for n in range(1, len(insets) + 1)]
    assert insets  # Europe crowds: at least one inset of where units moved
    for sheet in (board, *insets):
        assert len(sheet.data) <= MAIL_LIMIT and _width(sheet.data) >= 1000 * MIN_ZOOM
    # kept beside each other, so the next reader (the status page) draws nothing again
    kept = sorted(p.name for p in (tmp_path / "pictures").glob("*.png"))
    key = pictures.digest(m, before, stored)
    assert kept == sorted([f"{key}.png"] + [f"{key}-inset{n}.png" for n in range(1, len(insets) + 1)])
    assert Pictures(tmp_path / "pictures", MAPS).sheets(m, before, stored) == tuple(
        a.data for a in (board, *insets)
    )
    # the web's picture: one PNG, the insets under the board, at full size
    whole = pictures.png(m, before, stored)
    assert _width(whole) == 1000 and whole not in {a.data for a in (board, *insets)}
    assert (tmp_path / "pictures" / f"{key}-whole.png").read_bytes() == whole


def test_a_results_mail_carries_every_sheet_and_says_so(database, monkeypatch):
    from payjudge.text.compose import Attachment

    from .judge import TestJudge
    from .test_game import GM, start_game
    from .test_pictures import _pictures, _process

    def three(self, game, game_map, position, report, **_kw):
        return tuple(
            Attachment(f"{game.name}-{n}.png", "image/png", b"\x89PNG\r\n\x1a\n" + bytes(n)) for n in range(3)
        )

    monkeypatch.setattr(Pictures, "attachments", three)
    judge = TestJudge(database)
    start_game(judge)
    judge.sent.clear()
    _process(judge)
    mail = next(m for m in judge.sent if m.kind == "results" and m.to[0] == GM)
    assert [name for name, _ in _pictures(mail.raw)] == ["pay7-0.png", "pay7-1.png", "pay7-2.png"]
    body = " ".join(mail.body.split())
    assert (
        "attached as pictures: the board, and 2 enlarged areas numbered on it; SET MAP OFF stops them."
        in body
    )
