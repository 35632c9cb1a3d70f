"""The read-only status page (issue 13 item 5) over real HTTP: the list of games, a game's
board, phase, deadline, centres and public results with pictures, the end-of-game
publication once a game is over, and nothing private (no money, sheets, addresses,
passwords) while it runs."""

from __future__ import annotations

import re
from dataclasses import replace

import aiohttp
import pytest

from payjudge.config import Config, load_config
from payjudge.web.app import start_http
from tests.pngread import colour_counts, near, read_png

from .games import play

pytestmark = pytest.mark.timeout(180)


async def _serve(tmp_path):
    url, judge = play(tmp_path)
    config = replace(judge.config, db_url=url)
    runner, port = await start_http(judge.db, config, "127.0.0.1", 0)
    return runner, f"http://127.0.0.1:{port}", judge


async def _get(session: aiohttp.ClientSession, url: str) -> tuple[int, str, bytes]:
    async with session.get(url) as r:
        return r.status, r.headers.get("Content-Type", ""), await r.read()


async def test_pages_and_privacy(tmp_path):
    runner, base, judge = await _serve(tmp_path)
    try:
        async with aiohttp.ClientSession() as http:
            status, kind, body = await _get(http, base + "/")
            index = body.decode()
            assert status == 200 and kind.startswith("text/html")
            assert 'name="viewport"' in index
            assert '<a href="/game/pay7">pay7</a>' in index and '<a href="/game/done7">done7</a>' in index
            assert "Fall 1901 Movement" in index and "completed" in index

            status, _, body = await _get(http, base + "/game/pay7")
            page = body.decode()
            assert status == 200
            assert "Fall 1901 Movement" in page and "Deadline:" in page
            assert re.search(r"<td>FRANCE</td><td class=\"n\">3</td><td class=\"n\">3</td>", page)
            # the public results of Spring 1901, as the results mail has them, with a picture
            assert "Spring 1901 Movement results for game pay7" in page
            assert "A PAR - BUR" in page and "A MUN - BUR   (bounce)" in page
            pictures = re.findall(r'src="(/game/pay7/\d+\.png)"', page)
            assert len(pictures) == 2  # the board now, and Spring 1901's
            for src in pictures:
                status, kind, data = await _get(http, base + src)
                assert status == 200 and kind == "image/png"
                width, height, _ = read_png(data)
                assert width == 1000 and height > 700
            sea = sum(n for c, n in colour_counts(data, step=4).items() if near(c, "#b7d3ec"))
            assert sea > 2000
            # nothing private while the game runs
            for secret in (
                "AgP",
                "pj.test",
                "@",
                "pw-",
                "masterpw",
                "secret-of",
                "FEG",
                "Offer sheet",
                "treasur",
                "balance",
            ):
                assert secret.lower() not in page.lower(), secret
            assert "The end of the game" not in page

            # a finished game shows what its end notice published to everyone
            status, _, body = await _get(http, base + "/game/done7")
            done = body.decode()
            assert status == 200 and "The end of the game" in done
            assert "The game ends in a draw between AUSTRIA, ENGLAND" in done
            assert "Final treasuries" in done and "AgP" in done
            assert "pj.test" not in done and "pw-" not in done
            end_mail = next(m for m in judge.sent if m.kind == "game_end").body
            assert "Final treasuries" in end_mail

            for missing in ("/game/nosuch", "/game/pay7/99.png", "/game/%3Cscript%3E"):
                status, _, body = await _get(http, base + missing)
                assert status == 404 and b"<script>" not in body
    finally:
        await runner.cleanup()


def test_off_by_default_and_configured_by_env_or_file(tmp_path):
    assert Config().http is None
    assert load_config(env={"PAYJUDGE_HTTP_LISTEN": "0.0.0.0:8080"}).http == ("0.0.0.0", 8080)
    toml = tmp_path / "judge.toml"
    toml.write_text('http_listen = "127.0.0.1:8081"\n')
    assert load_config(toml, env={}).http == ("127.0.0.1", 8081)
