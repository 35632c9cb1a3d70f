"""Signing in on the web pages (issue 29 item 1), over real HTTP against the page a daemon
serves: the game's own credentials, the cookie's flags, a session bound to one game and one
party, CSRF tokens on every form, password guessing throttled together with mail, a
password changed by mail ending the session, and a power's page showing its own papers and
nobody else's."""

from __future__ import annotations

import logging
import re
from dataclasses import replace

import aiohttp
import pytest
from yarl import URL

from payjudge.web.app import start_http

from .games import GM, addr, play

pytestmark = pytest.mark.timeout(180)


async def _serve(tmp_path, **settings):
    url, judge = play(tmp_path)
    judge.send(
        addr("FRANCE"), "SIGNON Fpay7 pw-france\n% fall-secret-of-FRANCE\n7 : A BUR - MUN\nACCEPT FGE?\n"
    )
    judge.send(addr("GERMANY"), "SIGNON Gpay7 pw-germany\n% fall-secret-of-GERMANY\n6 : A MUN H\n")
    judge.config = replace(judge.config, **settings)  # the mail side's settings too
    config = replace(judge.config, db_url=url)
    page, port = await start_http(judge.db, config, "127.0.0.1", 0, now=judge.clock.now)
    return page, f"http://127.0.0.1:{port}", judge


def _client() -> aiohttp.ClientSession:
    # the default jar keeps no cookie of a bare IP address
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))


async def _sign_in(http: aiohttp.ClientSession, base: str, game: str, who: str, password: str):
    async with http.get(f"{base}/login?game={game}") as r:
        form = await r.text()
    token = re.search(r'name="csrf" value="([^"]+)"', form)
    assert token is not None, form
    data = {"csrf": token.group(1), "game": game, "who": who, "password": password}
    async with http.post(f"{base}/login", data=data, allow_redirects=False) as r:
        return r.status, r.headers.get("Location"), r.headers.getall("Set-Cookie", []), await r.text()


async def _get(http: aiohttp.ClientSession, url: str) -> tuple[int, str, str | None]:
    async with http.get(url, allow_redirects=False) as r:
        return r.status, await r.text(), r.headers.get("Location")


