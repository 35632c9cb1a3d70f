"""The command registry: one small handler class per mail command. It also writes HELP.

A handler gets the context of its role (`who`): an opener the message's `Context`, a
power's command a `PlayerContext`, the Master's a `MasterContext`, press a
`SignedContext`; `service.execute` builds it once the sign-on succeeded.
"""

from __future__ import annotations

from typing import Any, ClassVar, Generic, TypeVar

from ..game.context import CommandError, Context, MasterContext, PlayerContext, SignedContext
from ..game.roles import Role
from ..text.commands import ANYWHERE, COMMANDS, OPENERS, Command

REGISTRY: dict[str, Handler[Any]] = {}

C = TypeVar("C")
T = TypeVar("T")


class Handler(Generic[C]):
    keyword: ClassVar[str]  # "ACCEPT", or "SET WAIT" for a SET sub-command
    syntax: ClassVar[str]
    summary: ClassVar[str]
    who: ClassVar[Role]
    secret_args: ClassVar[tuple[int, ...]] = ()  # argument positions never echoed
    # Exchange Payola (docs/exchange.md): the command's forms in an Exchange game, each
    # (syntax, summary), listed in HELP's Exchange section; `exchange_only`: listed there alone
    exchange: ClassVar[tuple[tuple[str, str], ...]] = ()
    exchange_only: ClassVar[bool] = False

    def run(self, ctx: C, cmd: Command) -> None:
        raise NotImplementedError

    def echo(self, cmd: Command) -> str:
        words = cmd.text.split("%", 1)[0].split()
        offset = len(self.keyword.split())
        for i in self.secret_args:
            if offset + i < len(words):
                words[offset + i] = "********"
        return " ".join(words)


class OpenerHandler(Handler[Context]):
    who = Role.OPENER


class PlayerHandler(Handler[PlayerContext]):
    who = Role.PLAYER


class MasterHandler(Handler[MasterContext]):
    who = Role.MASTER


class SignedHandler(Handler[SignedContext]):
    who = Role.SIGNED


H = TypeVar("H", bound=type[Handler[Any]])


def register(cls: H) -> H:
    REGISTRY[cls.keyword] = cls()
    return cls


def lookup(cmd: Command) -> Handler[Any] | None:
    if cmd.keyword == "SET" and cmd.args:
        return REGISTRY.get(f"SET {cmd.args[0].upper()}")
    return REGISTRY.get(cmd.keyword)


def set_words() -> str:
    """The SET sub-commands, the players' first: `WAIT, NOWAIT, …, TIMING`."""
    handlers = [h for h in REGISTRY.values() if h.keyword.startswith("SET ")]
    handlers.sort(key=lambda h: h.who is Role.MASTER)  # stable: registration order otherwise
    return ", ".join(h.keyword.split()[1] for h in handlers)


def check_vocabulary() -> None:
    """The splitter's words (text/commands.py) are exactly the registry's: an opener
    handler for each opener, a handler for each command word."""
    openers = {h.keyword for h in REGISTRY.values() if h.who is Role.OPENER}
    words = {h.keyword.split()[0] for h in REGISTRY.values() if h.who is not Role.OPENER}
    if openers != set(OPENERS) or words != set(COMMANDS) or not openers >= ANYWHERE:
        raise RuntimeError(
            f"text.commands and the command registry differ: openers "
            f"{sorted(openers ^ set(OPENERS))}, commands {sorted(words ^ COMMANDS)}"
        )


def require(condition: bool, message: str) -> None:
    if not condition:
        raise CommandError(message)


def found(value: T | None, message: str) -> T:
    """`value`, or the command is refused with `message` (a power, a seat, an identity)."""
    if value is None:
        raise CommandError(message)
    return value


def sub_args(cmd: Command) -> tuple[str, ...]:
    """The arguments after a two-word keyword like SET WAIT."""
    return cmd.args[1:] if cmd.keyword == "SET" else cmd.args
