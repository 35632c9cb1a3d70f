"""Numbers of any length in a mail are an error on their line, never a crash (issue 8, item 7).

Python refuses to convert 4,300 digits or more to an int; every number a player writes
goes through one bounded reader, so each of these mails gets an ordinary reply.
"""

from __future__ import annotations

import pytest
from sqlalchemy import select

from payjudge.store.models import InboundMessage

from .judge import TestJudge
from .test_game import GM, addr, signon, start_game

BIG = "9" * 5000


def _state(judge: TestJudge) -> str:
    with judge.db.transaction() as s:
        return s.scalars(select(InboundMessage).order_by(InboundMessage.id.desc())).first().state


def _errors(reply: str) -> str:
    assert "ERRORS" in reply, reply
    return reply.split("ERRORS", 1)[1]


@pytest.mark.parametrize(
    "line, message",
    [
        (f"{BIG} : A PAR - BUR", "the amount is too large"),
        (f"{BIG}*1 : A PAR - BUR", "the repetition count is too large"),
        (f"5#{BIG} : A PAR - BUR", "the plateau is too large"),
        (f"5+{BIG} : A PAR - BUR", "the amount is too large"),
        (f"{BIG} $", "the amount is too large"),
        (f"TRANSFER {BIG} TO ENGLAND", "the amount is too large"),
        ("TRANSFER ² TO ENGLAND", "write TRANSFER <amount> TO <power>"),
        (f"VOTE {BIG}WAY", "the number of powers in the draw is too large"),
    ],
)
def test_a_huge_number_is_an_error_on_its_line(database, line, message):
    judge = TestJudge(database)
    start_game(judge)
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\n{line}\n")
    assert _state(judge) == "done"
    reply = judge.last_reply(addr("FRANCE"))
    errors = _errors(reply)
    assert "line   2:" in errors and message in errors
    assert len(reply) < 2_000  # the 5,000 digits are not echoed back


@pytest.mark.parametrize(
    "line, message",
    [
        (f"SET TIMING MOVE {BIG}D", "the duration is too large"),
        ("SET TIMING MOVE 99999999W", "at most ten years"),
        (f"ROLLBACK SPRING {BIG} MOVEMENT", "not a phase"),
    ],
)
def test_a_huge_number_from_the_master_is_an_error(database, line, message):
    judge = TestJudge(database)
    start_game(judge)
    judge.send(GM, f"SIGNON Mpay7 masterpw\n{line}\n")
    assert _state(judge) == "done"
    assert message in _errors(judge.last_reply(GM))


def test_huge_numbers_in_create_settings_are_errors(database):
    judge = TestJudge(database)
    judge.send(GM, f"CREATE pay8 pw-master\nTIMING MOVE {BIG}D\nTAX {BIG}\nCAP -5\nSIGNOFF\n")
    assert _state(judge) == "done"
    errors = _errors(judge.last_reply(GM))
    assert "the duration is too large" in errors
    assert "TAX is too large" in errors and "'-5' is not a whole number" in errors


def test_a_draw_vote_is_stored_as_a_plain_number(database):
    judge = TestJudge(database)
    start_game(judge)
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\nVOTE 0007WAY\n")
    assert "ERRORS" not in judge.last_reply(addr("FRANCE"))
    assert "7WAY" in judge.last_reply(addr("FRANCE"))
