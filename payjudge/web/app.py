"""The status page's HTTP side: three GET routes, each a read in a worker thread.

    /                        the list of games
    /game/<name>             a game: its board, phase, deadline, centres, public results
    /game/<name>/<seq>.png   the picture of one of its phases

Off unless `http_listen` (PAYJUDGE_HTTP_LISTEN) is set. It only reads: what it shows is
decided by `game.public`, which shows nothing that is not in public mail already.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from typing import TypeVar

from aiohttp import web

from ..config import Config
from ..game import public
from ..store.db import Database
from ..templating import render_html

log = logging.getLogger("payjudge.web")
T = TypeVar("T")
_NAME = re.compile(r"[A-Za-z0-9_-]{1,32}")
_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'",
}


def make_app(db: Database, config: Config) -> web.Application:
    async def read(fn: Callable[..., T], *args) -> T:
        def work() -> T:
            with db.reading() as s:
                return fn(s, config, *args)

        return await asyncio.to_thread(work)

    def page(template: str, status: int = 200, **view) -> web.Response:
        return web.Response(
            text=render_html(template, judge=config.judge_name, **view),
            content_type="text/html",
            charset="utf-8",
            status=status,
            headers=_HEADERS,
        )

    def missing(what: str) -> web.Response:
        return page("web/missing.html.j2", status=404, what=what)

    async def index(request: web.Request) -> web.Response:
        return page("web/index.html.j2", games=await read(public.game_list))

    async def game(request: web.Request) -> web.Response:
        name = request.match_info["name"]
        view = await read(public.game_page, name) if _NAME.fullmatch(name) else None
        if view is None:
            return missing(f"no game {name}")
        return page("web/game.html.j2", game=view)

    async def picture(request: web.Request) -> web.Response:
        name, seq = request.match_info["name"], int(request.match_info["seq"])
        data = await read(public.picture, name, seq) if _NAME.fullmatch(name) else None
        if data is None:
            return missing(f"no picture {seq} of {name}")
        return web.Response(
            body=data, content_type="image/png", headers={**_HEADERS, "Cache-Control": "max-age=60"}
        )

    app = web.Application()
    app.router.add_get("/", index)
    app.router.add_get("/game/{name}", game)
    app.router.add_get(r"/game/{name}/{seq:\d{1,9}}.png", picture)
    return app


async def start_http(db: Database, config: Config, host: str, port: int) -> tuple[web.AppRunner, int]:
    """Serve the status page on host:port; returns the runner (to clean up) and the port."""
    runner = web.AppRunner(make_app(db, config), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    bound = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    log.info("status page on http://%s:%s/", host, bound)
    return runner, bound
