"""A problem found in a message: its line, the line's text, its kind and what is wrong.

`Problem` is the one type a problem has from the parser that finds it to the reply that
shows it (`templates/reply.txt.j2`, under ERRORS): an offer line, an order, a command
line, a setting of CREATE. Its kind (rules/errors.py: invalid, illegal, ambiguous) is
kept to the end; a command the judge refuses for another reason has no kind.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..rules.errors import ProblemKind


@dataclass(frozen=True, slots=True)
class Problem:
    line: int | None  # 1-based; 0 or None for a problem of the whole text
    text: str  # the line as written (stripped)
    kind: ProblemKind | None
    message: str

    def __str__(self) -> str:
        where = f"line {self.line}" if self.line else "the sheet"
        return f'{where}: {self.message} ("{self.text}")' if self.text else f"{where}: {self.message}"

    @property
    def described(self) -> str:
        """The message as the reply shows it, after its kind (`illegal: …`)."""
        return f"{self.kind.value}: {self.message}" if self.kind else self.message

    def at(self, line: int | None, text: str) -> Problem:
        """The same problem, placed on a line."""
        return replace(self, line=line, text=text)


def unplaced(kind: ProblemKind | None, message: str) -> Problem:
    """A problem whose line is not known yet (the parser of the line places it)."""
    return Problem(0, "", kind, message)


class LineError(ValueError):
    """Raised inside a line parser with the line's problems (one, or several: e.g. two
    bad alternatives); the caller places them on the line (`Problem.at`)."""

    def __init__(self, *problems: Problem):
        super().__init__("; ".join(p.message for p in problems))
        self.problems = problems

    @property
    def kind(self) -> ProblemKind | None:
        return self.problems[0].kind

    @property
    def message(self) -> str:
        return self.problems[0].message


def invalid(message: str) -> LineError:
    return LineError(unplaced(ProblemKind.INVALID, message))


def illegal(message: str) -> LineError:
    return LineError(unplaced(ProblemKind.ILLEGAL, message))
