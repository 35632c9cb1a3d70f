"""The live check (docs/web.md): `POST /game/<name>/check` answers what the judge would of
the form's text (the problems with the reply's line numbers, the lines understood, the
total offered against the balance) and changes nothing; a small script of our own asks it
as the player types, under a Content-Security-Policy that allows no inline script."""

from __future__ import annotations

import re

import aiohttp
import pytest
from sqlalchemy import func, select

from payjudge.store.models import Game, InboundMessage, Submission

from .test_send import _form, _send, _serve
from .test_signin import _client, _get, _sign_in

pytestmark = pytest.mark.timeout(180)


async def _check(http: aiohttp.ClientSession, base: str, data: dict[str, str], game: str = "pay7"):
    async with http.post(f"{base}/game/{game}/check", data=data, allow_redirects=False) as r:
        body = await r.json() if r.content_type == "application/json" else None
        return r.status, body, r.headers


def _state(judge) -> tuple[int, int, int]:
    with judge.db.reading() as s:
        return (
            s.scalar(select(func.count()).select_from(InboundMessage)) or 0,
            s.scalar(select(func.count()).select_from(Submission)) or 0,
            s.scalar(select(Game.version).where(Game.name == "pay7")) or 0,
        )


async def test_the_check_answers_as_the_judge_would_and_changes_nothing(tmp_path):
    page, base, judge = await _serve(tmp_path)
    try:
        async with _client() as http, _client() as stranger:
            assert (await _sign_in(http, base, "pay7", "F", "pw-france"))[0] == 303
            csrf = (await _form(http, base))["csrf"]
            before = _state(judge)
            sheet = "% plans\n7 : A BUR - MUN\n5 : A PAR - TIMBUKTU\nACCEPT FGE?"
            status, found, headers = await _check(http, base, {"csrf": csrf, "text": sheet})
            assert status == 200 and "no-store" in headers["Cache-Control"]
            assert [p["line"] for p in found["problems"]] == [4]  # the page's SIGNON is line 1
            assert "TIMBUKTU" in found["problems"][0]["text"]
            # the judge's own reply to the same text names the same line
            form = await _form(http, base)
            await _send(http, base, form, sheet)
            judge.process()
            assert "line   4" in judge.last_reply("france.pay7@pj.test")
            before = _state(judge)
            good = sheet.replace("5 : A PAR - TIMBUKTU\n", "")
            status, found, _ = await _check(http, base, {"csrf": csrf, "text": good})
            assert status == 200 and found["problems"] == []
            assert [u["line"] for u in found["understood"]] == [3]  # (line 2 is a comment)
            assert found["commands"] == [{"line": 4, "keyword": "ACCEPT"}]
            assert found["total"] == 7 and found["balance"] > 0 and found["over"] is False
            over = f"{found['balance'] + 1} : A BUR - MUN"
            found = (await _check(http, base, {"csrf": csrf, "text": over}))[1]
            # more than the balance is taken (rule 5.5 reduces it at the auction), and said
            assert found["problems"] == [] and found["over"] is True
            assert found["total"] == found["balance"] + 1
            assert _state(judge) == before  # nothing stored, nothing changed
            # no token, no session, another game: no answer
            assert (await _check(http, base, {"text": good}))[0] == 403
            assert (await _check(http, base, {"csrf": "forged", "text": good}))[0] == 403
            assert (await _check(stranger, base, {"csrf": csrf, "text": good}))[0] == 401
            assert (await _check(http, base, {"csrf": csrf, "text": good}, game="done7"))[0] == 401
    finally:
        await page.cleanup()


async def test_the_script_is_ours_and_no_inline_script_may_run(tmp_path):
    page, base, _ = await _serve(tmp_path)
    try:
        async with _client() as http:
            assert (await _sign_in(http, base, "pay7", "F", "pw-france"))[0] == 303
            async with http.get(f"{base}/game/pay7/mine") as r:
                mine, policy = await r.text(), r.headers["Content-Security-Policy"]
            script_src = re.search(r"script-src ([^;]*)", policy)
            assert script_src is not None and script_src.group(1).strip() == "'self'"
            assert "connect-src 'self'" in policy
            tags = re.findall(r"<script[^>]*>", mine)
            assert tags == ['<script src="/static/check.js" defer>']  # no inline script
            assert 'data-check="/game/pay7/check"' in mine and 'id="live"' in mine
            status, js, _ = await _get(http, f"{base}/static/check.js")
            assert status == 200 and "fetch(" in js and "data-check" in js
    finally:
        await page.cleanup()
