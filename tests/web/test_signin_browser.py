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


class _Served:
    """A real daemon serving the pages (its processor in a process of its own)."""

    def __init__(self, tmp_path):
        self.tmp_path = tmp_path

    def start(self, url: str, judge) -> None:
        config = replace(
            judge.config,
            db_url=url,
            smtp_listen="",
            http_listen="127.0.0.1:0",
            outbound=f"maildir:{self.tmp_path / 'outbox'}",
            sweep_seconds=3600,
        )
        judge.db.dispose()
        self.daemon = Daemon(config)
        self.loop = asyncio.new_event_loop()
        self.stop = asyncio.Event()
        self.thread = threading.Thread(
            target=lambda: self.loop.run_until_complete(self.daemon.run(self.stop)), daemon=True
        )
        self.thread.start()

    async def base(self) -> str:
        port = await asyncio.to_thread(wait_until, lambda: self.daemon.http_port, 60, "the page to listen")
        return f"http://127.0.0.1:{port}"

    def end(self) -> None:
        self.loop.call_soon_threadsafe(self.stop.set)
        self.thread.join(60)


async def _sign_in(browser: Browser, base: str, who: str, password: str) -> None:
    await browser.open(f"{base}/login?game=pay7")
    await browser.run(f"document.querySelector('input[name=who]').value = {who!r}")
    await browser.run(f"document.querySelector('input[name=password]').value = {password!r}")
    await browser.click("form.signin button", "/game/pay7/mine")


async def _send(browser: Browser, text: str) -> str:
    """Type `text` into the page's form, send it, and return the reply the page shows."""
    await browser.run(f"document.querySelector('form.send textarea').value = {text!r}")
    await browser.click("form.send button", "sent=")
    return str(await browser.run("(document.querySelector('pre.reply') || document.body).innerText"))


async def test_a_player_signs_in_reads_its_page_and_signs_out(tmp_path):
    url, judge = play(tmp_path)
    judge.send(addr("FRANCE"), "SIGNON Fpay7 pw-france\n% fall plans of France\n7 : A BUR - MUN\n")
    served = _Served(tmp_path)
    served.start(url, judge)
    try:
        base = await served.base()
        async with Browser(tmp_path / "profile") as browser:
            await browser.open(f"{base}/login?game=pay7")
            assert await browser.run("document.querySelector('input[name=game]').value") == "pay7"
            await browser.run("document.querySelector('input[name=who]').value = 'F'")
            await browser.run("document.querySelector('input[name=password]').value = 'wrong-one'")
            await browser.click("form.signin button", "/login")
            assert "invalid power or password for pay7" in await browser.text()
            await browser.run("document.querySelector('input[name=who]').value = 'F'")
            await browser.run("document.querySelector('input[name=password]').value = 'pw-france'")
            await browser.click("form.signin button", "/game/pay7/mine")
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
            await browser.mark()
            await browser.run("document.querySelector('form.signout button').click()")
            await browser.at("/")
            assert "/login?game=pay7" in await browser.open(f"{base}/game/pay7/mine", lands="/login")
    finally:
        served.end()


async def test_a_sheet_entered_corrected_and_processed_in_the_browser(tmp_path):
    """The player enters a sheet with one bad line and sees the error with its line
    number; corrects it and sees it on record; the Master previews and processes from
    the page; the player sees the new phase and its statement."""
    url, judge = play(tmp_path)
    served = _Served(tmp_path)
    served.start(url, judge)
    try:
        base = await served.base()
        async with Browser(tmp_path / "player") as player, Browser(tmp_path / "master") as master:
            await _sign_in(player, base, "F", "pw-france")
            assert "Fall 1901 Movement" in await player.text()
            reply = await _send(player, "% browser plans\n7 : A BUR - MUN\n4 : A MAR - NOWHERE")
            assert "line   4" in reply and "NOWHERE" in reply and "ERRORS" in reply
            assert "browser plans" not in await player.run(
                "(document.querySelector('pre.sheet') || {innerText: ''}).innerText"
            )
            reply = await _send(player, "% browser plans\n7 : A BUR - MUN\n4 : A MAR - BUR")
            assert "ERRORS" not in reply and "was processed" in reply
            assert "browser plans" in await player.run("document.querySelector('pre.sheet').innerText")
            await _sign_in(master, base, "M", "masterpw")
            assert "desk-FRANCE" in await master.run("document.body.innerHTML")
            assert "was processed" in await _send(master, "PREVIEW")
            preview = await master.run("document.querySelector('pre.also').innerText")
            assert "A BUR - MUN" in preview
            processed = await _send(master, "PROCESS!")
            assert "ERRORS" not in processed
            for _ in range(100):  # the results are written by the processor's turn
                await player.open(f"{base}/game/pay7/mine")
                if "Winter 1901" in await player.text() or "Fall 1901 Movement" not in await player.text():
                    break
                await asyncio.sleep(0.2)
            text = await player.text()
            assert "Fall 1901 Movement" not in text.split("Results")[0]
            assert "bribes paid in F1901M" in await player.run(
                "document.querySelector('table.ledger').innerHTML"
            )
    finally:
        served.end()


async def test_the_live_check_shows_errors_as_the_player_types(tmp_path):
    """The page's own script (no inline script: the CSP allows none) asks the judge as the
    player types and shows the error with its line number beside the textarea; sending is
    still the form's own POST."""
    url, judge = play(tmp_path)
    served = _Served(tmp_path)
    served.start(url, judge)
    try:
        base = await served.base()
        async with Browser(tmp_path / "player") as player:
            await _sign_in(player, base, "F", "pw-france")
            await player.run(
                "(() => { const t = document.querySelector('form.send textarea');"
                " t.value = '% typed\\n7 : A BUR - MUN\\n4 : A MAR - NOWHERE';"
                " t.dispatchEvent(new Event('input')); })()"
            )
            shown = ""
            for _ in range(100):
                shown = str(await player.run("document.getElementById('live').innerText"))
                if "line 4" in shown:
                    break
                await asyncio.sleep(0.1)
            assert "line 4" in shown and "NOWHERE" in shown
            await player.run(
                "(() => { const t = document.querySelector('form.send textarea');"
                " t.value = '7 : A BUR - MUN'; t.dispatchEvent(new Event('input')); })()"
            )
            for _ in range(100):
                shown = str(await player.run("document.getElementById('live').innerText"))
                if "Offers total" in shown:
                    break
                await asyncio.sleep(0.1)
            assert "Offers total 7 AgP" in shown and "line 4" not in shown and "would take it" in shown
            # nothing was sent by checking: the form sends
            reply = await _send(player, "7 : A BUR - MUN")
            assert "was processed" in reply
    finally:
        served.end()
