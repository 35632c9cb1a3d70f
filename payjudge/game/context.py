"""What a command handler works with, and the structured reply it builds.

`Context` is the message's: it exists before anyone signs on. A handler of a signed-on
command gets a context of its role (`PlayerContext`, `MasterContext`, `SignedContext`),
built once the sign-on succeeded, whose game and power are always there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import ClassVar, Protocol

from ..config import Config
from ..rules.names import PowerName
from ..rules.position import Position
from ..store import Session
from ..store.models import Game, Seat, Turn
from ..templating import clip
from ..text.problems import Problem
from .after import AfterStep
from .mailer import Mailer
from .security import FailedSignon
from .state import MASTER, GameState


class Result(Protocol):
    """A use case's typed result, shown in the reply by `templates/notes/<note>.txt.j2`."""

    note: ClassVar[str]


@dataclass(frozen=True)
class Note:
    """One result for the reply, rendered by `templates/notes/<kind>.txt.j2` (as `note.data`:
    a typed result, `game/notes/` or a use case's own)."""

    kind: str
    line: int | None
    data: Result


@dataclass(frozen=True)
class ReplyLimits:
    """How much of a message a reply repeats (issue 8): a reply stays far below the
    inbound size limit whatever was sent, and says what it left out."""

    understood: int = 100  # lines echoed under UNDERSTOOD
    errors: int = 40  # problems shown under ERRORS
    notes: int = 40  # results shown under RESULTS
    ignored: int = 10  # lines echoed under IGNORED
    sheet_lines: int = 200  # lines of an offer sheet shown in a result
    line_width: int = 120  # characters of a line as the player wrote it
    message_width: int = 300  # characters of one error message
    results_bytes: int = 80_000  # the RESULTS section (HISTORY of a long game is cut here)
    body_bytes: int = 100_000  # the whole reply text, in UTF-8


REPLY_LIMITS = ReplyLimits()


class EmptyReply(RuntimeError):
    """A reply that would tell its sender nothing: a failure of ours, never mailed (the
    processor quarantines the message and tells the sender it was set aside)."""


@dataclass(frozen=True)
class ErrorLine:
    """The problems of one line: the line is written once, then each problem."""

    line: int | None
    text: str
    messages: list[str]


@dataclass(frozen=True)
class ReplyView:
    """What `templates/reply.txt.j2` shows (as `v`)."""

    ok: bool  # the message took effect
    understood: list[tuple[int, str]]
    understood_more: int
    notes: list[Note]
    notes_more: int
    errors: list[ErrorLine]
    errors_more: int
    ignored: list[tuple[int, str]]
    ignored_more: int
    skipped: dict[str, int]
    limits: ReplyLimits
    game_name: str | None
    copy_for: str | None = None  # the power a copy of the Master's reply is for
    confirm_for: str | None = None  # the power whose orders a copy for the Master confirms


