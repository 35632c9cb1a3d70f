"""Entering things through the page is sending a message (issue 29 item 3): the form's text
is stored as an inbound message marked `web` and goes through the processor a mail goes
through, with the same reply (shown on the page and mailed), the same refusal of a whole
message for one bad line, a nonce against double submission, and nothing a stranger can
forge by mail."""

from __future__ import annotations

import re
from dataclasses import replace

import aiohttp
import pytest
from sqlalchemy import func, select

from payjudge.store.models import InboundMessage
from payjudge.web.app import start_http

from .games import GM, addr, play
from .test_signin import _client, _get, _sign_in

pytestmark = pytest.mark.timeout(180)


async def _serve(tmp_path):
    url, judge = play(tmp_path)
    page, port = await start_http(
        judge.db, replace(judge.config, db_url=url), "127.0.0.1", 0, now=judge.clock.now
    )
    return page, f"http://127.0.0.1:{port}", judge


async def _form(http: aiohttp.ClientSession, base: str) -> dict[str, str]:
    _, mine, _ = await _get(http, f"{base}/game/pay7/mine")
    fields = dict(re.findall(r'<input type="hidden" name="(csrf|nonce)" value="([^"]+)">', mine))
    assert set(fields) == {"csrf", "nonce"}, mine
    return fields


async def _send(
    http: aiohttp.ClientSession, base: str, form: dict[str, str], text: str
) -> tuple[int, str | None]:
    async with http.post(f"{base}/game/pay7/send", data={**form, "text": text}, allow_redirects=False) as r:
        return r.status, r.headers.get("Location")


def _web_messages(judge) -> int:
    with judge.db.reading() as s:
        return s.scalar(
            select(func.count()).select_from(InboundMessage).where(InboundMessage.source == "web")
        )


async def test_a_sheet_with_a_bad_line_then_corrected(tmp_path):
    page, base, judge = await _serve(tmp_path)
    try:
        async with _client() as http:
            assert (await _sign_in(http, base, "pay7", "F", "pw-france"))[0] == 303
            form = await _form(http, base)
            sheet = "% web-plans-of-France\n7 : A BUR - MUN\n5 : A PAR - TIMBUKTU\nACCEPT FGE?"
            status, where = await _send(http, base, form, sheet)
            assert status == 303 and where == f"/game/pay7/mine?sent={form['nonce']}#answer"
            # (no daemon here: the test runs the processor, as the daemon's worker would)
            judge.process()
            _, shown, _ = await _get(http, base + where.partition("#")[0])
            reply = re.search(r'<pre class="reply">(.*?)</pre>', shown, re.S)
            assert reply is not None, shown
            assert "line   4" in reply.group(1) and "TIMBUKTU" in reply.group(1)  # after the SIGNON line
            assert "web-session" not in shown
            # the whole message refused: nothing on record; the form holds the text to correct
            assert not re.search(r'<pre class="sheet">[^<]*web-plans-of-France', shown)
            assert re.search(
                r"<textarea[^>]*>% web-plans-of-France\n7 : A BUR - MUN\n5 : A PAR - TIMBUKTU", shown
            )
            # the same reply was mailed to France
            assert "TIMBUKTU" in judge.last_reply(addr("FRANCE"))
            # corrected, with a fresh form
            form = await _form(http, base)
            status, where = await _send(http, base, form, sheet.replace("5 : A PAR - TIMBUKTU\n", ""))
            judge.process()
            _, shown, _ = await _get(http, base + where.partition("#")[0])
            assert "ERRORS" not in shown and "was processed" in shown
            assert re.search(r'<pre class="sheet">[^<]*web-plans-of-France', shown)
            # a reload sends the same form again: stored once, answered once
            before, mailed = _web_messages(judge), len(judge.sent)
            assert (await _send(http, base, form, "% again"))[0] == 303
            judge.process()
            assert _web_messages(judge) == before and len(judge.sent) == mailed
    finally:
        await page.cleanup()


async def test_no_token_no_message_and_no_reading_of_anothers_answer(tmp_path):
    page, base, judge = await _serve(tmp_path)
    try:
        async with _client() as france, _client() as germany:
            assert (await _sign_in(france, base, "pay7", "F", "pw-france"))[0] == 303
            assert (await _sign_in(germany, base, "pay7", "G", "pw-germany"))[0] == 303
            form = await _form(france, base)
            assert (await _send(france, base, {"nonce": form["nonce"]}, "7 : A BUR H"))[0] == 403
            assert (await _send(france, base, {**form, "csrf": "forged"}, "7 : A BUR H"))[0] == 403
            assert (await _send(france, base, {**form, "nonce": "short"}, "7 : A BUR H"))[0] == 400
            # Germany's session posting France's form (France's token) is refused too
            assert (await _send(germany, base, form, "7 : A BUR H"))[0] == 403
            assert _web_messages(judge) == 0
            assert (await _send(france, base, form, "% web-secret-of-France\n7 : A BUR H"))[0] == 303
            judge.process()
            _, seen, _ = await _get(germany, f"{base}/game/pay7/mine?sent={form['nonce']}")
            assert "No message of yours" in seen and "web-secret-of-France" not in seen
    finally:
        await page.cleanup()


def test_mail_cannot_use_the_webs_sign_on(tmp_path):
    _, judge = play(tmp_path)
    judge.send(addr("FRANCE"), "SIGNON france@pay7 web-session\n7 : A BUR H\n")
    assert "invalid power or password for pay7" in judge.last_reply(addr("FRANCE"))


async def test_a_game_played_on_the_web_replays_exactly(tmp_path):
    """`payjudge replay` rebuilds a game from its stored messages into a fresh database,
    where the web's sessions are not: a message the page sent signs on again as its
    session did then, and one sent after signing out fails again, so the game comes out
    the same (the judge's promise that mail is the whole truth holds for the page)."""
    page, base, judge = await _serve(tmp_path)
    try:
        async with _client() as http:
            assert (await _sign_in(http, base, "pay7", "F", "pw-france"))[0] == 303
            form = await _form(http, base)
            assert (await _send(http, base, form, "% replayed plans\n7 : A BUR - MUN"))[0] == 303
            judge.process()
            judge.clock.advance(minutes=5)
            late = await _form(http, base)
            assert (await _send(http, base, late, "% too late\n7 : A BUR H"))[0] == 303
            judge.clock.advance(minutes=1)
            async with http.post(f"{base}/logout", data={"csrf": late["csrf"]}, allow_redirects=False) as r:
                assert r.status == 303
        # processed after the sign-out: its session is over, it signs nobody on
        judge.clock.advance(minutes=1)
        judge.process()
        assert "invalid power or password" in judge.last_reply(addr("FRANCE"))
        judge.send(GM, "SIGNON Mpay7 masterpw\nPROCESS!\n")
        # the record: France's sheet from the page was played, and moved its army
        report = judge.replay("pay7")
        assert report.ok, report.differences
        assert report.phases >= 3 and report.messages > 10
    finally:
        await page.cleanup()
