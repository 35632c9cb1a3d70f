"""What the sections of a reply say (issue 8, items 13 and 14).

A bad line is listed under ERRORS only; lines the judge did not read (quoted, `//`, after
a signature or a quoted earlier message) are counted under IGNORED; `ACCEPT GFE` leaves
powers out without the `?` rule 4.1 asks for and is refused; `SET WAIT` says it lasts
one phase, in the reply and in HELP.
"""

from __future__ import annotations

from payjudge.game.state import GameState, find_game
from payjudge.store.models import Acceptance

from .judge import TestJudge
from .test_game import addr, signon, start_game

FRANCE = addr("FRANCE")


def _reply(judge: TestJudge, body: str) -> str:
    judge.inbox(FRANCE)
    judge.send(FRANCE, f"{signon('FRANCE')}\n{body}")
    return judge.last_reply(FRANCE).replace("\r\n", "\n")


def _section(reply: str, name: str) -> str:
    after = reply.split(f"\n{name}\n", 1)[1]
    return after.split("\n\n", 1)[0]


def test_a_bad_line_is_under_errors_only(database):
    judge = TestJudge(database)
    start_game(judge)
    reply = _reply(judge, "5 : A PAR - BUR\n0 : A MUN - RUH\nTRANSFER 500 TO ENGLAND\nBALANCE\n")
    understood, errors = _section(reply, "UNDERSTOOD"), _section(reply, "ERRORS")
    assert "line   3:" in errors and "line   4:" in errors
    assert "line   3:" not in understood and "line   4:" not in understood
    assert "line   2: 5 : A PAR - BUR" in understood and "line   5: BALANCE" in understood


def test_lines_not_read_are_counted_under_ignored(database):
    judge = TestJudge(database)
    start_game(judge)
    reply = _reply(
        judge,
        "// my own note\n5 : A PAR - BUR\n> 12 : A PAR - PIC\n"
        "> quoted again\n\n-- \nFrançois\nsent from my phone\n",
    )
    assert "UNDERSTOOD" in reply and "line   3: 5 : A PAR - BUR" in reply
    ignored = _section(reply, "IGNORED")
    assert "2 quoted lines (starting with >)" in ignored
    assert "1 comment line (starting with //)" in ignored
    assert "2 lines after the signature separator (--)" in ignored
    assert "A PAR - PIC" not in ignored


def test_a_quoted_earlier_message_is_counted(database):
    judge = TestJudge(database)
    start_game(judge)
    reply = _reply(judge, "BALANCE\nOn Mon, 5 Jan 2026, judge@pj.test wrote:\n> old\n> results\n")
    assert "3 lines of a quoted earlier message" in _section(reply, "IGNORED")


def test_accept_without_question_mark_leaving_powers_out_is_refused(database):
    judge = TestJudge(database)
    start_game(judge)
    reply = _reply(judge, "ACCEPT GFE\n")
    errors = _section(reply, "ERRORS")
    assert "line   2: ACCEPT GFE" in errors
    assert "leaves out A, I, R, T" in errors and "rule 4.1" in errors
    assert "ACCEPT GFE?" in errors
    with judge.db.transaction() as s:
        game = find_game(s, "pay7")
        assert not s.query(Acceptance).filter_by(game_id=game.id, power="FRANCE").all()
    # the two ways the reply offers are both taken
    assert "ERRORS" not in _reply(judge, "ACCEPT GFE?\n")
    assert "ERRORS" not in _reply(judge, "ACCEPT GFEAIRT\n")


def test_set_wait_says_it_lasts_one_phase(database):
    judge = TestJudge(database)
    start_game(judge)
    reply = _reply(judge, "SET WAIT\n")
    assert "wait for the deadline of Spring 1901 Movement" in reply
    assert "This lasts for this phase only" in reply
    judge.send(FRANCE, "HELP\n")
    help_text = judge.last_reply(FRANCE).replace("\r\n", "\n")
    assert "(this phase only)" in help_text.split("SET WAIT", 1)[1].split("SET ", 1)[0]
    with judge.db.transaction() as s:
        assert GameState(s, find_game(s, "pay7")).seat("FRANCE").wait
