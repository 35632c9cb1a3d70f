"""Draw the README's pictures of a power's own page (docs/web/*.png): two games played by
mail (tests/web/games.py), the page served on 127.0.0.1, headless Chromium
(tests/web/cdp.py) signed in as France, before and after sending a sheet with a bad line.

    .venv/bin/python tools/web_screenshots.py
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from payjudge.web.app import start_http  # noqa: E402
from tests.web.cdp import Browser  # noqa: E402
from tests.web.games import addr, play  # noqa: E402


async def main() -> None:
    folder = Path(tempfile.mkdtemp())
    url, judge = play(folder)
    judge.send(
        addr("FRANCE"),
        "SIGNON Fpay7 pw-france\n% to Munich, with Marseilles behind\n"
        "7 : A BUR - MUN\n4 : A MAR - BUR\nACCEPT FGE?\n",
    )
    page, port = await start_http(
        judge.db, replace(judge.config, db_url=url), "127.0.0.1", 0, now=judge.clock.now
    )
    base = f"http://127.0.0.1:{port}"
    out = ROOT / "docs" / "web"
    out.mkdir(parents=True, exist_ok=True)
    try:
        async with Browser(folder / "profile") as b:
            await b.call(
                "Emulation.setDeviceMetricsOverride",
                width=900,
                height=1500,
                deviceScaleFactor=1,
                mobile=False,
            )
            await b.open(f"{base}/login?game=pay7")
            await b.run("document.querySelector('input[name=who]').value = 'F'")
            await b.run("document.querySelector('input[name=password]').value = 'pw-france'")
            await b.click("form.signin button", "/game/pay7/mine")
            await b.run("document.querySelector('#desk-FRANCE details').open = true")
            await b.run("window.scrollTo(0, 0)")
            (out / "power-page.png").write_bytes(await b.screenshot())
            await b.run(
                "document.querySelector('form.send textarea').value = "
                "'% to Munich\\n7 : A BUR - MUN\\n4 : A MAR - BURGUNDYY'"
            )
            await b.click("form.send button", "sent=")
            # (no daemon: the processor is run here, as the daemon's worker would)
            judge.process()
            await b.mark()
            await b.run("location.reload()")
            await b.loaded("sent=")
            await b.run("document.querySelector('#answer').scrollIntoView()")
            (out / "sheet-editor.png").write_bytes(await b.screenshot())
    finally:
        await page.cleanup()
    print("wrote", out / "power-page.png", out / "sheet-editor.png")


if __name__ == "__main__":
    asyncio.run(main())
