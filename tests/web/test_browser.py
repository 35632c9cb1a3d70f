"""The status page in a real browser (issue 13 item 5): headless Chromium loads a running
game's page, served by a real daemon on 127.0.0.1, and its screenshot shows the map: the
sea, the land and France's colour, not a blank page or a broken image."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import threading
from dataclasses import replace

import pytest

from payjudge.daemon import Daemon
from tests.daemon.harness import wait_until
from tests.pngread import colour_counts, near, read_png

from .games import play

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = [
    pytest.mark.timeout(240),
    pytest.mark.skipif(CHROMIUM is None, reason="no Chromium: apt-get install chromium"),
]


def _screenshot(url: str, out, profile) -> bytes:
    done = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--hide-scrollbars",
            f"--user-data-dir={profile}",
            f"--screenshot={out}",
            "--window-size=900,1300",
            "--virtual-time-budget=10000",
            url,
        ],
        capture_output=True,
        timeout=120,
    )
    assert out.is_file(), done.stderr.decode(errors="replace")[-2000:]
    return out.read_bytes()


def test_a_running_game_in_headless_chromium(tmp_path):
    url, judge = play(tmp_path)
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
        port = wait_until(lambda: daemon.http_port, 60, "the status page to listen")
        shot = _screenshot(f"http://127.0.0.1:{port}/game/pay7", tmp_path / "page.png", tmp_path / "profile")
        width, height, _ = read_png(shot)
        assert (width, height) == (900, 1300)
        colours = colour_counts(shot, step=3)
        total = sum(colours.values())

        def share(hex_colour: str, tol: int = 10) -> float:
            return sum(n for c, n in colours.items() if near(c, hex_colour, tol)) / total

        assert share("#b7d3ec") > 0.08  # the sea of the board picture
        assert share("#f1e9d2") > 0.05  # neutral land
        assert share("#3aa0e6", 20) > 0.0001  # France's units and centres (about 50 pixels sampled)
        # and the list of games
        listing = _screenshot(f"http://127.0.0.1:{port}/", tmp_path / "list.png", tmp_path / "profile")
        assert read_png(listing)[:2] == (900, 1300)
    finally:
        loop.call_soon_threadsafe(stop.set)
        thread.join(60)
