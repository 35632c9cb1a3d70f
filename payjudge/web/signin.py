"""The pages behind a sign-in (docs/web.md): sign in, a party's own page, sign out.

    GET  /login               the sign-in form (?game=<name> fills the game in)
    POST /login               game, who, password: a session, then the party's page
    GET  /game/<name>/mine/<seq>.png   a BLIND game's phase as the party saw it
    GET  /game/<name>/mine    the signed-in party's page of that game (?sent=<nonce>: with
                              the reply to the message a form sent)
    POST /game/<name>/send    the form's text, sent as the party's message (game/websend.py)
    POST /game/<name>/check   the live check: what the judge would answer to the form's text,
                              as JSON, changing nothing (game/webcheck.py)
    POST /game/<name>/receipt   the receipt flag: the reply to the page's messages mailed too, or not
    POST /game/<name>/calendar  a new link to the party's calendar feed, or none (stop)
    GET  /calendar/<token>.ics  the feed: the game's deadline, with a reminder
    POST /logout              ends the session

The session's token travels in an HttpOnly, SameSite=Strict cookie (Secure when the
configured base URL is https); every form carries a CSRF token (the sign-in form one of
its own, in a cookie beside it, since there is no session yet), and a form without the
right token is refused with 403. What a page shows is decided by `game.private`.
"""

from __future__ import annotations

import asyncio
import hmac
import secrets
from collections.abc import Callable
from datetime import datetime
from typing import Any, Protocol, TypeVar

from aiohttp import web

from ..config import Config
from ..game import webcalendar, webcheck, webreceipt, websend, websession
from ..game.private import own_picture, private_page
from ..store.db import Database
from ..store.mailbox import SqlInbound

T = TypeVar("T")
SESSION_COOKIE = "pj_session"
LOGIN_COOKIE = "pj_login"
Render = Callable[..., web.Response]


def _same(a: str | None, b: str | None) -> bool:
    return bool(a) and bool(b) and hmac.compare_digest(str(a), str(b))


# what only the signed-in party may see: no cache (a shared proxy's least of all) keeps it
_PRIVATE = {"Cache-Control": "private, no-store", "X-Content-Type-Options": "nosniff"}


class InboundStore(Protocol):
    """Where a form's message is stored: the daemon's inbound store (the same as the SMTP
    listener's), or `SqlInbound` (`ports.InboundStore`, by shape: web/ sits beside the
    daemon, not above it)."""

    def store_inbound(
        self, raw: bytes, *, source: str, source_key: str | None, envelope_from: str | None
    ) -> Any: ...


class _DryRun(Exception):
    """Carries a read's answer out of its transaction, which it rolls back on the way."""

    def __init__(self, value: Any):
        super().__init__()
        self.value = value


class _Clock:
    def __init__(self, now: Callable[[], datetime]):
        self.now = now


def _see(location: str) -> web.Response:
    return web.Response(status=303, headers={"Location": location})