@dataclass
class Reply:
    understood: list[tuple[int, str]] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    ignored: list[tuple[int, str]] = field(default_factory=list)
    skipped: dict[str, int] = field(default_factory=dict)  # lines never read, by why
    game: str | None = None
    extra_recipients: list[str] = field(default_factory=list)  # e.g. the registered address
    _texts: dict[int, str] = field(default_factory=dict, repr=False)
    # the Master's FOR lines: (line, power, the power's registered address or None)
    acting_for: list[tuple[int, str, str | None]] = field(default_factory=list)
    # ALWAYS_CONFIRM: the Master's address, the power, and the lines of its order updates
    to_master: tuple[str, str, list[int]] | None = None

    def result(self, line: int | None, result: Result) -> None:
        self.notes.append(Note(result.note, line, result))

    def _part(self, inside: Callable[[int | None], bool]) -> Reply:
        """The part of this reply on the lines of the message `inside` accepts."""
        part = Reply(game=self.game)
        part.understood = [u for u in self.understood if inside(u[0])]
        part.notes = [n for n in self.notes if inside(n.line)]
        part.problems = [p for p in self.problems if inside(p.line)]
        return part

    def copies(self) -> dict[str, tuple[str, Reply]]:
        """What a power's registered address gets of a Master's reply: only the lines of
        the Master's FOR <power> sections (a section ends at the next FOR), so a power
        never sees what the Master did for another. Keyed by address."""
        sections: dict[str, tuple[str, list[tuple[int, int | None]]]] = {}
        starts = [line for line, _, _ in self.acting_for]
        for i, (line, power, address) in enumerate(self.acting_for):
            if address:
                end = starts[i + 1] if i + 1 < len(starts) else None
                sections.setdefault(address, (power, []))[1].append((line, end))

        def within(spans: list[tuple[int, int | None]]) -> Callable[[int | None], bool]:
            return lambda n: n is not None and any(n >= a and (b is None or n < b) for a, b in spans)

        return {address: (power, self._part(within(spans))) for address, (power, spans) in sections.items()}

    def confirm_to_master(self, address: str, power: str, lines: list[int]) -> None:
        """ALWAYS_CONFIRM (seed 003, 1.3): the Master gets a copy of what the judge answered
        to these order lines."""
        if self.to_master is None:
            self.to_master = (address, power, [])
        self.to_master[2].extend(lines)

    def master_copy(self) -> tuple[str, str, Reply] | None:
        """The Master's copy under ALWAYS_CONFIRM: only the order lines' part of the reply
        (what a player writes beside its orders — press, passwords, ACCEPT — is not the
        Master's to read here)."""
        if self.to_master is None:
            return None
        address, power, lines = self.to_master
        return address, power, self._part(set(lines).__contains__)

    def copy_view(
        self, *, ok: bool, copy_for: str | None = None, confirm_for: str | None = None
    ) -> ReplyView:
        """The view of a copy (`copies`, `master_copy`): nothing of the IGNORED section.
        A copy may hold no line of its own (a FOR section the Master left empty)."""
        return replace(
            self._view(ok, REPLY_LIMITS),
            ignored=[],
            ignored_more=0,
            skipped={},
            copy_for=copy_for,
            confirm_for=confirm_for,
        )

    def problem(self, line: int | None, text: str, message: str) -> None:
        """A command refused: a problem of no kind."""
        self.add(Problem(line, text, None, message))

    def add(self, problem: Problem) -> None:
        # a line with many problems keeps one copy of its text
        line = problem.line
        if line is not None and line in self._texts:
            text = self._texts[line]
        else:
            text = problem.text.strip()
            if line is not None:
                self._texts[line] = text
        self.problems.append(problem.at(line, text))

    def view(self, *, ok: bool, limits: ReplyLimits = REPLY_LIMITS) -> ReplyView:
        """What `templates/reply.txt.j2` shows: a line with a problem is listed under
        ERRORS only, each section is cut at its limit with a count of the rest.

        A message that took effect had at least one command understood, and one that
        did not had at least one problem (`service.processor` adds one to a message
        with no command): a reply with neither would tell its sender nothing, not even
        their power after a JOIN, and is refused (`EmptyReply`)."""
        if (ok and not self.understood and not self.notes) or (not ok and not self.problems):
            raise EmptyReply(
                f"a reply {'to a message that took effect' if ok else 'refusing a message'} "
                f"with nothing to say (understood {len(self.understood)}, results "
                f"{len(self.notes)}, problems {len(self.problems)})"
            )
        return self._view(ok, limits)

    def _view(self, ok: bool, limits: ReplyLimits) -> ReplyView:
        width = limits.line_width
        bad = {p.line for p in self.problems if p.line is not None}
        understood = sorted(u for u in self.understood if u[0] not in bad)
        problems = sorted(self.problems, key=lambda p: p.line or 0)
        errors: list[ErrorLine] = []
        for p in problems[: limits.errors]:
            message = clip(p.described, limits.message_width)
            if errors and p.line is not None and errors[-1].line == p.line:
                errors[-1].messages.append(message)
            else:
                errors.append(ErrorLine(p.line, clip(p.text, width), [message]))
        ignored = sorted(self.ignored)
        return ReplyView(
            ok=ok,
            understood=[(n, clip(t, width)) for n, t in understood[: limits.understood]],
            understood_more=max(0, len(understood) - limits.understood),
            notes=self.notes[: limits.notes],
            notes_more=max(0, len(self.notes) - limits.notes),
            errors=errors,
            errors_more=max(0, len(problems) - limits.errors),
            ignored=[(n, clip(t, width)) for n, t in ignored[: limits.ignored]],
            ignored_more=max(0, len(ignored) - limits.ignored),
            skipped=dict(self.skipped),
            limits=limits,
            game_name=self.game,
        )


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
    actor: str | None = None  # a power name, MASTER, or an observer name
    signed_power: PowerName | None = None  # the actor when a power signed on (typed)
    observer: bool = False
    acting_for: PowerName | None = None  # the power the Master (or a controller) acts for after FOR
    inbound_id: int | None = None
    # a message the web stored for a live session: (game, party) it signs on as, no password
    web_party: tuple[str, str] | None = None
    after: list[AfterStep] = field(default_factory=list)  # steps queued for after every command
    signon_failure: FailedSignon | None = None  # a wrong password, counted after the rollback
    exchange_traded: set[str] = field(default_factory=set)  # accounts with a trade line in this message
    exchange_worths: set[str] = field(default_factory=set)  # accounts whose worths are checked at the end

    @property
    def game(self) -> Game:
        assert self.state is not None
        return self.state.game

    def then(self, step: AfterStep) -> None:
        """Queue a step to run once every command of the message has (`game/after.py`)."""
        if step not in self.after:
            self.after.append(step)

    @property
    def is_master(self) -> bool:
        return self.actor == MASTER

    @property
    def power(self) -> PowerName | None:
        """The power the commands act for (the Master's FOR power, or the player's)."""
        if self.is_master:
            return self.acting_for
        return None if self.observer else self.acting_for or self.signed_power

    def signed(self) -> SignedContext | None:
        """The context of anyone signed on (a power, the Master or an observer), if signed on."""
        if self.actor is None or self.state is None:
            return None
        return SignedContext(self, self.state, self.actor, self.observer)

    def player(self) -> PlayerContext | None:
        """The context of a power's commands: the player's, or the Master's after FOR."""
        power = self.power
        if power is None or self.state is None:
            return None
        return PlayerContext(self, self.state, power)

    def master(self) -> MasterContext | None:
        if not self.is_master or self.state is None:
            return None
        return MasterContext(self, self.state)


