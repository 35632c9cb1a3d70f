"""What the status page lets a client hold (issue 26): a request's head must arrive within
`http_header_timeout_seconds`, at most `http_max_connections` are open at once (fewer when
that would take more than `http_descriptor_percent` of the daemon's file descriptors), and
one more is answered 503 and closed at once. Real sockets on loopback, bounded waits."""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace

import pytest

from payjudge.config import Config
from payjudge.store.db import Database
from payjudge.web.app import connection_cap, start_http
from tests.dbfix import migrated_sqlite

pytestmark = pytest.mark.timeout(120)


async def _serve(tmp_path, **settings):
    url = migrated_sqlite(tmp_path / "judge.sqlite")
    config = replace(Config(judge_address="judge@pj.test", data_dir=tmp_path, db_url=url), **settings)
    page, port = await start_http(Database(url), config, "127.0.0.1", 0)
    return page, port


async def _half_sent(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET / HTTP/1.1\r\nHost: judge\r\nX-Slow: ")  # and never the blank line
    await writer.drain()
    return reader, writer


async def _get(port: int) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET / HTTP/1.1\r\nHost: judge\r\nConnection: close\r\n\r\n")
    answer = await asyncio.wait_for(reader.read(), 20)
    writer.close()
    return answer


async def test_a_half_sent_request_is_closed_after_the_header_timeout(tmp_path):
    page, port = await _serve(tmp_path, http_header_timeout_seconds=1)
    try:
        reader, writer = await _half_sent(port)
        assert await asyncio.wait_for(reader.read(), 30) == b""  # closed, not held
        writer.close()
    finally:
        await page.cleanup()


async def test_a_head_sent_a_byte_at_a_time_is_closed_too(tmp_path):
    page, port = await _serve(tmp_path, http_header_timeout_seconds=1)
    try:
        reader, writer = await _half_sent(port)
        closed = False
        for _ in range(150):  # 30 s of trickling at most
            try:
                writer.write(b"x")
                await writer.drain()
                closed = await asyncio.wait_for(reader.read(1), 0.2) == b""
            except TimeoutError:
                continue
            except ConnectionError:
                closed = True
            if closed:
                break
        writer.close()
        assert closed
    finally:
        await page.cleanup()


async def test_connections_beyond_the_cap_are_refused_and_the_page_serves_again_once_they_go(tmp_path):
    page, port = await _serve(tmp_path, http_header_timeout_seconds=2, http_max_connections=3)
    try:
        held = [await _half_sent(port) for _ in range(3)]
        refused = await _get(port)
        assert refused.startswith(b"HTTP/1.1 503"), refused[:80]
        for reader, _ in held:  # the header timeout frees the slots
            assert await asyncio.wait_for(reader.read(), 30) == b""
        answer = await _get(port)
        assert answer.startswith(b"HTTP/1.1 200") and b"No games yet" in answer
        for _, writer in held:
            writer.close()
    finally:
        await page.cleanup()


def test_the_cap_keeps_to_the_pages_share_of_descriptors():
    config = Config(http_max_connections=500, http_descriptor_percent=25)
    assert connection_cap(config, descriptor_limit=1024) == 256
    assert connection_cap(config, descriptor_limit=100_000) == 500
    assert connection_cap(config, descriptor_limit=2) == 1


async def test_the_list_of_games_comes_in_pages(tmp_path):
    # issue 26: 2,000 forged CREATEs made one page of every game
    from tests.service.judge import TestJudge

    page, port = await _serve(tmp_path)
    judge = TestJudge(Database(f"sqlite:///{tmp_path / 'judge.sqlite'}"))
    for i in range(51):
        await asyncio.to_thread(judge.send, f"gm{i}@pj.test", f"CREATE g{i:03d} masterpw\nSIGNOFF\n")
    try:

        async def names(query: str) -> tuple[list[str], bytes]:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(f"GET /{query} HTTP/1.1\r\nHost: judge\r\nConnection: close\r\n\r\n".encode())
            answer = await asyncio.wait_for(reader.read(), 20)
            writer.close()
            assert answer.startswith(b"HTTP/1.1 200"), answer[:80]
            return re.findall(r'<a href="/game/(g\d+)">', answer.decode()), answer

        first, body = await names("")
        assert first == [f"g{i:03d}" for i in range(50)]
        assert b'href="/?page=2"' in body
        second, body = await names("?page=2")
        assert second == ["g050"] and b'href="/?page=1"' in body
        assert (await names("?page=99"))[0] == ["g050"]  # past the end: the last page
        assert (await names("?page=x"))[0] == first
    finally:
        await page.cleanup()