def add_routes(
    app: web.Application,
    db: Database,
    config: Config,
    page: Render,
    now: Callable[[], datetime],
    inbound: InboundStore | None = None,
) -> None:
    """The routes behind a sign-in. A form's message is stored through `inbound` (the
    daemon's, which wakes its processor; the page then waits up to 20 s for the reply),
    or, without one, straight into the store, to be processed later."""
    store = (inbound or SqlInbound(db, _Clock(now))).store_inbound
    wait_tenths = 200 if inbound is not None else 0
    secure = config.base_url.lower().startswith("https://")

    def cookie(response: web.StreamResponse, name: str, value: str, max_age: int | None = None) -> None:
        response.set_cookie(
            name, value, httponly=True, samesite="Strict", secure=secure, path="/", max_age=max_age
        )

    async def reading(fn: Callable[..., T], *args) -> T:
        def work() -> T:
            with db.reading() as s:
                return fn(s, config, *args)

        return await asyncio.to_thread(work)

    async def writing(fn: Callable[..., T], *args, **kwargs) -> T:
        def work() -> T:
            with db.transaction() as s:
                return fn(s, *args, **kwargs)

        return await asyncio.to_thread(work)

    async def dry_run(fn: Callable[..., T], *args) -> T:
        """`fn` in a transaction that is rolled back, whatever it did."""

        def work() -> T:
            try:
                with db.reading() as s:
                    raise _DryRun(fn(s, config, *args))
            except _DryRun as done:
                return done.value

        return await asyncio.to_thread(work)

    def login_form(game: str, error: str | None = None, status: int = 200) -> web.Response:
        token = secrets.token_urlsafe(24)
        response = page("web/login.html.j2", status=status, game_name=game, csrf=token, error=error)
        cookie(response, LOGIN_COOKIE, token, max_age=3600)
        return response

    async def login_get(request: web.Request) -> web.Response:
        return login_form(request.query.get("game", "")[:32])

    async def login_post(request: web.Request) -> web.Response:
        form = await request.post()
        game, who = str(form.get("game", ""))[:32], str(form.get("who", ""))[:32]
        password = str(form.get("password", ""))[:200]
        if not _same(str(form.get("csrf", "")), request.cookies.get(LOGIN_COOKIE)):
            return login_form(game, "The form had expired: please sign in again.", status=403)
        outcome = await writing(websession.sign_in, config, game, who.strip(), password, now=now())
        if isinstance(outcome, websession.Refused):
            return login_form(game, outcome.reason, status=401)
        response = _see(f"/game/{outcome.party.game}/mine")
        cookie(response, SESSION_COOKIE, outcome.token)
        response.del_cookie(LOGIN_COOKIE, path="/")
        return response

    async def session_of(request: web.Request) -> websession.Current | None:
        token = request.cookies.get(SESSION_COOKIE, "")
        if not token:
            return None
        return await reading(_current, token)

    def _current(s, config: Config, token: str) -> websession.Current | None:
        return websession.current(s, config, token, now=now())

    async def mine(request: web.Request, feed_url: str | None = None) -> web.Response:
        name = request.match_info["name"]
        current = await session_of(request)
        if current is None or current.party.game != name:
            # a session is bound to one game: another game's page asks for a sign-in
            return _see(f"/login?game={name}")
        view = await reading(private_page, current.party)
        if view is None:
            return _see("/")
        sent = request.query.get("sent", "")
        answer = await reading(websend.answer, current, sent) if websend.NONCE.fullmatch(sent) else None
        response = page(
            "web/mine.html.j2",
            view=view,
            csrf=current.csrf,
            nonce=secrets.token_urlsafe(18),
            answer=answer,
            limit=config.max_message_bytes // 2,
            feed_url=feed_url,
            has_feed=await reading(_has_feed, current),
        )
        response.headers.update(_PRIVATE)
        return response

    async def calendar_link(request: web.Request) -> web.Response:
        """A new calendar link (shown on this answer only, never again) or none."""
        name = request.match_info["name"]
        current = await session_of(request)
        if current is None or current.party.game != name:
            return _see(f"/login?game={name}")
        form = await request.post()
        if not _same(str(form.get("csrf", "")), current.csrf):
            return page("web/missing.html.j2", status=403, what="a form without its token")
        if form.get("stop"):
            await writing(webcalendar.stop_feed, current, now=now())
            return _see(f"/game/{name}/mine#calendar")
        token = await writing(webcalendar.new_feed, current, now=now())
        return await mine(request, feed_url=f"{config.base_url.rstrip('/')}/calendar/{token}.ics")

    async def calendar_ics(request: web.Request) -> web.Response:
        text = await reading(_feed, request.match_info["token"])
        if text is None:
            return page("web/missing.html.j2", status=404, what="no such calendar")
        return web.Response(text=text, content_type="text/calendar", charset="utf-8", headers=_PRIVATE)

    def _feed(s, config: Config, token: str) -> str | None:
        return webcalendar.feed(s, config, token, now=now())

    async def own_png(request: web.Request) -> web.Response:
        name, seq = request.match_info["name"], int(request.match_info["seq"])
        current = await session_of(request)
        if current is None or current.party.game != name:
            return _see(f"/login?game={name}")
        data = await reading(own_picture, current.party, seq)
        if data is None:
            return page("web/missing.html.j2", status=404, what=f"no picture {seq} of {name} for you")
        # private: no shared cache may keep it
        return web.Response(
            body=data, content_type="image/png", headers={"Cache-Control": "private, no-store"}
        )

    def _has_feed(s, config: Config, current: websession.Current) -> bool:
        return webcalendar.has_feed(s, current)

    async def send(request: web.Request) -> web.Response:
        """The form's text, sent as the party's message (game/websend.py); then the page
        with the reply, once the processor has answered (or, in a busy moment, without)."""
        name = request.match_info["name"]
        current = await session_of(request)
        if current is None or current.party.game != name:
            return _see(f"/login?game={name}")
        form = await request.post()
        if not _same(str(form.get("csrf", "")), current.csrf):
            return page("web/missing.html.j2", status=403, what="a form without its token")
        nonce, text = str(form.get("nonce", "")), str(form.get("text", ""))
        if not websend.NONCE.fullmatch(nonce) or len(text.encode()) > config.max_message_bytes // 2:
            return page("web/missing.html.j2", status=400, what="a form this page did not make")
        address = await reading(websend.address_of, current)
        if address is None:
            return _see(f"/login?game={name}")
        raw = websend.compose(config, current, address, text, nonce, now())
        key = websend.source_key(current, nonce)
        await asyncio.to_thread(store, raw, source=websend.SOURCE, source_key=key, envelope_from=address)
        for _ in range(wait_tenths):  # the daemon's processor answers in a moment
            answer = await reading(websend.answer, current, nonce)
            if answer.reply is not None:
                break
            await asyncio.sleep(0.1)
        return _see(f"/game/{name}/mine?sent={nonce}#answer")

    async def receipt(request: web.Request) -> web.Response:
        """The party turns the mailed receipt of its page's messages on or off."""
        name = request.match_info["name"]
        current = await session_of(request)
        if current is None or current.party.game != name:
            return _see(f"/login?game={name}")
        form = await request.post()
        if not _same(str(form.get("csrf", "")), current.csrf):
            return page("web/missing.html.j2", status=403, what="a form without its token")
        await writing(webreceipt.choose, current, form.get("on") == "1")
        return _see(f"/game/{name}/mine#receipt")

    async def live_check(request: web.Request) -> web.Response:
        """What the judge would answer to the form's text, as JSON (the page's script asks
        as the player types); nothing is stored or changed."""
        name = request.match_info["name"]
        current = await session_of(request)
        if current is None or current.party.game != name:
            return web.json_response({"error": "not signed in"}, status=401, headers=_PRIVATE)
        form = await request.post()
        if not _same(str(form.get("csrf", "")), current.csrf):
            return web.json_response({"error": "no token"}, status=403, headers=_PRIVATE)
        text = str(form.get("text", ""))
        if len(text.encode()) > config.max_message_bytes // 2:
            return web.json_response({"error": "too long"}, status=413, headers=_PRIVATE)
        address = await reading(websend.address_of, current)
        if address is None:
            return web.json_response({"error": "not signed in"}, status=401, headers=_PRIVATE)
        found = await dry_run(webcheck.live_check, current, address, text, now())
        return web.json_response(found.as_json(), headers=_PRIVATE)

    async def logout(request: web.Request) -> web.Response:
        form = await request.post()
        current = await session_of(request)
        if current is None:
            return _see("/")
        if not _same(str(form.get("csrf", "")), current.csrf):
            return page("web/missing.html.j2", status=403, what="a form without its token")
        await writing(websession.sign_out, request.cookies.get(SESSION_COOKIE, ""), now=now())
        response = _see("/")
        response.del_cookie(SESSION_COOKIE, path="/")
        return response

    app.router.add_get("/login", login_get)
    app.router.add_post("/login", login_post)
    app.router.add_get(r"/game/{name:[A-Za-z0-9_-]{1,32}}/mine", mine)
    app.router.add_post(r"/game/{name:[A-Za-z0-9_-]{1,32}}/send", send)
    app.router.add_post(r"/game/{name:[A-Za-z0-9_-]{1,32}}/receipt", receipt)
    app.router.add_post(r"/game/{name:[A-Za-z0-9_-]{1,32}}/check", live_check)
    app.router.add_post(r"/game/{name:[A-Za-z0-9_-]{1,32}}/calendar", calendar_link)
    app.router.add_get(r"/calendar/{token:[A-Za-z0-9_-]{1,64}}.ics", calendar_ics)
    app.router.add_get(r"/game/{name:[A-Za-z0-9_-]{1,32}}/mine/{seq:\d{1,9}}.png", own_png)
    app.router.add_post("/logout", logout)
