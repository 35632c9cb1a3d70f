"""The live check of the page's form (docs/web.md): what the judge would answer to the text
if it were sent now, without changing anything.

The text is made into the very message the form would send (`websend.compose`) and read as
the processor reads a mail (`text.message.read_message`, `text.commands.split_commands`),
so line numbers are the reply's. A power's order lines are then checked as `orders.submit`
checks them (`orders.check`, which stores nothing): the lines understood, the problems
with their line numbers, the total offered against the balance. Other commands are only
named: they run when the message is sent. The caller reads in a session it never commits.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ..config import Config
from ..store import Session, repo
from ..text.commands import Kind, split_commands
from ..text.message import read_message
from ..text.problems import Problem
from .context import CommandError
from .orders import Checked, OrdersTaken, Refused, SheetTaken, check
from .state import GameState
from .websend import compose
from .websession import Current

_NONCE = "live-check-never-stored"  # (the message is never stored: any Message-ID will do)


@dataclass(frozen=True)
class Finding:
    """A problem of the text, on the reply's line (the page's SIGNON line is line 1)."""

    line: int | None
    text: str
    message: str


@dataclass(frozen=True)
class LiveCheck:
    """What the judge would say of the text, short of running its commands."""

    problems: tuple[Finding, ...] = ()
    understood: tuple[tuple[int, str], ...] = ()  # order lines, as the judge read them
    commands: tuple[tuple[int, str], ...] = ()  # the commands it would run, by keyword
    total: int | None = None  # what the offers add up to (a movement phase's sheet)
    balance: int | None = None
    over: bool = False  # more than the balance (rule 5.5)

    def as_json(self) -> dict[str, object]:
        return {
            "problems": [{"line": p.line, "text": p.text, "message": p.message} for p in self.problems],
            "understood": [{"line": n, "text": t} for n, t in self.understood],
            "commands": [{"line": n, "keyword": k} for n, k in self.commands],
            "total": self.total,
            "balance": self.balance,
            "over": self.over,
        }


def _finding(p: Problem) -> Finding:
    return Finding(p.line or None, p.text, p.described)


def _orders(st: GameState, current: Current, lines: list[tuple[int, str]], now: datetime) -> LiveCheck:
    power = current.party.power
    if power is None or not lines:
        return LiveCheck()
    try:
        checked: Checked | Refused = check(st, power=power, lines=lines, now=now)
    except CommandError as exc:
        return LiveCheck(problems=(Finding(lines[0][0], lines[0][1].strip(), exc.message),))
    if isinstance(checked, Refused):
        return LiveCheck(problems=tuple(_finding(p) for p in checked.problems))
    understood = tuple((n, t.strip()) for n, t in lines if t.split("%", 1)[0].strip())
    taken = checked.taken
    if isinstance(taken, SheetTaken):
        return LiveCheck(understood=understood, total=taken.total, balance=taken.balance, over=taken.over)
    assert isinstance(taken, OrdersTaken)
    return LiveCheck(understood=understood)


def live_check(
    s: Session, config: Config, current: Current, address: str, text: str, now: datetime
) -> LiveCheck:
    """What the judge would answer to `text` from the signed-in party (read only)."""
    game = repo.game_by_name(s, current.party.game)
    if game is None:
        return LiveCheck(problems=(Finding(None, "", f"no game {current.party.game}"),))
    mail = read_message(compose(config, current, address, text, _NONCE, now), envelope_from=address)
    script = split_commands([(line.number, line.text) for line in mail.lines])
    problems = [Finding(None, "", p.message) for p in mail.problems if p.refused]
    problems += [_finding(p) for p in script.problems]
    order_lines = [(c.line, c.text) for c in script.commands if c.kind is Kind.ORDER]
    named = tuple((c.line, c.keyword) for c in script.commands[1:] if c.kind is not Kind.ORDER)
    found = _orders(GameState(s, game, config.maps_path), current, order_lines, now)
    return LiveCheck(
        problems=(*problems, *found.problems),
        understood=found.understood,
        commands=named,
        total=found.total,
        balance=found.balance,
        over=found.over,
    )
