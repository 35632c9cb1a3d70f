"""Who the phase waits for, on a power's page, as far as the rules let it know: exactly
what SUMMARY tells it by mail (LIST_UNORDERED: who has not ordered; LIST_WAITERS: who
asked to wait for the deadline), and nothing when the rules keep it quiet."""

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


def _line(text: str, label: str) -> str | None:
    found = re.search(rf"{label}: (.*)", text)
    return found.group(1).strip() if found else None


def _span(page: str, span: str) -> str | None:
    found = re.search(rf'<span id="{span}">(.*?)</span>', page)
    return html.unescape(found.group(1)) if found else None


async def test_the_page_tells_what_summary_tells(tmp_path):
    page, base, judge = await _serve(tmp_path)
    try:
        async with _client() as http:
            assert (await _sign_in(http, base, "pay7", "F", "pw-france"))[0] == 303
            _, mine, _ = await _get(http, f"{base}/game/pay7/mine")
            assert "do not tell who has ordered" in mine and _span(mine, "late") is None
            with judge.db.transaction() as s:
                game = s.scalar(select(Game).where(Game.name == "pay7"))
                assert game is not None
                game.rules = [*game.rules, "LIST_UNORDERED", "LIST_WAITERS"]
            judge.send(addr("ITALY"), "SIGNON Ipay7 pw-italy\nSET WAIT\n")
            judge.send(addr("AUSTRIA"), "SIGNON Apay7 pw-austria\n3 : A VIE H\n")
            judge.send(addr("FRANCE"), "SUMMARY pay7\n")
            summary = judge.last_reply(addr("FRANCE"))
            late, waiting = _line(summary, "Not yet ordered"), _line(summary, "Waiting for the deadline")
            assert late and "AUSTRIA" not in late and "FRANCE" in late
            assert waiting == "ITALY"
            _, mine, _ = await _get(http, f"{base}/game/pay7/mine")
            assert _span(mine, "late") == late and _span(mine, "waiters") == waiting
            assert "do not tell" not in mine
    finally:
        await page.cleanup()