async def test_a_power_signs_in_sees_its_own_papers_and_nobody_elses(tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    page, base, _ = await _serve(tmp_path)
    try:
        async with _client() as http:
            status, where, cookies, _ = await _sign_in(http, base, "pay7", "F", "pw-france")
            assert (status, where) == (303, "/game/pay7/mine")
            session = next(c for c in cookies if c.startswith("pj_session="))
            assert "HttpOnly" in session and "SameSite=Strict" in session and "Secure" not in session
            status, mine, _ = await _get(http, f"{base}/game/pay7/mine")
            assert status == 200
            assert '<strong id="party">FRANCE</strong>' in mine
            assert "fall-secret-of-FRANCE" in mine and "A BUR - MUN" in mine
            assert "Balance:" in mine and 'id="desk-FRANCE"' in mine
            # nothing of Germany's: not its sheet, its comment, its desk, its address
            assert "fall-secret-of-GERMANY" not in mine and "secret-of-GERMANY" not in mine
            assert "desk-GERMANY" not in mine and "@pj.test" not in mine
            # no query string turns France's page into another's
            for url in ("/game/pay7/mine?power=GERMANY", "/game/pay7/mine?who=G", "/game/PAY7/mine"):
                status, other, where = await _get(http, base + url)
                assert "secret-of-GERMANY" not in other and "desk-GERMANY" not in other
            # the session is bound to pay7: done7's page asks for a sign-in
            status, _, where = await _get(http, f"{base}/game/done7/mine")
            assert (status, where) == (303, "/login?game=done7")
        # and a browser without the cookie sees nothing private
        async with _client() as stranger:
            status, _, where = await _get(stranger, f"{base}/game/pay7/mine")
            assert (status, where) == (303, "/login?game=pay7")
        logged = "\n".join(r.getMessage() for r in caplog.records)
        assert "pw-france" not in logged
    finally:
        await page.cleanup()


async def test_the_master_sees_every_desk(tmp_path):
    page, base, _ = await _serve(tmp_path)
    try:
        async with _client() as http:
            status, where, _, _ = await _sign_in(http, base, "pay7", "M", "masterpw")
            assert (status, where) == (303, "/game/pay7/mine")
            _, mine, _ = await _get(http, f"{base}/game/pay7/mine")
            assert "desk-FRANCE" in mine and "desk-GERMANY" in mine and "desk-TURKEY" in mine
            assert "fall-secret-of-GERMANY" in mine and "fall-secret-of-FRANCE" in mine
    finally:
        await page.cleanup()


async def test_forms_without_their_token_are_refused_and_sign_out_ends_the_session(tmp_path):
    page, base, _ = await _serve(tmp_path)
    try:
        async with _client() as http:
            # a sign-in posted from elsewhere (no token, or a token without its cookie)
            data = {"game": "pay7", "who": "F", "password": "pw-france"}
            async with http.post(f"{base}/login", data=data, allow_redirects=False) as r:
                assert r.status == 403 and "pj_session" not in r.cookies
            async with http.post(
                f"{base}/login", data={**data, "csrf": "forged"}, allow_redirects=False
            ) as r:
                assert r.status == 403
            status, _, _, _ = await _sign_in(http, base, "pay7", "F", "pw-france")
            assert status == 303
            _, mine, _ = await _get(http, f"{base}/game/pay7/mine")
            csrf = re.search(r'name="csrf" value="([^"]+)"', mine)
            assert csrf is not None
            async with http.post(f"{base}/logout", data={}, allow_redirects=False) as r:
                assert r.status == 403
            assert (await _get(http, f"{base}/game/pay7/mine"))[0] == 200  # still signed in
            old = http.cookie_jar.filter_cookies(URL(base))["pj_session"].value
            async with http.post(f"{base}/logout", data={"csrf": csrf.group(1)}, allow_redirects=False) as r:
                assert r.status == 303
            assert (await _get(http, f"{base}/game/pay7/mine"))[0] == 303
        # the old token is dead on the server, not only forgotten by the browser
        async with _client() as thief:
            thief.cookie_jar.update_cookies({"pj_session": old})
            assert (await _get(thief, f"{base}/game/pay7/mine"))[0] == 303
    finally:
        await page.cleanup()


async def test_guessing_is_throttled_together_with_mail(tmp_path):
    page, base, judge = await _serve(tmp_path, signon_failure_limit=4)
    try:
        async with _client() as http:
            for _ in range(2):  # two wrong passwords by the web …
                status, _, _, body = await _sign_in(http, base, "pay7", "F", "wrong-guess")
                assert status == 401 and "invalid power or password for pay7" in body
                assert "wrong-guess" not in body
            for _ in range(2):  # … and two by mail, from an address not France's
                judge.send("guesser@elsewhere.test", "SIGNON Fpay7 wrong-again\nSTATUS\n")
            # the lock is engaged for both: the right password is refused on the web …
            status, _, _, body = await _sign_in(http, base, "pay7", "F", "pw-france")
            assert status == 401 and "too many failed sign-ons as FRANCE in pay7" in body
            # … and by mail from a stranger's address
            judge.send("guesser@elsewhere.test", "SIGNON Fpay7 pw-france\nSTATUS\n")
            assert "too many failed sign-ons" in judge.last_reply("guesser@elsewhere.test")
            # France, writing from its own address, is not locked out by strangers
            judge.send(addr("FRANCE"), "SIGNON Fpay7 pw-france\nSTATUS\n")
            assert "too many failed" not in judge.last_reply(addr("FRANCE"))
            # the lock ends with the window
            judge.clock.advance(minutes=61)
            assert (await _sign_in(http, base, "pay7", "F", "pw-france"))[0] == 303
    finally:
        await page.cleanup()


async def test_a_password_changed_by_mail_ends_the_session(tmp_path):
    page, base, judge = await _serve(tmp_path)
    try:
        async with _client() as http:
            assert (await _sign_in(http, base, "pay7", "F", "pw-france"))[0] == 303
            assert (await _get(http, f"{base}/game/pay7/mine"))[0] == 200
            judge.send(addr("FRANCE"), "SIGNON Fpay7 pw-france\nSET PASSWORD new-france-pw\n")
            assert (await _get(http, f"{base}/game/pay7/mine"))[0] == 303
            assert (await _sign_in(http, base, "pay7", "F", "new-france-pw"))[0] == 303
    finally:
        await page.cleanup()


async def test_the_cookie_is_secure_behind_https(tmp_path):
    page, base, _ = await _serve(tmp_path, base_url="https://judge.example.org")
    try:
        # a browser sends a Secure cookie back only over https: here, by hand
        async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as http:
            async with http.get(f"{base}/login") as r:
                form_cookie = r.headers["Set-Cookie"]
                token = re.search(r'name="csrf" value="([^"]+)"', await r.text())
            assert token is not None and "Secure" in form_cookie
            data = {"csrf": token.group(1), "game": "pay7", "who": "F", "password": "pw-france"}
            headers = {"Cookie": f"pj_login={token.group(1)}"}
            async with http.post(f"{base}/login", data=data, headers=headers, allow_redirects=False) as r:
                assert r.status == 303
                session = next(c for c in r.headers.getall("Set-Cookie") if c.startswith("pj_session="))
            assert "Secure" in session and "HttpOnly" in session and "SameSite=Strict" in session
    finally:
        await page.cleanup()


async def test_unknown_parties_and_the_master_of_another_game(tmp_path):
    page, base, _ = await _serve(tmp_path)
    try:
        async with _client() as http:
            for game, who, password in (
                ("pay7", "X", "pw-france"),
                ("nosuch", "F", "pw-france"),
                ("done7", "M", "wrong"),
                ("pay7", "", "pw-france"),
            ):
                status, _, _, body = await _sign_in(http, base, game, who, password)
                assert status == 401 and "invalid power or password" in body
            assert GM not in body
    finally:
        await page.cleanup()


async def test_a_blind_power_sees_only_its_share(tmp_path):
    """BLIND (rule 6.3): no public picture; each power's page shows the last phase as its
    results mail showed it, drawn from what it saw; the Master's shows the whole board."""
    from tests.pngread import read_png

    from .games import POWERS

    _, judge = play(tmp_path)
    judge.send(GM, "CREATE bl7 masterpw\nRULE POWER_CHOICE BLIND\nTIMING MOVE 2D\nSIGNOFF\n")
    for p in POWERS:
        judge.send(addr(p, "bl7"), f"JOIN {p.lower()}@bl7 pw-{p.lower()}\n")
    judge.send(addr("FRANCE", "bl7"), "SIGNON Fbl7 pw-france\n9 : A PAR - BUR\n")
    judge.send(addr("RUSSIA", "bl7"), "SIGNON Rbl7 pw-russia\n9 : A MOS - UKR\n")
    judge.send(GM, "SIGNON Mbl7 masterpw\nPROCESS!\n")
    page, port = await start_http(judge.db, judge.config, "127.0.0.1", 0, now=judge.clock.now)
    base = f"http://127.0.0.1:{port}"
    try:
        shots = {}
        for who, password in (("F", "pw-france"), ("R", "pw-russia"), ("M", "masterpw")):
            async with _client() as http:
                assert (await _sign_in(http, base, "bl7", who, password))[0] == 303
                _, mine, _ = await _get(http, f"{base}/game/bl7/mine")
                src = re.search(r'src="(/game/bl7/mine/\d+\.png)"', mine)
                assert src is not None, mine
                async with http.get(base + src.group(1)) as r:
                    assert r.status == 200 and r.headers["Cache-Control"] == "private, no-store"
                    shots[who] = await r.read()
                assert read_png(shots[who])[0] > 0
                # the public picture of a BLIND game does not exist
                assert (await _get(http, base + src.group(1).replace("/mine", "")))[0] == 404
        assert len({shots["F"], shots["R"], shots["M"]}) == 3
        async with _client() as stranger:
            assert (await _get(stranger, f"{base}/game/bl7/mine/1.png"))[0] == 303
    finally:
        await page.cleanup()
