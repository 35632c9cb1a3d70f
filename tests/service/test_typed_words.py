"""A seat's vote, an outgoing mail's kind and a handler's role are typed values (issue 27):
mypy refuses a string where one of them is expected, and no module compares one with a
string. The steps after a message's commands are values too (`game/after.py`)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from payjudge.game.after import AfterStep, Step
from payjudge.game.context import Context
from payjudge.service.steps import STEPS
from tests.mypysnippet import run_mypy

ROOT = Path(__file__).resolve().parents[2]

# each snippet is checked as a module of its own against the real payjudge package
RAW = """
from payjudge.commands.base import PlayerHandler
from payjudge.game.mailer import Mailer
from payjudge.store.models import Seat


def vote(seat: Seat) -> None:
    seat.vote = "3WAY"  # a player's words, not a Vote: refused


def mail(mailer: Mailer) -> None:
    mailer.send(["a@x"], "s", "t.txt.j2", kind="notice")  # not a MailKind: refused


class Handler(PlayerHandler):
    who = "master"  # not a Role: refused
"""

TYPED = """
from payjudge.commands.base import PlayerHandler
from payjudge.game.after import AfterStep
from payjudge.game.mailer import Mailer
from payjudge.game.roles import Role
from payjudge.rules.names import PowerName
from payjudge.store.models import Seat
from payjudge.text.votes import Vote, VoteKind
from payjudge.vocabulary import MailKind


def vote(seat: Seat, power: PowerName) -> None:
    seat.vote = Vote.draw(3)
    seat.vote = Vote.concede(power)
    seat.vote = Vote(VoteKind.SOLO)
    seat.vote = None
    if seat.vote is not None and seat.vote.kind is VoteKind.DRAW:
        AfterStep.settle_votes(1)


def mail(mailer: Mailer) -> None:
    mailer.send(["a@x"], "s", "t.txt.j2", kind=MailKind.NOTICE)


class Handler(PlayerHandler):
    who = Role.MASTER
"""


def test_a_string_is_no_vote_mail_kind_or_role(tmp_path: Path) -> None:
    out, status = run_mypy(tmp_path, RAW)
    assert status == 1, out
    lines = [line for line in out.splitlines() if "error" in line]
    assert len(lines) == 3, out
    assert '(expression has type "str", variable has type' in lines[0] and "Vote | None" in lines[0]
    assert 'incompatible type "str"; expected "MailKind"' in lines[1]
    assert '(expression has type "str", base class "PlayerHandler" defined the type as "Role")' in lines[2]


def test_votes_mail_kinds_and_roles_are_taken_as_values(tmp_path: Path) -> None:
    out, status = run_mypy(tmp_path, TYPED)
    assert status == 0, out


# -- no vote, mail kind or role is compared with a string -----------------------------------
WORDS = ("vote", "kind", "who")


def _word(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr in WORDS


def _strings(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_strings(e) for e in node.elts)
    return False


def _string_uses(source: str, name: str) -> list[str]:
    """`seat.vote == "YES"`, `handler.who in ("master",)`, `x.vote.startswith(…)`,
    `seat.vote = "END"`, `kind="notice"`: each a string where a typed value belongs."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if _string_use(node):
            found.append(f"{name}:{node.lineno}")
    return found


def _string_use(node: ast.AST) -> bool:
    if isinstance(node, ast.Compare):
        sides = [node.left, *node.comparators]
        return any(_word(a) for a in sides) and any(_strings(b) for b in sides)
    if isinstance(node, ast.Assign):
        return _strings(node.value) and any(_word(t) for t in node.targets)
    return isinstance(node, ast.Call) and _text_call(node)


def _text_call(node: ast.Call) -> bool:
    """A method of str called on one of the words (`seat.vote.startswith(…)`: it is text
    there), or a mail sent with a string for its kind."""
    func = node.func
    if not isinstance(func, ast.Attribute):
        return False
    if _word(func.value):
        return True
    return func.attr in ("send", "broadcast") and any(
        k.arg == "kind" and _strings(k.value) for k in node.keywords
    )


# the lexer of written orders (parse.py, its tokenizer tokens.py) compares its token kinds
# ("LOC", "?", "(", …): that is the text parser at work, below any record of the judge (as
# in test_vocabulary.py)
PARSERS = {"payjudge/rules/parse.py", "payjudge/rules/tokens.py"}


def test_no_module_uses_a_vote_mail_kind_or_role_as_a_string():
    found = [
        hit
        for path in sorted((ROOT / "payjudge").rglob("*.py"))
        if (name := str(path.relative_to(ROOT))) not in PARSERS
        for hit in _string_uses(path.read_text(), name)
    ]
    assert not found, found


def test_the_scan_sees_a_string_use():
    sample = (
        "def f(seat, handler, mailer):\n"
        "    if seat.vote == 'YES' or handler.who in ('master', Role.MASTER):\n"
        "        seat.vote = 'END'\n"
        "    mailer.send([], 's', 't', kind='notice')\n"
        "    return seat.vote.startswith('PROPOSE ') or seat.vote is None\n"
    )
    assert sorted(_string_uses(sample, "x.py")) == ["x.py:2", "x.py:2", "x.py:3", "x.py:4", "x.py:5"]


def test_every_step_after_the_commands_has_its_runner():
    """`service/steps.py` runs every `Step` through its table, and a step queued twice by
    the same line runs once."""
    assert set(STEPS) == set(Step)
    ctx = Context.__new__(Context)
    ctx.after = []
    ctx.then(AfterStep.settle_votes(3))
    ctx.then(AfterStep.settle_votes(3))
    ctx.then(AfterStep.check_allowance("@ALICE"))
    assert ctx.after == [AfterStep.settle_votes(3), AfterStep.check_allowance("@ALICE")]
    with pytest.raises(ValueError, match="without its account"):
        _ = AfterStep.settle_votes(3).for_account
