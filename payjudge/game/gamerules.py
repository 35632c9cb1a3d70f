"""The rule flags a game may use: Payola's own and the judge's."""

from __future__ import annotations

from ..payola.rules import ALIASES, Flag

PAYOLA_FLAGS = {f.value for f in Flag} | set(ALIASES)

JUDGE_FLAGS = {
    "POWER_CHOICE": "players may choose their power when joining (JOIN <power>@<game>)",
    "START_MASTER": "the game starts only when the Master ACTIVATEs it",
    "NO_PRESS": "no press between players (the Master may still write)",
    "PUBLIC_PRESS": "press may only be broadcast",
    "CIVIL_DISORDER": "after the grace period late powers' units hold and the phase is processed",
    "CIVIL_PREVIEW": "after the grace period the Master gets a preview and must PROCESS!",
    "PREVIEW": "every phase is previewed to the Master, who releases it with PROCESS",
    "NO_ABSENCES": "players may not SET ABSENCE",
    "ALWAYS_WAIT": "never process before the deadline, even when every power is ready",
    "SILENT_JOIN": "do not announce each player who joins",
}


def check_flags(flags: list[str]) -> list[str]:
    problems = []
    for flag in flags:
        if flag not in JUDGE_FLAGS and flag not in PAYOLA_FLAGS:
            problems.append(f"unknown rule {flag}")
    if "CIVIL_DISORDER" in flags and "CIVIL_PREVIEW" in flags:
        problems.append("CIVIL_DISORDER and CIVIL_PREVIEW cannot be used together")
    return problems
