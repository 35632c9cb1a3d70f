"""What the reports report: LIST, LIST MAPS, SUMMARY, HISTORY, HELP and HELP RULES, and the
reports a message asked for beyond its share."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ...rules.names import PowerName
from ...vocabulary import GameStatus, SeatStatus
from ..exchange import CompanyStanding
from ..gamerules import SectionRows


@dataclass(frozen=True)
class MapRow:
    """One map of LIST MAPS."""

    name: str
    powers: list[str]
    centres: int
    victory: int  # centres to win
    first_phase: str


@dataclass(frozen=True)
class MapList:
    """`templates/notes/map_list.txt.j2`: LIST MAPS."""

    note: ClassVar[str] = "map_list"
    maps: list[MapRow]


@dataclass(frozen=True)
class GameRow:
    """One game of LIST."""

    name: str
    state: GameStatus
    phase: str | None  # the phase's title, as the game's map names it
    open: int  # seats still open
    private: bool


@dataclass(frozen=True)
class GameList:
    """`templates/notes/game_list.txt.j2`: LIST, the games open for joining."""

    note: ClassVar[str] = "game_list"
    games: list[GameRow]


@dataclass(frozen=True)
class PowerRow:
    """One power of SUMMARY; None counts are hidden from this reader (BLIND)."""

    name: PowerName
    status: SeatStatus
    centers: int | None
    units: int | None
    controller: PowerName | None


@dataclass(frozen=True)
class InvestorRow:
    """One investor of an Exchange game's SUMMARY."""

    name: str
    status: SeatStatus


@dataclass(frozen=True)
class GameSummary:
    """`templates/notes/summary.txt.j2`: SUMMARY, or LIST <game>."""

    note: ClassVar[str] = "summary"
    game: str
    state: GameStatus
    phase: str | None  # the phase's title
    deadline: str | None
    rules: list[str]
    timing: str
    powers: list[PowerRow]  # in the map's order (an Exchange game's companies' rows too)
    open: int
    late: list[PowerName]  # only under LIST_UNORDERED
    waiting: list[PowerName]  # only under LIST_WAITERS
    result: Mapping[str, Any] | None  # the game's stored result, once it is over
    companies: list[CompanyStanding]  # Exchange only, in the order of `powers`
    investors: list[InvestorRow]  # Exchange only


@dataclass(frozen=True)
class GameHistory:
    """`templates/notes/history.txt.j2`: HISTORY, each phase's results as text."""

    note: ClassVar[str] = "history"
    game: str
    results: list[str]


@dataclass(frozen=True)
class RulesHelp:
    """`templates/notes/help_rules.txt.j2`: HELP RULES."""

    note: ClassVar[str] = "help_rules"
    sections: tuple[SectionRows, ...]
    counts: tuple[tuple[str, int], ...]  # (status, how many flags have it)


@dataclass(frozen=True)
class HelpEntry:
    """One command (or setting) of HELP."""

    syntax: str
    summary: str


@dataclass(frozen=True)
class CommandHelp:
    """`templates/notes/help.txt.j2`: HELP, built from the command registry."""

    note: ClassVar[str] = "help"
    groups: dict[str, list[HelpEntry]]  # by who may send them (opener, player, signed, master)
    exchange: dict[str, list[HelpEntry]]  # the Exchange section, grouped the same way
    exchange_settings: list[HelpEntry]


@dataclass(frozen=True)
class ReportsSkipped:
    """`templates/notes/reports_skipped.txt.j2`: the reports past a message's share."""

    note: ClassVar[str] = "reports_skipped"
    count: int
    most: int  # reports answered in one message
