"""A player's own page in a real browser (issue 29): headless Chromium, driven over the
DevTools protocol (tests/web/cdp.py), signs in on the page a real daemon serves, reads its
own papers at a phone's width, has the session cookie with the right flags, and signs out,
after which its page asks for a sign-in again."""

from __future__ import annotations

import asyncio
import threading
from dataclasses import replace

import pytest

from payjudge.daemon import Daemon
from tests.daemon.harness import wait_until

from .cdp import CHROMIUM, Browser
from .games import addr, play

pytestmark = [
    pytest.mark.timeout(240),
    pytest.mark.skipif(CHROMIUM is None, reason="no Chromium: apt-get install chromium"),
]


async def test_a_player_signs_in_reads_its_page_and_signs_out(tmp_path):
    url, judge = play(tmp_path)
    judge.send(addr("FRANCE"), "SIGNON Fpay7 pw-france\n% fall plans of France\n7 : A BUR - MUN\n")
    config = replace(
        judge.config,
        db_url=url,
        smtp_listen="",
        http_listen="127.0.0.1:0",
        outbound=f"maildir:{tmp_path / 'outbox'}",
        sweep_seconds=3600,
    )
    judge.db.dispose()
    daemon = Daemon(config)
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()
    thread = threading.Thread(target=lambda: loop.run_until_complete(daemon.run(stop)), daemon=True)
    thread.start()
    try:
        port = await asyncio.to_thread(wait_until, lambda: daemon.http_port, 60, "the page to listen")
        base = f"http://127.0.0.1:{port}"
        async with Browser(tmp_path / "profile") as browser:
            await browser.open(f"{base}/login?game=pay7")
            assert await browser.run("document.querySelector('input[name=game]').value") == "pay7"
            await browser.run("document.querySelector('input[name=who]').value = 'F'")
            await browser.run("document.querySelector('input[name=password]').value = 'wrong-one'")
            await browser.run("document.querySelector('form.signin button').click()")
            await browser.loaded("/login")
            assert "invalid power or password for pay7" in await browser.text()
            await browser.run("document.querySelector('input[name=who]').value = 'F'")
            await browser.run("document.querySelector('input[name=password]').value = 'pw-france'")
            await browser.run("document.querySelector('form.signin button').click()")
            await browser.loaded("/game/pay7/mine")
            text = await browser.text()
            assert "Signed in as FRANCE in pay7" in text
            assert "fall plans of France" in text and "A BUR - MUN" in text and "Balance:" in text
            assert "GERMANY" not in await browser.run(
                "Array.from(document.querySelectorAll('section.desk h2')).map(h => h.textContent).join()"
            )
            # the page fits a phone: nothing wider than the window
            assert await browser.run("document.documentElement.scrollWidth <= window.innerWidth + 1")
            session = next(c for c in await browser.cookies() if c["name"] == "pj_session")
            assert session["httpOnly"] is True and session["sameSite"] == "Strict"
            await browser.run("document.querySelector('form.signout button').click()")
            await browser.at("/")
            assert "/login?game=pay7" in await browser.open(f"{base}/game/pay7/mine", lands="/login")
    finally:
        loop.call_soon_threadsafe(stop.set)
        thread.join(60)
