"""What a command handler works with, and the structured reply it builds."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..config import Config
from ..store import Session
from ..store.models import Game
from ..templating import clip
from .mailer import Mailer
from .state import GameState


@dataclass(frozen=True)
class Note:
    """One result for the reply, rendered by `templates/notes/<kind>.txt.j2`."""

    kind: str
    line: int | None = None
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Problem:
    line: int | None
    text: str
    message: str


@dataclass(frozen=True)
class ReplyLimits:
    """How much of a message a reply repeats (issue 8): a reply stays far below the
    inbound size limit whatever was sent, and says what it left out."""

    understood: int = 100        # lines echoed under UNDERSTOOD
    errors: int = 40             # problems shown under ERRORS
    notes: int = 40              # results shown under RESULTS
    ignored: int = 10            # lines echoed under IGNORED
    sheet_lines: int = 200       # lines of an offer sheet shown in a result
    line_width: int = 120        # characters of a line as the player wrote it
    message_width: int = 300     # characters of one error message
    results_bytes: int = 80_000  # the RESULTS section (HISTORY of a long game is cut here)
    body_bytes: int = 100_000    # the whole reply text, in UTF-8


REPLY_LIMITS = ReplyLimits()


@dataclass(frozen=True)
class ErrorLine:
    """The problems of one line: the line is written once, then each problem."""

    line: int | None
    text: str
    messages: list[str]


@dataclass
class Reply:
    understood: list[tuple[int, str]] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    ignored: list[tuple[int, str]] = field(default_factory=list)
    skipped: dict[str, int] = field(default_factory=dict)   # lines never read, by why
    game: str | None = None
    extra_recipients: list[str] = field(default_factory=list)  # e.g. the registered address
    _texts: dict[int, str] = field(default_factory=dict, repr=False)
    # the Master's FOR lines: (line, power, the power's registered address or None)
    acting_for: list[tuple[int, str, str | None]] = field(default_factory=list)

    def note(self, kind: str, line: int | None = None, **data: Any) -> None:
        self.notes.append(Note(kind, line, data))

    def copies(self) -> dict[str, tuple[str, Reply]]:
        """What a power's registered address gets of a Master's reply: only the lines of
        the Master's FOR <power> sections (a section ends at the next FOR), so a power
        never sees what the Master did for another. Keyed by address."""
        out: dict[str, tuple[str, Reply]] = {}
        starts = [line for line, _, _ in self.acting_for]
        for i, (line, power, address) in enumerate(self.acting_for):
            if not address:
                continue
            end = starts[i + 1] if i + 1 < len(starts) else None

            def inside(n: int | None) -> bool:
                return n is not None and n >= line and (end is None or n < end)

            _, part = out.setdefault(address, (power, Reply(game=self.game)))
            part.understood += [u for u in self.understood if inside(u[0])]
            part.notes += [n for n in self.notes if inside(n.line)]
            part.problems += [p for p in self.problems if inside(p.line)]
        return out

    def problem(self, line: int | None, text: str, message: str) -> None:
        # a line with many problems keeps one copy of its text
        if line is not None and line in self._texts:
            text = self._texts[line]
        else:
            text = text.strip()
            if line is not None:
                self._texts[line] = text
        self.problems.append(Problem(line, text, message))

    def view(self, limits: ReplyLimits = REPLY_LIMITS) -> dict[str, Any]:
        """What `templates/reply.txt.j2` shows: a line with a problem is listed under
        ERRORS only, each section is cut at its limit with a count of the rest."""
        width = limits.line_width
        bad = {p.line for p in self.problems if p.line is not None}
        understood = sorted(u for u in self.understood if u[0] not in bad)
        problems = sorted(self.problems, key=lambda p: p.line or 0)
        errors: list[ErrorLine] = []
        for p in problems[:limits.errors]:
            message = clip(p.message, limits.message_width)
            if errors and p.line is not None and errors[-1].line == p.line:
                errors[-1].messages.append(message)
            else:
                errors.append(ErrorLine(p.line, clip(p.text, width), [message]))
        ignored = sorted(self.ignored)
        return dict(
            understood=[(n, clip(t, width)) for n, t in understood[:limits.understood]],
            understood_more=max(0, len(understood) - limits.understood),
            notes=self.notes[:limits.notes], notes_more=max(0, len(self.notes) - limits.notes),
            errors=errors, errors_more=max(0, len(problems) - limits.errors),
            ignored=[(n, clip(t, width)) for n, t in ignored[:limits.ignored]],
            ignored_more=max(0, len(ignored) - limits.ignored),
            skipped=dict(self.skipped), limits=limits, game_name=self.game)


class CommandError(Exception):
    """Raised by a handler: the command (and so the whole message) is refused."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass
class Context:
    session: Session
    config: Config
    now: datetime
    sender: str
    message_id: str | None
    reply: Reply
    mailer: Mailer
    state: GameState | None = None
    actor: str | None = None          # a power name, MASTER, or an observer name
    observer: bool = False
    acting_for: str | None = None     # the power the Master acts for after FOR
    inbound_id: int | None = None
    after: list = field(default_factory=list)   # actions applied after every command (RESIGN)
    signon_failure: Any = None   # a security.FailedSignon: a wrong password, counted after rollback

    @property
    def game(self) -> Game:
        assert self.state is not None
        return self.state.game

    @property
    def is_master(self) -> bool:
        from .state import MASTER
        return self.actor == MASTER

    @property
    def power(self) -> str | None:
        """The power the commands act for (the Master's FOR power, or the player's)."""
        if self.is_master:
            return self.acting_for
        return None if self.observer else self.actor
