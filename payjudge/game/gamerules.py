"""The rule flags a game may use, as CREATE, HELP RULES and docs/rules.md read them from the
flag registry (payjudge/rules/flag_registry.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..payola.rules import IncomeScheme, PayolaRules, RulesError
from ..rules.flag_registry import REGISTRY, Answer, Verdict, assess, closure, lookup, split_off
from ..rules.flags import SECTIONS, Flag, FlagInfo, Status


@dataclass(frozen=True)
class RulesCheck:
    """CREATE's verdict on the RULE lines and money settings of a new game."""

    refused: tuple[Answer, ...]  # a game with any of these would not be created
    always: tuple[Flag, ...]  # named, accepted, and in force in every game anyway
    settings_problem: str | None = None

    @property
    def ok(self) -> bool:
        return not self.refused and self.settings_problem is None


def check_rules(
    names: list[str],
    *,
    tax: int | None = None,
    center_taxes: dict[str, int] | None = None,
    cap: int | None = None,
    scheme: IncomeScheme = IncomeScheme.DECREASING,
) -> RulesCheck:
    """Everything CREATE must know before it accepts a game: a game it accepts can start."""
    answers = assess(names)
    refused = tuple(a for a in answers if a.refused)
    always = tuple(a.flags[0] for a in answers if a.verdict is Verdict.ALWAYS)
    problem = None
    if not refused:
        try:  # the very value the game will be started with
            PayolaRules.from_flags(names, tax=tax, center_taxes=center_taxes, cap=cap, scheme=scheme)
        except RulesError as exc:
            problem = str(exc)
    return RulesCheck(refused, always, problem)


@dataclass(frozen=True)
class FlagRow:
    """One flag of the rules table (HELP RULES, docs/rules.md)."""

    name: str
    aliases: tuple[str, ...]
    sections: tuple[str, ...]
    status: str
    summary: str
    reason: str
    brings: tuple[str, ...]  # "NO_LATE_CHANGES unless LATE_CHANGES" for a default
    excludes: tuple[str, ...]


@dataclass(frozen=True)
class SectionRows:
    number: str
    title: str
    rows: tuple[FlagRow, ...]


def _row(info: FlagInfo) -> FlagRow:
    order = list(Flag)
    brings = [
        f"{f.value} (RULE !{f.value} turns it off)" if f in info.disable else f.value
        for f in sorted(info.implies, key=order.index)
    ]
    brings += [f"{f.value} unless {unless.value}" for f, unless in info.defaults]
    return FlagRow(
        info.name,
        info.aliases,
        info.sections,
        info.status.value,
        info.summary,
        info.reason,
        tuple(brings),
        tuple(f.value for f in sorted(info.excludes, key=order.index)),
    )


def rules_table() -> tuple[SectionRows, ...]:
    """Every flag of the registry, by the catalog section that describes it."""
    return tuple(
        SectionRows(number, title, tuple(_row(info) for info in REGISTRY.values() if info.section == number))
        for number, title in SECTIONS.items()
    )


def status_counts() -> tuple[tuple[str, int], ...]:
    """How many flags have each status, in the order of `Status`."""
    return tuple(
        (status.value, sum(1 for info in REGISTRY.values() if info.status is status)) for status in Status
    )


def listed_rules(names: Sequence[str], *, master: bool = False) -> list[str]:
    """A game's rules as every list of them shows them (CREATE's reply, the welcome,
    SUMMARY, `payjudge game show`): the names the Master wrote, then each flag in force
    that they bring with them, saying which brought it ("TEAM_VICTORY (brought by
    VASSAL_DUMMIES)"). EAVESDROP stays secret unless the Master wrote it EAVESDROP!
    (seed 003 §1.2); `master`: for the Master and the operator, who see it."""
    words, off_words = split_off(names)
    written = [f for f in map(lookup, words) if f is not None]
    off = [f for f in map(lookup, off_words) if f is not None]
    public_eavesdrop = any(n.strip().upper() == "EAVESDROP!" for n in names)
    secret = set() if master or public_eavesdrop else {Flag.EAVESDROP}
    shown = [n for n in names if master or public_eavesdrop or lookup(n) is not Flag.EAVESDROP]
    in_force = PayolaRules.from_flags(names).flags
    order = list(Flag)
    for flag in sorted(in_force - set(written) - secret, key=order.index):
        by = next((w for w in written if flag in closure([w], off)), None)
        shown.append(
            f"{flag.value} (brought by {by.value})" if by else f"{flag.value} (brought by the others)"
        )
    return shown
