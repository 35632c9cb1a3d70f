"""Invariants the fault tests check in the daemon's database after a crash."""

from __future__ import annotations

from .harness import JudgeProcess


def duplicate_ledger_entries(judge: JudgeProcess) -> list[tuple]:
    """Ledger entries that a phase applied twice: at most one entry of each kind per power
    and turn (opening, bribes, income) may exist."""
    return judge.query(
        "SELECT game_id, power, kind, turn_seq, count(*) FROM ledger_entry "
        "WHERE kind IN ('opening', 'bribes', 'income') "
        "GROUP BY game_id, power, kind, turn_seq HAVING count(*) > 1"
    )


def turns_by_game(judge: JudgeProcess) -> dict[int, list[tuple[int, str, str]]]:
    """Each game's turns as (seq, phase, status), in order."""
    out: dict[int, list[tuple[int, str, str]]] = {}
    for game_id, seq, phase, status in judge.query(
        "SELECT game_id, seq, phase, status FROM turn ORDER BY game_id, seq"
    ):
        out.setdefault(game_id, []).append((seq, phase, status))
    return out


def processed_phases(judge: JudgeProcess) -> dict[int, list[str]]:
    return {g: [p for _, p, s in ts if s == "processed"] for g, ts in turns_by_game(judge).items()}
