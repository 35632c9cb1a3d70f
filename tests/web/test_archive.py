"""The game list searched and paginated, the archive of ended games (issue 29 item 5), and
a controller's page with its vassal's papers (item 2)."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from payjudge.game import public
from payjudge.web.app import start_http

from .games import GM, addr, play
from .test_signin import _client, _get, _sign_in

pytestmark = pytest.mark.timeout(180)


def _listed(page: str) -> list[str]:
    return re.findall(r'<td><a href="/game/([^"]+)">', page)


async def test_search_the_archive_and_pages(tmp_path, monkeypatch):
    url, judge = play(tmp_path)
    page, port = await start_http(judge.db, replace(judge.config, db_url=url), "127.0.0.1", 0)
    base = f"http://127.0.0.1:{port}"
    try:
        async with _client() as http:
            assert _listed((await _get(http, base + "/"))[1]) == ["done7", "pay7"]
            assert _listed((await _get(http, base + "/?show=ended"))[1]) == ["done7"]
            assert _listed((await _get(http, base + "/?show=running"))[1]) == ["pay7"]
            assert _listed((await _get(http, base + "/?q=PAY"))[1]) == ["pay7"]
            assert _listed((await _get(http, base + "/?q=standard"))[1]) == ["done7", "pay7"]
            for odd in ("%25", "_", "%27%3B--", "<b>", "x" * 200):
                status, text, _ = await _get(http, base + f"/?q={odd}")
                assert status == 200 and "<b>" not in text
            # the archive's game publishes everything at its end (rules 3.6 and 4.5)
            _, ended, _ = await _get(http, base + "/game/done7")
            assert "The end of the game" in ended
            monkeypatch.setattr(public, "GAMES_PER_PAGE", 1)
            _, first, _ = await _get(http, base + "/?q=7")
            assert _listed(first) == ["done7"] and 'href="/?page=2&amp;q=7"' in first
            _, second, _ = await _get(http, base + "/?page=2&q=7")
            assert _listed(second) == ["pay7"]
    finally:
        await page.cleanup()


async def test_a_controller_sees_its_vassals_papers(tmp_path):
    url, judge = play(tmp_path)
    judge.send(GM, "SIGNON Mpay7 masterpw\nDUMMY ITALY\nCONTROL ITALY BY FRANCE\n")
    assert "ERRORS" not in judge.last_reply(GM), judge.last_reply(GM)
    page, port = await start_http(
        judge.db, replace(judge.config, db_url=url), "127.0.0.1", 0, now=judge.clock.now
    )
    base = f"http://127.0.0.1:{port}"
    try:
        async with _client() as france, _client() as germany:
            assert (await _sign_in(france, base, "pay7", "F", "pw-france"))[0] == 303
            _, mine, _ = await _get(france, f"{base}/game/pay7/mine")
            assert 'id="desk-FRANCE"' in mine and 'id="desk-ITALY"' in mine
            assert (await _sign_in(germany, base, "pay7", "G", "pw-germany"))[0] == 303
            _, theirs, _ = await _get(germany, f"{base}/game/pay7/mine")
            assert 'id="desk-ITALY"' not in theirs
    finally:
        await page.cleanup()
    assert addr("FRANCE")
