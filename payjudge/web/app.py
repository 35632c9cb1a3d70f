"""The status page's HTTP side: three public GET routes, each a read in a worker thread,
and the pages behind a sign-in (`web.signin`).

    /                        the list of games, 50 a page (/?page=2), searched by name or
                             map (?q=), the archive of ended games (?show=ended)
    /game/<name>             a game: its board, phase, deadline, centres, public results
    /game/<name>/<seq>.png   the picture of one of its phases

Off unless `http_listen` (PAYJUDGE_HTTP_LISTEN) is set. It only reads: what it shows is
decided by `game.public`, which shows nothing that is not in public mail already.

It shares the daemon's file descriptors with the SMTP listener, the database and the
outbox, so what clients may hold is bounded: a connection must send a request's head
within `http_header_timeout_seconds` of opening (or of its last answer), and at most
`connection_cap` are open at once; one more is answered 503 and closed at once.
"""

from __future__ import annotations

import asyncio
import logging
import re
import resource
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TypeVar

from aiohttp import web

from ..config import Config
from ..game import public
from ..store import repo
from ..store.db import Database
from ..templating import render_html, templates_dir
from .signin import InboundStore, add_routes

log = logging.getLogger("payjudge.web")
T = TypeVar("T")


def _system_now() -> datetime:
    return datetime.now(UTC)


_NAME = re.compile(r"[A-Za-z0-9_-]{1,32}")
_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": (
        # scripts only from our own files (the live check; never inline), which may only
        # ask this server
        "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; script-src 'self'; "
        "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    ),
}


def make_app(
    db: Database,
    config: Config,
    now: Callable[[], datetime] = _system_now,
    inbound: InboundStore | None = None,
) -> web.Application:
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
        wanted = request.query.get("page", "1")
        number = int(wanted) if wanted.isdigit() and len(wanted) <= 6 else 1
        words = "".join(c for c in request.query.get("q", "")[:32] if c.isalnum() or c in "_-")
        ended = {"ended": True, "running": False}.get(request.query.get("show", ""))
        listing = await read(public.game_list, number, repo.GameSearch(words, ended))
        return page(
            "web/index.html.j2",
            games=listing.games,
            page=listing.page,
            pages=listing.pages,
            q=words,
            show=request.query.get("show", "") if ended is not None else "",
        )

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

    script = (templates_dir() / "web" / "check.js").read_bytes()

    async def check_js(request: web.Request) -> web.Response:
        return web.Response(
            body=script,
            content_type="text/javascript",
            charset="utf-8",
            headers={**_HEADERS, "Cache-Control": "max-age=300"},
        )

    app = web.Application()
    app.router.add_get("/static/check.js", check_js)
    app.router.add_get("/", index)
    app.router.add_get("/game/{name}", game)
    app.router.add_get(r"/game/{name}/{seq:\d{1,9}}.png", picture)
    add_routes(app, db, config, page, now, inbound)
    return app


_BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\nRetry-After: 10\r\n\r\n"
)


def connection_cap(config: Config, descriptor_limit: int | None = None) -> int:
    """How many connections the page may hold: `http_max_connections`, and never more than
    `http_descriptor_percent` of the process's file descriptors (its soft RLIMIT_NOFILE)."""
    if descriptor_limit is None:
        descriptor_limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    share = config.http_max_connections
    if descriptor_limit != resource.RLIM_INFINITY:
        share = min(share, descriptor_limit * config.http_descriptor_percent // 100)
    return max(1, share)


class _Gate:
    def __init__(self, cap: int):
        self.cap, self.open = cap, 0


class _CappedHandler(web.RequestHandler):
    """aiohttp's connection handler, turning a connection away (503) beyond the cap."""

    def __init__(self, manager: web.Server, *, gate: _Gate, **kwargs: Any):
        super().__init__(manager, **kwargs)
        self._gate = gate
        self._counted = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if self._gate.open >= self._gate.cap:
            if isinstance(transport, asyncio.WriteTransport):
                transport.write(_BUSY)
            transport.close()
            return
        self._gate.open += 1
        self._counted = True
        super().connection_made(transport)

    def connection_lost(self, exc: BaseException | None) -> None:
        if not self._counted:
            return
        self._counted = False
        self._gate.open -= 1
        super().connection_lost(exc)


class StatusPage:
    """The running page: its listening socket and aiohttp's runner."""

    def __init__(self, runner: web.AppRunner, server: asyncio.Server):
        self.runner, self.server = runner, server

    async def cleanup(self) -> None:
        self.server.close()
        await self.runner.cleanup()
        await self.server.wait_closed()


async def start_http(
    db: Database,
    config: Config,
    host: str,
    port: int,
    now: Callable[[], datetime] = _system_now,
    inbound: InboundStore | None = None,
) -> tuple[StatusPage, int]:
    """Serve the status page on host:port; returns the page (to clean up) and the port."""
    # aiohttp's keep-alive timer runs from a connection's start and from each answer, and
    # closes a connection that is still waiting for a request's head when it fires (a
    # partly sent head does not restart it): it is the header timeout
    options: dict[str, Any] = {"access_log": None, "keepalive_timeout": config.http_header_timeout_seconds}
    runner = web.AppRunner(make_app(db, config, now, inbound), **options)
    await runner.setup()
    manager = runner.server
    assert manager is not None  # set up above
    gate = _Gate(connection_cap(config))
    loop = asyncio.get_running_loop()
    server = await loop.create_server(
        lambda: _CappedHandler(manager, gate=gate, loop=loop, **options), host, port, backlog=128
    )
    bound = server.sockets[0].getsockname()[1]
    log.info(
        "status page on http://%s:%s/ (%d connections at most, %g s for a request's head)",
        host,
        bound,
        gate.cap,
        config.http_header_timeout_seconds,
    )
    return StatusPage(runner, server), bound
