"""A party's iCalendar feed of its game's deadlines (issue 29 item 6): an unguessable link
made on its page and shown once, revoked by a new link or on request, and answering
nothing once the party no longer plays."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from payjudge.web.app import start_http

from .games import addr, play
from .test_signin import _client, _get, _sign_in

pytestmark = pytest.mark.timeout(180)


async def _link(http, base: str, **extra: str) -> str | None:
    _, mine, _ = await _get(http, f"{base}/game/pay7/mine")
    csrf = re.search(r'name="csrf" value="([^"]+)"', mine)
    assert csrf is not None
    async with http.post(f"{base}/game/pay7/calendar", data={"csrf": csrf.group(1), **extra}) as r:
        assert r.status == 200
        found = re.search(r'<code class="feed">[^<]*(/calendar/[A-Za-z0-9_-]+\.ics)</code>', await r.text())
    return found.group(1) if found else None


async def test_a_feed_made_shown_once_revoked_and_ended(tmp_path):
    url, judge = play(tmp_path)
    config = replace(judge.config, db_url=url, base_url="http://judge.example.org")
    page, port = await start_http(judge.db, config, "127.0.0.1", 0, now=judge.clock.now)
    base = f"http://127.0.0.1:{port}"
    try:
        async with _client() as http:
            assert (await _sign_in(http, base, "pay7", "F", "pw-france"))[0] == 303
            async with http.post(f"{base}/game/pay7/calendar", data={}) as r:
                assert r.status == 403  # no CSRF token, no link
            first = await _link(http, base)
            assert first is not None
            _, mine, _ = await _get(http, f"{base}/game/pay7/mine")
            assert first not in mine and "link is active" in mine  # shown once only
            async with _client() as calendar, calendar.get(base + first) as r:  # no cookie
                ics = await r.text()
                assert r.status == 200 and r.content_type == "text/calendar"
            assert ics.startswith("BEGIN:VCALENDAR\r\n") and ics.endswith("END:VCALENDAR\r\n")
            assert "SUMMARY:pay7: Fall 1901 Movement deadline" in ics
            assert re.search(r"DTSTART:\d{8}T\d{6}Z", ics) and "TRIGGER:-PT12H" in ics
            assert addr("FRANCE") not in ics and "FRANCE" in ics
            second = await _link(http, base)
            assert second is not None and second != first
            assert (await _get(http, base + first))[0] == 404  # the old link is dead
            assert (await _get(http, base + second))[0] == 200
            await _link(http, base, stop="1")
            assert (await _get(http, base + second))[0] == 404
            third = await _link(http, base)
            assert third is not None
            judge.send(addr("FRANCE"), "RESIGN Fpay7 pw-france\n")
            assert (await _get(http, base + third))[0] == 404  # France no longer plays
            assert (await _get(http, base + "/calendar/" + "x" * 40 + ".ics"))[0] == 404
    finally:
        await page.cleanup()
