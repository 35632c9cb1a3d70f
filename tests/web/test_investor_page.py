"""Exchange investors sign in on the web (docs/web.md) as by mail, `<name>` in the game,
and see their account and holdings, and their companies' papers while they are CEO;
writing from the page signs on as `SIGNON <name>@<game>` does."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from payjudge.store.db import Database, upgrade
from payjudge.web.app import start_http
from tests.service.judge import TestJudge
from tests.service.test_exchange_history import play_the_float
from tests.service.test_exchange_setup import addr

from .test_signin import _client, _get, _sign_in

pytestmark = pytest.mark.timeout(180)


async def test_an_investor_signs_in_and_reads_its_account_holdings_and_company(tmp_path):
    url = f"sqlite:///{tmp_path / 'judge.sqlite'}"
    upgrade(url)
    judge = TestJudge(Database(url))
    judge.config = replace(judge.config, data_dir=tmp_path)
    play_the_float(judge)
    page, port = await start_http(
        judge.db, replace(judge.config, db_url=url), "127.0.0.1", 0, now=judge.clock.now
    )
    base = f"http://127.0.0.1:{port}"
    try:
        async with _client() as alice, _client() as bob, _client() as company:
            status, where, _, _ = await _sign_in(alice, base, "ex1", "alice", "pw-alice")
            assert (status, where) == (303, "/game/ex1/mine")
            _, mine, _ = await _get(alice, f"{base}/game/ex1/mine")
            assert 'Signed in as <strong id="party">ALICE</strong>' in mine
            assert 'id="desk-@ALICE"' in mine and 'id="desk-FRANCE"' in mine  # its account; its company
            assert 'id="desk-ITALY"' not in mine and "@BOB" not in mine and "desk-@BOB" not in mine
            holdings = re.search(r'<span class="holdings">(.*?)</span>', mine)
            assert holdings is not None and "FRANCE" in holdings.group(1)
            # a company has no seat: its CEO signs in as itself
            assert (await _sign_in(company, base, "ex1", "FRANCE", "pw-alice"))[0] == 401
            assert (await _sign_in(bob, base, "ex1", "bob", "wrong-pw"))[0] == 401
            assert (await _sign_in(bob, base, "ex1", "bob", "pw-bob"))[0] == 303
            _, theirs, _ = await _get(bob, f"{base}/game/ex1/mine")
            assert 'id="desk-@BOB"' in theirs and 'id="desk-FRANCE"' not in theirs
            # writing from the page is Alice's message, signed on as by mail
            fields = dict(re.findall(r'<input type="hidden" name="(csrf|nonce)" value="([^"]+)">', mine))
            data = {**fields, "text": "FOR FRANCE\n2 : A PAR - BUR"}
            async with alice.post(f"{base}/game/ex1/send", data=data, allow_redirects=False) as r:
                assert r.status == 303
            judge.process()
            reply = judge.last_reply(addr("ALICE"))
            assert "ERRORS" not in reply and "A PAR - BUR" in reply, reply
    finally:
        await page.cleanup()
