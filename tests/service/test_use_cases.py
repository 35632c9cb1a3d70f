"""The game layer's use cases return typed results; handlers only parse and report them
(issue 9, item 3). A problem keeps its type and kind from the parser to the reply, and the
splitter's command words are the registry's (item 4)."""

from __future__ import annotations

import pytest

from payjudge.commands import REGISTRY, check_vocabulary
from payjudge.commands.base import PlayerHandler
from payjudge.game.acceptance import Accepted, set_acceptance
from payjudge.game.context import CommandError, Context, Reply
from payjudge.game.mailer import Mailer
from payjudge.game.orders import Cleared, OrdersTaken, Refused, SheetTaken, clear, submit
from payjudge.game.resignation import Resigned, resign_power
from payjudge.game.state import GameState, find_game
from payjudge.game.transfer import Transferred, transfer
from payjudge.rules.errors import ProblemKind
from payjudge.rules.phase import Phase
from payjudge.text.commands import Command
from payjudge.text.problems import Problem

from .judge import TestJudge
from .test_game import start_game


def _state(judge: TestJudge, s) -> GameState:
    return GameState(s, find_game(s, "pay7"))


def test_transfer_returns_balances_and_mails_the_receiver_a_typed_statement(database):
    judge = TestJudge(database)
    start_game(judge)
    with judge.db.transaction() as s:
        mailer = Mailer(s, judge.config, judge.clock.now())
        result = transfer(_state(judge, s), mailer, power="FRANCE", to="E", amount=10, now=judge.clock.now())
        assert result == Transferred(10, "ENGLAND", before=48, after=38)
        (mail,) = mailer.queued
        assert mail.recipients == ["england@pj.test"] and mail.kind == "transfer"
        body = mail.raw.decode()
        assert "Transfer from FRANCE" in body and "58 AgP" in body
    with judge.db.transaction() as s:
        mailer = Mailer(s, judge.config, judge.clock.now())
        with pytest.raises(CommandError, match="only 38 AgP"):
            transfer(_state(judge, s), mailer, power="FRANCE", to="ENGLAND", amount=39, now=judge.clock.now())
        with pytest.raises(CommandError, match="there is no power"):
            transfer(_state(judge, s), mailer, power="FRANCE", to="NARNIA", amount=1, now=judge.clock.now())


def test_sheets_orders_and_acceptance_lists_are_typed_results(database):
    judge = TestJudge(database)
    start_game(judge)
    now = judge.clock.now()
    with judge.db.transaction() as s:
        st = _state(judge, s)
        taken = submit(st, power="FRANCE", lines=[(4, "10 : A PAR - BUR")], now=now, inbound_id=None)
        assert isinstance(taken, SheetTaken) and not isinstance(taken, OrdersTaken)
        assert (taken.power, taken.total, taken.balance, taken.over) == ("FRANCE", 10, 48, False)
        refused = submit(
            st,
            power="FRANCE",
            lines=[(4, "10 : A PAR - BUR"), (5, "3 ; A MAR H"), (6, "5 : A PAR - MOS")],
            now=now,
            inbound_id=None,
        )
        assert isinstance(refused, Refused)
        assert [(p.line, p.text, p.kind) for p in refused.problems] == [
            (5, "3 ; A MAR H", ProblemKind.INVALID),
            (6, "5 : A PAR - MOS", ProblemKind.ILLEGAL),
        ]
        assert st.submission("FRANCE").text == "10 : A PAR - BUR"  # the refused sheet changed nothing
        assert set_acceptance(st, power="FRANCE", written="FE?", now=now) == Accepted("FRANCE", "FE?")
        assert clear(st, power="FRANCE") == Cleared("FRANCE", Phase.parse("S1901M"))


def test_a_problem_keeps_its_kind_into_the_reply():
    reply = Reply()
    reply.add(Problem(3, "  3 ; A MAR H ", ProblemKind.INVALID, "';' is not an offer type"))
    reply.problem(4, "TRANSFER 10", "write TRANSFER <amount> TO <power>")
    assert [p.kind for p in reply.problems] == [ProblemKind.INVALID, None]
    errors = reply.view(ok=False).errors
    assert [(e.line, e.text, e.messages) for e in errors] == [
        (3, "3 ; A MAR H", ["invalid: ';' is not an offer type"]),
        (4, "TRANSFER 10", ["write TRANSFER <amount> TO <power>"]),
    ]


def test_resigning_returns_what_was_forfeited(database):
    judge = TestJudge(database)
    start_game(judge)
    with judge.db.transaction() as s:
        mailer = Mailer(s, judge.config, judge.clock.now())
        st = _state(judge, s)
        assert resign_power(st, mailer, power="ITALY", now=judge.clock.now()) == Resigned(
            "ITALY", "pay7", forfeited=0
        )  # Italy has centres: it keeps its money
        assert st.seat("ITALY").status == "resigned"
        assert all("TAKEOVER Ipay7" in m.raw.decode() for m in mailer.queued) and mailer.queued


def test_a_player_context_needs_a_power(database):
    judge = TestJudge(database)
    start_game(judge)
    with judge.db.transaction() as s:
        ctx = Context(
            session=s,
            config=judge.config,
            now=judge.clock.now(),
            sender="x@pj.test",
            message_id=None,
            reply=Reply(),
            mailer=Mailer(s, judge.config, judge.clock.now()),
        )
        assert ctx.player() is None and ctx.master() is None and ctx.signed() is None
        ctx.state, ctx.actor = _state(judge, s), "MASTER"
        assert ctx.player() is None and ctx.master() is not None  # the Master before FOR
        ctx.acting_for = "FRANCE"
        player = ctx.player()
        assert player is not None and player.power == "FRANCE" and player.turn.phase == Phase.parse("S1901M")


def test_the_splitter_words_are_the_registry_keywords():
    check_vocabulary()

    class Frob(PlayerHandler):
        keyword = "FROB"
        syntax = summary = "FROB"

        def run(self, ctx, cmd: Command) -> None:
            pass

    REGISTRY["FROB"] = Frob()
    try:
        with pytest.raises(RuntimeError, match="FROB"):
            check_vocabulary()
    finally:
        del REGISTRY["FROB"]
    check_vocabulary()
