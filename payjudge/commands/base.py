"""The command registry: one small handler class per mail command. It also writes HELP."""

from __future__ import annotations

from typing import ClassVar

from ..game.context import CommandError, Context
from ..text.commands import Command

OPENER, SIGNED, PLAYER, MASTER = "opener", "signed", "player", "master"

REGISTRY: dict[str, "Handler"] = {}


class Handler:
    keyword: ClassVar[str]         # "ACCEPT", or "SET WAIT" for a SET sub-command
    syntax: ClassVar[str]
    summary: ClassVar[str]
    who: ClassVar[str] = PLAYER    # opener | signed (anyone signed on) | player | master
    secret_args: ClassVar[tuple[int, ...]] = ()   # argument positions never echoed

    def run(self, ctx: Context, cmd: Command) -> None:
        raise NotImplementedError

    def echo(self, cmd: Command) -> str:
        words = cmd.text.split("%", 1)[0].split()
        offset = len(self.keyword.split())
        for i in self.secret_args:
            if offset + i < len(words):
                words[offset + i] = "********"
        return " ".join(words)


def register(cls: type[Handler]) -> type[Handler]:
    REGISTRY[cls.keyword] = cls()
    return cls


def lookup(cmd: Command) -> Handler | None:
    if cmd.keyword == "SET" and cmd.args:
        return REGISTRY.get(f"SET {cmd.args[0].upper()}")
    return REGISTRY.get(cmd.keyword)


def require(condition: bool, message: str) -> None:
    if not condition:
        raise CommandError(message)


def sub_args(cmd: Command) -> tuple[str, ...]:
    """The arguments after a two-word keyword like SET WAIT."""
    return cmd.args[1:] if cmd.keyword == "SET" else cmd.args
