"""What a command handler works with, and the structured reply it builds."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..config import Config
from ..store import Session
from ..store.models import Game
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


@dataclass
class Reply:
    understood: list[tuple[int, str]] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    ignored: list[tuple[int, str]] = field(default_factory=list)
    game: str | None = None
    extra_recipients: list[str] = field(default_factory=list)  # e.g. the registered address
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

            power_, part = out.setdefault(address, (power, Reply(game=self.game)))
            part.understood += [u for u in self.understood if inside(u[0])]
            part.notes += [n for n in self.notes if inside(n.line)]
            part.problems += [p for p in self.problems if inside(p.line)]
        return out

    def problem(self, line: int | None, text: str, message: str) -> None:
        self.problems.append(Problem(line, text.strip(), message))


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
    dirty: bool = False                          # a command changed the game: bump its version

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
