"""A headless Chromium driven over the DevTools protocol, for the web pages' browser tests.

Just what the tests need, with nothing to install beyond Debian's `chromium` and aiohttp
(which the judge already uses): open a page, wait for it to load, run a line of
JavaScript in it (to type into a field or click a button, as a user would), read its text
and the browser's cookies. Chromium is started with `--remote-debugging-port=0` and tells
the port it chose in `DevToolsActivePort` in its profile folder.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import aiohttp

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


class Browser:
    """One headless Chromium with one tab; `async with Browser(folder) as b: …`."""

    def __init__(self, profile: Path):
        self.profile = profile
        self.process: subprocess.Popen[bytes] | None = None
        self.http: aiohttp.ClientSession | None = None
        self.socket: aiohttp.ClientWebSocketResponse | None = None
        self.session_id: str | None = None
        self.ids = itertools.count(1)

    async def __aenter__(self) -> Browser:
        assert CHROMIUM is not None
        self.profile.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            [
                CHROMIUM,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--remote-debugging-port=0",
                "--remote-allow-origins=*",
                f"--user-data-dir={self.profile}",
                "--window-size=420,900",  # a phone's width
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        active = self.profile / "DevToolsActivePort"
        for _ in range(600):
            if active.is_file() and len(active.read_text().splitlines()) >= 2:
                break
            await asyncio.sleep(0.1)
        port, path = active.read_text().splitlines()[:2]
        self.http = aiohttp.ClientSession()
        self.socket = await self.http.ws_connect(f"ws://127.0.0.1:{port}{path}", max_msg_size=0)
        target = await self.call("Target.createTarget", url="about:blank")
        attached = await self.call("Target.attachToTarget", targetId=target["targetId"], flatten=True)
        self.session_id = attached["sessionId"]
        await self.call("Page.enable")
        await self.call("Network.enable")
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.socket is not None:
            await self.socket.close()
        if self.http is not None:
            await self.http.close()
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        """Send one DevTools command (to the tab once attached) and wait for its answer."""
        assert self.socket is not None
        ident = next(self.ids)
        message: dict[str, Any] = {"id": ident, "method": method, "params": params}
        if self.session_id is not None:
            message["sessionId"] = self.session_id
        await self.socket.send_str(json.dumps(message))
        while True:
            answer = json.loads(await asyncio.wait_for(self.socket.receive_str(), 60))
            if answer.get("id") == ident:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})

    async def run(self, script: str) -> Any:
        """Evaluate JavaScript in the page; its value."""
        result = await self.call("Runtime.evaluate", expression=script, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{script}: {result['exceptionDetails']}")
        return result["result"].get("value")

    async def mark(self) -> None:
        """Mark the page now shown, so that `loaded` waits for the next one (a click or a
        navigation replaces the document; until it does, the old one is still there)."""
        await self.run("window.__pjOld = true")

    async def loaded(self, path_part: str) -> str:
        """Wait until a new page (not the one `mark`ed) whose address holds `path_part` has
        loaded; its address."""
        state = None
        for _ in range(300):
            state = await self.run(
                "[location.href, document.readyState, window.__pjOld === true, document.body !== null]"
            )
            if path_part in state[0] and state[1] == "complete" and not state[2] and state[3]:
                return str(state[0])
            await asyncio.sleep(0.1)
        raise TimeoutError(f"no page at {path_part}: still at {state}")

    async def at(self, pathname: str) -> None:
        """Wait until a new page at exactly `pathname` (and query) has loaded."""
        state = None
        for _ in range(300):
            state = await self.run(
                "[location.pathname + location.search, document.readyState, window.__pjOld === true]"
            )
            if state == [pathname, "complete", False]:
                return
            await asyncio.sleep(0.1)
        raise TimeoutError(f"never at {pathname}: still at {state}")

    async def click(self, selector: str, lands: str) -> str:
        """Click what `selector` finds and wait for the page it leads to (address holding
        `lands`); its address."""
        await self.mark()
        await self.run(f"document.querySelector({selector!r}).click()")
        return await self.loaded(lands)

    async def open(self, url: str, lands: str | None = None) -> str:
        """Go to `url`; wait until the page whose address holds `lands` (default: the
        address's path) has loaded, and return its address."""
        if self.session_id is not None:
            await self.mark()
        await self.call("Page.navigate", url=url)
        return await self.loaded(lands or url.split("//", 1)[-1].split("/", 1)[-1] or "/")

    async def text(self) -> str:
        return str(await self.run("document.body.innerText"))

    async def cookies(self) -> list[dict[str, Any]]:
        return list((await self.call("Network.getAllCookies"))["cookies"])

    async def screenshot(self) -> bytes:
        import base64

        shot = await self.call("Page.captureScreenshot", format="png")
        return base64.b64decode(shot["data"])
