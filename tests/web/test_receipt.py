"""The receipt flag (docs/web.md): the reply to a message sent from the page is mailed too
unless the party turns that off on its page; then it is written to the outbox as KEPT,
shown on the page and never sent. Under ALWAYS_CONFIRM it is always mailed, and the
Master copied."""

from __future__ import annotations

import re
from datetime import timedelta

import aiohttp
import pytest
from sqlalchemy import select

from payjudge.store.mailbox import SqlOutbox
from payjudge.store.models import Game, OutboxMail
from payjudge.vocabulary import MailKind, OutboxState

from .games import GM, addr
from .test_send import _form, _send, _serve
from .test_signin import _client, _get, _sign_in

pytestmark = pytest.mark.timeout(180)


async def _choose(http: aiohttp.ClientSession, base: str, data: dict[str, str]) -> int:
    async with http.post(f"{base}/game/pay7/receipt", data=data, allow_redirects=False) as r:
        return r.status


def _replies(judge, address: str) -> list[OutboxState]:
    with judge.db.reading() as s:
        rows = s.scalars(select(OutboxMail).where(OutboxMail.kind == MailKind.REPLY).order_by(OutboxMail.id))
        return [r.state for r in rows if address in r.recipients]


async def _sent_and_shown(http, base, judge, text: str) -> str:
    form = await _form(http, base)
    status, where = await _send(http, base, form, text)
    assert status == 303 and where is not None
    judge.process()
    _, shown, _ = await _get(http, base + where.partition("#")[0])
    reply = re.search(r'<pre class="reply">(.*?)</pre>', shown, re.S)
    assert reply is not None, shown
    return reply.group(1)


async def test_the_receipt_turned_off_keeps_the_reply_on_the_page(tmp_path):
    page, base, judge = await _serve(tmp_path)
    france = addr("FRANCE")
    try:
        async with _client() as http:
            assert (await _sign_in(http, base, "pay7", "F", "pw-france"))[0] == 303
            _, mine, _ = await _get(http, f"{base}/game/pay7/mine")
            assert "Stop mailing it" in mine
            csrf = (await _form(http, base))["csrf"]
            assert await _choose(http, base, {"on": "0"}) == 403  # no token, no change
            assert await _choose(http, base, {"on": "0", "csrf": "forged"}) == 403
            assert "Stop mailing it" in (await _get(http, f"{base}/game/pay7/mine"))[1]
            assert await _choose(http, base, {"on": "0", "csrf": csrf}) == 303
            _, mine, _ = await _get(http, f"{base}/game/pay7/mine")
            assert "shown here only" in mine and "Mail it to me too" in mine
            before = len(_replies(judge, france))
            # a message accepted and one refused: both answered on the page, neither mailed
            assert "was processed" in await _sent_and_shown(http, base, judge, "7 : A BUR H")
            assert "TIMBUKTU" in await _sent_and_shown(http, base, judge, "5 : A PAR - TIMBUKTU")
            assert _replies(judge, france)[before:] == [OutboxState.KEPT, OutboxState.KEPT]
            # the outbox sender leaves a kept reply alone
            due = SqlOutbox(judge.db).claim_due(judge.clock.now() + timedelta(days=1), limit=10_000)
            assert due and not {m.id for m in due} & _kept_ids(judge)
            # by mail the reply is mailed as ever: the flag is the page's
            judge.send(france, "SIGNON Fpay7 pw-france\n7 : A BUR H\n")
            assert _replies(judge, france)[-1] is OutboxState.PENDING
            assert await _choose(http, base, {"on": "1", "csrf": csrf}) == 303
            assert "was processed" in await _sent_and_shown(http, base, judge, "7 : A BUR H")
            assert _replies(judge, france)[-1] is OutboxState.PENDING
    finally:
        await page.cleanup()


def _kept_ids(judge) -> set[int]:
    with judge.db.reading() as s:
        return set(s.scalars(select(OutboxMail.id).where(OutboxMail.state == OutboxState.KEPT)))


async def test_under_always_confirm_the_reply_is_always_mailed_and_the_master_copied(tmp_path):
    page, base, judge = await _serve(tmp_path)
    france = addr("FRANCE")
    with judge.db.transaction() as s:
        game = s.scalar(select(Game).where(Game.name == "pay7"))
        assert game is not None
        game.rules = [*game.rules, "ALWAYS_CONFIRM"]
        game.settings = {**(game.settings or {}), "web_no_receipt": ["FRANCE"]}  # set before
    try:
        async with _client() as http:
            assert (await _sign_in(http, base, "pay7", "F", "pw-france"))[0] == 303
            _, mine, _ = await _get(http, f"{base}/game/pay7/mine")
            assert "ALWAYS_CONFIRM" in mine and "Stop mailing it" not in mine
            assert "was processed" in await _sent_and_shown(http, base, judge, "7 : A BUR H")
            assert _replies(judge, france)[-1] is OutboxState.PENDING
            assert "ALWAYS_CONFIRM" in judge.sent[-1].subject and GM in judge.sent[-1].to
    finally:
        await page.cleanup()
