"""The status page of an Exchange game (issue 26: HTTP 500 from the first exchange phase
on): each exchange phase's public results beside the Diplomacy phases', nothing private."""

from __future__ import annotations

from dataclasses import replace

import aiohttp
import pytest

from payjudge.store.db import Database
from payjudge.web.app import start_http
from tests.dbfix import migrated_sqlite
from tests.service.judge import TestJudge
from tests.service.test_exchange_history import play_the_float

pytestmark = pytest.mark.timeout(180)


async def test_an_exchange_game_has_its_page(tmp_path):
    url = migrated_sqlite(tmp_path / "judge.sqlite")
    judge = TestJudge(Database(url))
    judge.config = replace(judge.config, data_dir=tmp_path)
    play_the_float(judge)
    runner, port = await start_http(judge.db, replace(judge.config, db_url=url), "127.0.0.1", 0)
    try:
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{port}/game/ex1") as r:
                page = await r.text()
                assert r.status == 200, page
            assert "Exchange results, Winter 1900 Exchange" in page
            assert "price 2 AgP a share, 10 shares traded" in page
            assert "CEO for the coming year: ALICE (new)" in page
            for secret in ("@ALICE", "pj.test", "pw-", "70 AgP"):
                assert secret not in page, secret
            async with http.get(f"http://127.0.0.1:{port}/game/ex1/1.png") as r:
                assert r.status == 200 and r.headers["Content-Type"] == "image/png"
    finally:
        await runner.cleanup()
