"""A reply stays small whatever a message holds, and the work stays linear (issue 8, item 1).

A line with thousands of repeated `|` alternatives once drew one error per repetition,
each repeating the whole line (a 44 KB mail, a 133 MB reply). Now a line is named once
with its problems under it, problems are cut at a limit with a count of the rest, and
UNDERSTOOD, RESULTS and IGNORED are cut the same way.
"""

from __future__ import annotations

from sqlalchemy import select

from payjudge.config import Config
from payjudge.game.context import REPLY_LIMITS
from payjudge.game.state import GameState, find_game
from payjudge.store.models import InboundMessage, Submission

from .judge import TestJudge
from .test_game import addr, signon, start_game

# the judge refuses larger mail at the door; a reply stays far below it
INBOUND_LIMIT = Config().max_message_bytes
REPLY_BOUND = 150_000
FRANCE = addr("FRANCE")


def _send(judge: TestJudge, body: str) -> tuple[str, int]:
    """(reply text, size of the reply as mailed) to a message of France."""
    judge.inbox(FRANCE)
    judge.send(FRANCE, f"{signon('FRANCE')}\n{body}")
    with judge.db.transaction() as s:
        state = s.scalars(select(InboundMessage).order_by(InboundMessage.id.desc())).first().state
    assert state == "done"
    (reply,) = [m for m in judge.inbox(FRANCE) if m.kind == "reply"]
    return reply.body, len(reply.raw)


def _sheet_on_record(judge: TestJudge) -> str | None:
    with judge.db.transaction() as s:
        st = GameState(s, find_game(s, "pay7"))
        return s.scalars(
            select(Submission.text).where(
                Submission.turn_id == st.turn.id, Submission.power == "FRANCE", Submission.current.is_(True)
            )
        ).first()


def test_repeated_alternatives_name_the_line_once(database):
    judge = TestJudge(database)
    start_game(judge)
    line = "5 : A PAR - BUR" + " | - BUR" * 4000  # 32 KB on one line
    reply, size = _send(judge, line + "\n")
    assert REPLY_BOUND < INBOUND_LIMIT and size < 5_000
    errors = reply.split("ERRORS", 1)[1]
    assert errors.count("line   2:") == 1
    assert "A PAR - BUR appears 4,001 times in the offer" in errors
    assert "(31,895 more characters)" in errors  # the line is shown clipped, once


def test_errors_are_cut_with_a_count_of_the_rest(database):
    judge = TestJudge(database)
    start_game(judge)
    line = "5 : A PAR - BUR" + "".join(f" | - X{i}" for i in range(4000))
    bad_lines = "".join(f"{i} ? A PAR H\n" for i in range(3000))
    reply, size = _send(judge, line + "\n" + bad_lines)
    assert size < REPLY_BOUND
    errors = reply.split("ERRORS", 1)[1]
    assert errors.count("line   2:") == 1
    shown = REPLY_LIMITS.errors
    assert errors.count("invalid: ") == shown
    assert f"… and {4000 + 3000 - shown:,} more problems" in errors


def test_a_huge_sheet_is_stored_whole_and_answered_briefly(database):
    judge = TestJudge(database)
    start_game(judge)
    n = 20_000
    sheet = "".join(f"{i % 50} : A PAR - BUR % note {i}\n" for i in range(n))
    reply, size = _send(judge, sheet)
    assert size < REPLY_BOUND
    assert "ERRORS" not in reply
    assert f"… and {n + 1 - REPLY_LIMITS.understood:,} more lines, not repeated here" in reply
    assert f"… and {n - REPLY_LIMITS.sheet_lines:,} more lines, not repeated here" in reply
    on_record = _sheet_on_record(judge)
    assert on_record is not None and len(on_record.splitlines()) == n  # the work was done


def test_lines_after_signoff_are_cut_with_a_count(database):
    judge = TestJudge(database)
    start_game(judge)
    reply, _size = _send(judge, "BALANCE\nSIGNOFF\n" + "chatter\n" * 5000)
    ignored = reply.split("IGNORED", 1)[1]
    assert ignored.count("chatter") == REPLY_LIMITS.ignored
    assert f"… and {5000 - REPLY_LIMITS.ignored:,} more lines" in ignored


def test_a_reply_in_any_script_stays_within_its_bound(database):
    judge = TestJudge(database)
    start_game(judge)
    wide = "\U0001f600" * 200  # four bytes each in UTF-8
    reply, size = _send(judge, "".join(f"{wide} {i}\n" for i in range(3000)))
    assert size < REPLY_BOUND
    assert "more problems" in reply


def test_many_results_are_cut_with_a_count(database):
    judge = TestJudge(database)
    start_game(judge)
    # (not HELP: a message answers at most 10 HELP, LIST, SUMMARY and HISTORY lines)
    reply, size = _send(judge, "BALANCE\n" * 500)
    assert size < REPLY_BOUND
    assert "left out: a reply is kept short" in reply