@dataclass(frozen=True)
class GameContext:
    """A signed-on command's context: the message's, and its game, always there."""

    message: Context
    state: GameState

    @property
    def session(self) -> Session:
        return self.message.session

    @property
    def config(self) -> Config:
        return self.message.config

    @property
    def now(self) -> datetime:
        return self.message.now

    @property
    def sender(self) -> str:
        return self.message.sender

    @property
    def reply(self) -> Reply:
        return self.message.reply

    @property
    def mailer(self) -> Mailer:
        return self.message.mailer

    def then(self, step: AfterStep) -> None:
        self.message.then(step)

    @property
    def game(self) -> Game:
        return self.state.game

    @property
    def turn(self) -> Turn:
        """The current turn; a game that has not started refuses the command."""
        turn = self.state.turn
        if turn is None:
            raise CommandError(f"{self.game.name} is {self.game.state}: it has no phase yet")
        return turn

    @property
    def position(self) -> Position:
        position = self.state.position
        if position is None:
            raise CommandError(f"{self.game.name} is {self.game.state}: it has no phase yet")
        return position


@dataclass(frozen=True)
class PlayerContext(GameContext):
    """A power's command: `power` is the player's power, or the Master's FOR power."""

    power: PowerName

    @property
    def seat(self) -> Seat:
        seat = self.state.seat(self.power)
        if seat is None:
            raise CommandError(f"{self.power} has no seat in {self.game.name}")
        return seat


@dataclass(frozen=True)
class MasterContext(GameContext):
    """A Master's command."""

    def act_for(self, power: PowerName) -> None:
        """FOR <power>: the player commands below act for `power`."""
        self.message.acting_for = power


@dataclass(frozen=True)
class SignedContext(GameContext):
    """A command for anyone signed on (press): a power, the Master or an observer."""

    actor: str  # a power name, MASTER, or an observer name
    observer: bool

    @property
    def acting_for(self) -> PowerName | None:
        return self.message.acting_for
