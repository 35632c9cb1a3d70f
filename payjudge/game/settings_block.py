"""Reading the setting lines of a CREATE block: a table of setting -> parser.

Each key (RULE, TIMING, MAP, PRIVATE, TAX, CAP, INCOME and the Exchange settings) has one
small parser that records its value, or a problem on its line, in a `SettingsDraft`;
`read_settings` runs them over the block and then checks what needs the whole block (rule
clashes, settings that need a rule). Every problem of the block is reported, not only the
first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..payola.rules import IncomeEvery, IncomeScheme
from ..rules.flag_registry import lookup
from ..rules.flags import Flag
from ..rules.mapfile import MapError, load_variant
from ..rules.phase import FlowError, game_start_phase
from ..text.numbers import whole_number
from ..text.problems import LineError, Problem
from .gamerules import check_rules
from .security import MIN_LENGTH
from .timing import Timing, TimingError

# Exchange Payola's settings (docs/exchange.md, "Setting up"): the bounds of each
EXCHANGE_SETTINGS = {
    "INVESTORS": (2, 20),
    "SHARES": (1, 1000),
    "CAPITAL": (0, 99999),
    "FLOAT": (1, 9999),
    "END": (1, 99999),
}

Line = tuple[int, str]  # a line's number and text, as problems name it


@dataclass
class SettingsDraft:
    """The settings read so far, and the problems found."""

    map_name: str
    maps_dir: Path | None
    money_at: Line  # the last TAX, CAP or INCOME scheme line: where a money problem is told
    flags: list[str] = field(default_factory=list)
    where: dict[str, Line] = field(default_factory=dict)  # the line of each rule name
    timing: Timing = field(default_factory=Timing)
    private: str | None = None
    settings: dict[str, Any] = field(default_factory=dict)
    always: tuple[Flag, ...] = ()
    problems: list[Problem] = field(default_factory=list)

    def problem(self, line: Line, message: str) -> None:
        self.problems.append(Problem(line[0], line[1], None, message))


Parser = Callable[[SettingsDraft, Line, str, list[str]], None]


def _rule(draft: SettingsDraft, line: Line, key: str, args: list[str]) -> None:
    if not args:
        draft.problem(line, "RULE needs a rule name")
    for name in (a.upper() for a in args):
        draft.where.setdefault(name, line)
        draft.flags.append(name)


def _timing(draft: SettingsDraft, line: Line, key: str, args: list[str]) -> None:
    try:
        draft.timing = Timing.parse(" ".join(args))
    except TimingError as exc:
        draft.problem(line, str(exc))


def _map(draft: SettingsDraft, line: Line, key: str, args: list[str]) -> None:
    if len(args) != 1:
        draft.problem(line, "MAP needs one map name")
        return
    name = args[0].lower()
    try:
        m = load_variant(name, draft.maps_dir)
        game_start_phase(m.start_phase, m.first_phase, m.flow)
        draft.map_name = name
    except MapError as exc:
        draft.problem(line, str(exc))
    except FlowError as exc:
        draft.problem(line, f"map {name} cannot be played: {exc}")


def _private(draft: SettingsDraft, line: Line, key: str, args: list[str]) -> None:
    if len(args) != 1 or len(args[0]) < MIN_LENGTH:
        draft.problem(line, f"PRIVATE needs one word of at least {MIN_LENGTH} characters")
    else:
        draft.private = args[0]


def _money(draft: SettingsDraft, line: Line, key: str, args: list[str]) -> None:
    """TAX n, TAX <centre> n, CAP n."""
    usage = f"{key} needs a whole number (TAX n, TAX <centre> n, CAP n)"
    draft.money_at = line
    settings = draft.settings
    try:
        if key == "CAP" and len(args) == 1:
            settings["cap"] = whole_number(args[0], what="CAP")
        elif key == "TAX" and len(args) == 1:
            settings["tax"] = whole_number(args[0], what="TAX")
        elif key == "TAX" and len(args) == 2:
            settings.setdefault("center_tax", {})[args[0].upper()] = whole_number(args[1], what="TAX")
        else:
            draft.problem(line, usage)
    except LineError as exc:
        draft.problem(line, f"{exc.message}: {usage}")


def _income(draft: SettingsDraft, line: Line, key: str, args: list[str]) -> None:
    every = " ".join(a.upper() for a in args)
    if every in ("EVERY YEAR", "EVERY MOVEMENT"):
        draft.settings["income"] = IncomeEvery(every.split()[1].lower())
        draft.where.setdefault("INCOME", line)
    elif every in ("DECREASING", "INCREASING"):
        draft.settings["scheme"] = IncomeScheme(every.lower())
        draft.money_at = line
    else:
        draft.problem(
            line, "INCOME needs EVERY YEAR or EVERY MOVEMENT, or DECREASING or INCREASING (rule 6.6)"
        )


def _exchange(draft: SettingsDraft, line: Line, key: str, args: list[str]) -> None:
    low, high = EXCHANGE_SETTINGS[key]
    usage = f"{key} needs a whole number from {low} to {high}"
    draft.where.setdefault(key, line)
    try:
        value = whole_number(args[0], what=key) if len(args) == 1 else None
    except LineError as exc:
        draft.problem(line, f"{exc.message}: {usage}")
        return
    if value is None or not low <= value <= high:
        draft.problem(line, usage)
    else:
        draft.settings[key.lower()] = value


PARSERS: dict[str, Parser] = {
    "RULE": _rule,
    "RULES": _rule,
    "TIMING": _timing,
    "MAP": _map,
    "PRIVATE": _private,
    "TAX": _money,
    "CAP": _money,
    "INCOME": _income,
    **dict.fromkeys(EXCHANGE_SETTINGS, _exchange),
}


def _check_whole(draft: SettingsDraft) -> None:
    """What only the whole block tells: settings that need (or refuse) a rule, rule clashes."""
    named = {lookup(f) for f in draft.flags}
    settings = draft.settings
    if settings.get("income") is IncomeEvery.MOVEMENT and Flag.ZEROSUM in named:
        draft.problem(
            draft.where["INCOME"],
            "a ZEROSUM game has no tax income: INCOME EVERY MOVEMENT cannot be used with it",
        )
    if Flag.EXCHANGE not in named:
        for key in EXCHANGE_SETTINGS:
            if key in draft.where:
                draft.problem(draft.where[key], f"{key} is a setting of Exchange games: add RULE EXCHANGE")
    check = check_rules(
        draft.flags,
        tax=settings.get("tax"),
        center_taxes=settings.get("center_tax"),
        cap=settings.get("cap"),
        scheme=settings.get("scheme", IncomeScheme.DECREASING),
    )
    for answer in check.refused:  # a clash is reported on the line of its second rule
        draft.problem(draft.where[answer.names[-1]], answer.message)
    if check.settings_problem and not draft.problems:
        draft.problem(draft.money_at, check.settings_problem)
    draft.always = check.always


def read_settings(lines: list[Line], *, default_map: str, maps_dir: Path | None) -> SettingsDraft:
    """Every setting line through its parser, then the checks of the whole block; the
    problems sorted by line."""
    draft = SettingsDraft(default_map, maps_dir, money_at=(lines[0][0] if lines else 0, ""))
    for number, text in lines:
        words = text.split()
        if not words:
            continue
        key = words[0].upper()
        parser = PARSERS.get(key)
        if parser is None:
            draft.problem(
                (number, text), "expected RULE, TIMING, MAP, PRIVATE, TAX, CAP, INCOME or an Exchange setting"
            )
            continue
        parser(draft, (number, text), key, words[1:])
    _check_whole(draft)
    draft.problems.sort(key=lambda p: p.line or 0)
    return draft
