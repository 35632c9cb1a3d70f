"""A problem found in one line of a message: its line number, its kind and what is wrong."""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.errors import ProblemKind


@dataclass(frozen=True, slots=True)
class Problem:
    line: int              # 1-based; 0 for a problem of the whole text
    text: str              # the line as written (stripped)
    kind: ProblemKind      # invalid (not understood), illegal (not allowed), ambiguous
    message: str

    def __str__(self) -> str:
        where = f"line {self.line}" if self.line else "the sheet"
        return f'{where}: {self.message} ("{self.text}")' if self.text else f"{where}: {self.message}"


class LineError(ValueError):
    """Raised inside a line parser; the caller turns it into a `Problem`."""

    def __init__(self, kind: ProblemKind, message: str):
        super().__init__(message)
        self.kind = kind
        self.message = message


def invalid(message: str) -> LineError:
    return LineError(ProblemKind.INVALID, message)


def illegal(message: str) -> LineError:
    return LineError(ProblemKind.ILLEGAL, message)
