"""Press to and from a party on its page (docs/web.md): only what it wrote or was mailed,
shown as the mail showed it, so grey and fake press keep their secret on the page too."""

from __future__ import annotations

import html
import re

import pytest
from sqlalchemy import select

from payjudge.store.models import Game

from .games import addr
from .test_send import _serve
from .test_signin import _client, _get, _sign_in

pytestmark = pytest.mark.timeout(180)


def _press(page: str) -> list[tuple[str, str, str]]:
    """(sent|read, heading, body) of each press item on a page."""
    found = re.findall(
        r'<article class="press (\w+)">\s*<h3 class="press-head">(.*?)</h3>\s*<pre>(.*?)</pre>', page, re.S
    )
    return [(kind, html.unescape(head), html.unescape(body)) for kind, head, body in found]


async def _page_of(base: str, who: str, password: str) -> str:
    async with _client() as http:
        assert (await _sign_in(http, base, "pay7", who, password))[0] == 303
        return (await _get(http, f"{base}/game/pay7/mine"))[1]


async def test_press_on_the_page_as_the_mail_showed_it(tmp_path):
    page, base, judge = await _serve(tmp_path)
    with judge.db.transaction() as s:
        game = s.scalar(select(Game).where(Game.name == "pay7"))
        assert game is not None
        game.rules = [*game.rules, "WHITE_GREY", "FAKE_PRESS", "EAVESDROP"]
    sign = "SIGNON Gpay7 pw-germany"
    judge.send(addr("GERMANY"), f"{sign}\nPRESS TO F GREY\nweb-grey-words\nENDPRESS\n")
    judge.send(addr("GERMANY"), f"{sign}\nPRESS TO F FAKE AS ITALY\nweb-fake-words\nENDPRESS\n")
    judge.send(addr("ENGLAND"), "SIGNON Epay7 pw-england\nPRESS TO R\nweb-private-words\nENDPRESS\n")
    try:
        france = _press(await _page_of(base, "F", "pw-france"))
        assert [kind for kind, _, _ in france] == ["read", "read"]
        fake, grey = france  # newest first
        assert "web-grey-words" in grey[2] and "Anonymous" in grey[1] and "Germany" not in grey[1]
        assert "web-fake-words" in fake[2] and "Italy" in fake[1] and "Germany" not in fake[1]
        # each heading is the mail's own first line
        mailed = [m.body.partition("\n")[0].strip() for m in judge.inbox(addr("FRANCE")) if m.kind == "press"]
        assert sorted(mailed) == sorted(h for _, h, _ in france)
        germany = _press(await _page_of(base, "G", "pw-germany"))
        assert [(k, h) for k, h, _ in germany] == [("sent", "You to France (F1901M)")] * 2
        assert not any("web-private-words" in b for _, _, b in france + germany)
        # the Master reads what its mail told it: the real sender (EAVESDROP)
        master = _press(await _page_of(base, "M", "masterpw"))
        assert any("Germany" in h and "shown as Anonymous" in h for _, h, _ in master)
        austria = await _page_of(base, "A", "pw-austria")
        assert _press(austria) == [] and "No press to or from you yet" in austria
    finally:
        await page.cleanup()
