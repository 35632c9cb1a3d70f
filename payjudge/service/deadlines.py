"""What the clock does to a game: process at the deadline (or early, once every power is
ready and a settle delay has passed), remind late powers before it, and after it send late
notices, apply civil disorder (CIVIL_DISORDER) or preview to the Master (CIVIL_PREVIEW).

Each game is handled in its own transaction with its row locked, and every condition is
checked again under the lock, so two daemons on one PostgreSQL never process the same
phase twice, and a deadline that passed while the daemon was down is processed at start.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any, Protocol

from ..config import Config
from ..game.mailer import Mailer
from ..game.notify import power_address
from ..game.phases import preview_phase, process_phase
from ..game.state import GameState
from ..game.timing import Timing, format_duration, show_time
from ..game.turns import is_ready, late_powers
from ..rules.flags import Flag
from ..rules.names import PowerName
from ..store import repo
from ..store.db import Database
from ..vocabulary import GameStatus, MailKind

log = logging.getLogger("payjudge.deadlines")

LATE_NOTICE_EVERY = timedelta(hours=24)


def due_games(db: Database) -> list[int]:
    """Games that may have something to do now (cheap; each is checked again under lock)."""
    with db.transaction() as s:
        return repo.active_game_ids(s)


class Schedule(Protocol):
    """What `next_wakeup` reads of a game: a `Game`, or a row of `repo.schedule_rows`."""

    @property
    def state(self) -> GameStatus: ...
    @property
    def deadline(self) -> datetime | None: ...
    @property
    def ready_at(self) -> datetime | None: ...
    @property
    def timing(self) -> dict[str, Any]: ...
    @property
    def reminded(self) -> list[str] | None: ...


def next_wakeup(game: Schedule, settle: timedelta) -> datetime | None:
    """When the clock next matters for this game (for the scheduler's one-shot jobs)."""
    if game.state is not GameStatus.ACTIVE:
        return None
    if game.deadline is None:  # NO_DEADLINE: only readiness moves the game
        return game.ready_at + settle if game.ready_at is not None else None
    times = [game.deadline]
    timing = Timing.from_json(game.timing)
    for offset in timing.warn:
        if format_duration(offset) not in (game.reminded or []):
            times.append(game.deadline - offset)
    if game.ready_at is not None:
        times.append(game.ready_at + settle)
    if timing.grace:
        times.append(game.deadline + timing.grace)
    return min(times)


def tick_all(db: Database, config: Config, now: datetime) -> list[str]:
    actions = []
    for game_id in due_games(db):
        try:
            action = tick_game(db, config, game_id, now)
        except Exception:  # one game's failure never stops the others
            log.exception("deadline handling failed for game %s", game_id)
            continue
        if action:
            actions.append(action)
    return actions


def tick_game(db: Database, config: Config, game_id: int, now: datetime) -> str | None:
    with db.transaction() as s:
        game = repo.game_by_id(s, game_id, lock=True)
        if game is None or game.state is not GameStatus.ACTIVE:
            return None
        st = GameState(s, game, config.maps_path)
        if st.turn is None or (game.deadline is None and Flag.NO_DEADLINE not in st.rules):
            return None
        mailer = Mailer(s, config, now)
        timing = Timing.from_json(game.timing)
        late = late_powers(st)
        if game.deadline is not None and now >= game.deadline:
            return _after_deadline(st, mailer, timing, late, now)
        # REAL_TIME: processed as soon as the last orders arrive
        settle = timedelta(0) if Flag.REAL_TIME in st.rules else timedelta(seconds=config.settle_seconds)
        return _before_deadline(st, mailer, timing, late, settle, now)


def _after_deadline(
    st: GameState, mailer: Mailer, timing: Timing, late: list[PowerName], now: datetime
) -> str | None:
    """At or past the deadline: the Master's preview (PREVIEW), the phase processed once
    every power's orders are in or, after the grace, in civil disorder (CIVIL_DISORDER) or
    previewed for the Master (CIVIL_PREVIEW); otherwise a late notice once a day."""
    game = st.game
    phase = game.phase
    assert game.deadline is not None
    if not late and Flag.PREVIEW in st.rules:
        if game.previewed_phase == phase:
            return None
        preview_phase(st, mailer)
        game.previewed_phase = phase
        game.version += 1
        return f"{game.name} {phase}: preview sent to the Master (rule PREVIEW)"
    if not late:
        return _process(st, mailer, now, f"{game.name} {phase}: processed at the deadline")
    grace_end = game.deadline + timing.grace
    if now >= grace_end and Flag.CIVIL_DISORDER in st.rules:
        return _process(
            st, mailer, now, f"{game.name} {phase}: processed in civil disorder ({', '.join(late)})"
        )
    if now >= grace_end and Flag.CIVIL_PREVIEW in st.rules and game.cd_previewed_phase != phase:
        preview_phase(st, mailer)
        game.cd_previewed_phase = phase
        game.version += 1
        return f"{game.name} {phase}: civil-disorder preview sent to the Master"
    if game.late_noticed_at is None or now - game.late_noticed_at >= LATE_NOTICE_EVERY:
        return _late_notice(st, mailer, timing, late, now)
    return None


def _late_notice(st: GameState, mailer: Mailer, timing: Timing, late: list[PowerName], now: datetime) -> str:
    """Each late power is told (of itself alone under HIDE_LATE_POWERS), and the Master of all."""
    game = st.game
    assert game.deadline is not None
    hidden = Flag.HIDE_LATE_POWERS in st.rules
    grace_end = game.deadline + timing.grace
    notice: dict[str, Any] = {
        "game_name": game.name,
        "phase": game.phase,
        "deadline": show_time(game.deadline, timing.zone),
        "grace_end": show_time(grace_end, timing.zone) if timing.grace else None,
        "civil_disorder": Flag.CIVIL_DISORDER in st.rules,
    }
    subject = f"Diplomacy late notice {game.name} {game.phase}"

    def tell(to: list[str], told: list[PowerName]) -> None:
        mailer.send(to, subject, "late.txt.j2", kind=MailKind.LATE, game=game, late=told, **notice)

    for power in late:
        tell(power_address(st, power), [power] if hidden else late)
    tell([game.master_address], late)
    game.late_noticed_at = now
    game.version += 1
    return f"{game.name} {game.phase}: late notice ({', '.join(late)})"


def _before_deadline(
    st: GameState, mailer: Mailer, timing: Timing, late: list[PowerName], settle: timedelta, now: datetime
) -> str | None:
    """Before the deadline (or with none): reminders, and the phase processed early once
    every power is ready and the settle delay has passed (never under PREVIEW)."""
    game = st.game
    phase = game.phase
    ready = is_ready(st)
    # reminders first, so that their times are used up even when nobody needs one (the
    # scheduler must not keep waking up for them)
    sent = _remind(st, mailer, timing, late, now) if game.deadline is not None else None
    if ready and Flag.PREVIEW not in st.rules:
        if game.ready_at is None:
            game.ready_at = now
            game.version += 1
            if settle <= timedelta(0):
                return _process(st, mailer, now, f"{game.name} {phase}: processed early")
            return sent
        if now >= game.ready_at + settle:
            return _process(st, mailer, now, f"{game.name} {phase}: processed early")
        return sent
    if not ready and game.ready_at is not None:
        game.ready_at = None
        game.version += 1
    return sent


def _remind(
    st: GameState, mailer: Mailer, timing: Timing, late: list[PowerName], now: datetime
) -> str | None:
    """Send each due reminder once, to the late powers. A reminder that would fall before
    the phase opened (a phase shorter than the warning) is not sent at all."""
    game = st.game
    deadline = game.deadline
    # the scheduler reminds only in a running game with a deadline, hence a current turn
    assert deadline is not None
    sent = None
    for offset in sorted(timing.warn, reverse=True):
        key = format_duration(offset)
        when = deadline - offset
        if key in (game.reminded or []) or now < when:
            continue
        game.reminded = [*(game.reminded or []), key]
        game.version += 1
        turn = st.turn
        assert turn is not None
        if when < turn.opened_at or not late:
            continue
        pos = st.position
        assert pos is not None
        for power in late:
            mailer.send(
                power_address(st, power),
                f"Diplomacy reminder {game.name} {game.phase}",
                "reminder.txt.j2",
                kind=MailKind.REMINDER,
                game=game,
                game_name=game.name,
                power=power,
                phase=game.phase,
                movement=pos.phase.is_movement,
                deadline=show_time(deadline, timing.zone),
            )
        sent = f"{game.name} {game.phase}: reminder {key} before the deadline"
    return sent


def _process(st: GameState, mailer: Mailer, now: datetime, what: str) -> str:
    st.game.version += 1
    process_phase(st, mailer, now)
    log.info(what)
    return what
