"""Game-level operations on phases: process, preview, roll back, and end the game."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from ..payola.exchange.accounts import account_label, investor_key, is_investor
from ..rules.flags import Flag
from ..rules.names import PowerName
from ..rules.serial import position_from_json
from ..store import repo
from ..store.models import Turn
from ..vocabulary import GameStatus, LedgerKind, MailKind, SeatKind, SeatStatus, TurnStatus
from . import exchange, money
from .context import CommandError
from .control import tell_controllers
from .mailer import Mailer
from .notify import broadcast, send_income, send_results, send_statements
from .state import GameState, turns
from .timing import Timing, show_time
from .turns import apply_turn, compute_turn, late_powers, report_json
from .votes import decision


def process_phase(st: GameState, mailer: Mailer, now: datetime) -> Turn:
    """Process the current phase for real: write it, open the next, send the mail."""
    if st.turn is not None and st.turn.phase.is_exchange:
        return _process_exchange(st, mailer, now)
    late = set(late_powers(st))
    comp = compute_turn(st)
    for seat in st.seats:
        if seat.power in late:
            seat.missed += 1
        elif seat.status is SeatStatus.PLAYING:
            seat.missed = 0
    nxt = apply_turn(st, comp, now=now)
    report = report_json(comp, st.rules.flags)
    send_results(st, comp, report, mailer)
    send_statements(st, comp, mailer)
    send_income(st, comp, mailer)
    tell_controllers(st, mailer, comp.control_before, comp.control, vassal=True)
    for power, problems in comp.rejected.items():
        rejected_seat = st.seat(power)
        if rejected_seat and rejected_seat.address:
            mailer.send(
                [rejected_seat.address],
                f"Offer sheet not used {st.game.name} {report['phase']}",
                "sheet_rejected.txt.j2",
                kind=MailKind.NOTICE,
                game=st.game,
                game_name=st.game.name,
                power=power,
                problems=problems,
            )
    if len(comp.winners) > 1:
        end_game(st, mailer, now, {"type": "shared", "powers": list(comp.winners), "phase": report["phase"]})
    elif comp.winner:
        end_game(st, mailer, now, {"type": "victory", "winner": comp.winner, "phase": report["phase"]})
    elif st.game.state is not GameStatus.COMPLETED:
        check_votes(st, mailer, now)
    return nxt


def _process_exchange(st: GameState, mailer: Mailer, now: datetime) -> Turn:
    """An Exchange game's exchange phase (docs/exchange.md, "The phases"): the investors
    who sent nothing are late; `exchange.process_exchange` does the rest."""
    turn = st.turn
    assert turn is not None
    late = set(late_powers(st))
    for seat in st.seats:
        if seat.kind is not SeatKind.INVESTOR or not seat.investor_name:
            continue
        if investor_key(seat.investor_name) in late:
            seat.missed += 1
        elif seat.status is SeatStatus.PLAYING:
            seat.missed = 0
    year = turn.phase.year
    income: dict[str, int] = {}
    for entry in repo.ledger_entries(st.session, st.game):
        if entry.kind is LedgerKind.INCOME and entry.phase.year == year:
            income[str(entry.power)] = income.get(str(entry.power), 0) + entry.amount
    _, nxt = exchange.process_exchange(st, now=now, mailer=mailer, income=income)
    game = st.game
    last = game.settings.get("end")
    # END <year>: after that year's exchange phase, the year as the map counts it
    if last is not None and year >= st.calendar.game_year(int(last)):
        end_game(st, mailer, now, {"type": "calendar", "year": st.calendar.year(turn.phase)})
        return nxt
    check_votes(st, mailer, now)
    game.reminded = []
    game.late_noticed_at = None
    game.ready_at = None
    for seat in game.seats:
        seat.wait = False
    if Flag.NO_DEADLINE in st.rules:
        game.deadline = None
    return nxt


def preview_phase(st: GameState, mailer: Mailer) -> None:
    """The would-be results, to the Master only; nothing changes. (An Exchange game's
    exchange phase has no preview yet: nothing is sent.)"""
    if st.turn is not None and st.turn.phase.is_exchange:
        return
    comp = compute_turn(st)
    report = report_json(comp, st.rules.flags)
    send_results(st, comp, report, mailer, preview=True)
    send_statements(st, comp, mailer, preview=True)


def rollback(st: GameState, mailer: Mailer, now: datetime, target: str | None, restore: bool) -> Turn:
    """Return to the start of the current or of a named earlier phase, money included:
    later turns are marked rolled back and the ledger gets reversing entries."""
    game = st.game
    current = st.turn
    if current is None:
        raise CommandError("the game has no phase to roll back to")
    control = st.control()
    goal: Turn | None
    if target is None:
        goal = current
    else:
        try:
            phase = st.calendar.parse(target)  # the map's names too (A1430M, A.D. 1430 MOVEMENT)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        goal = next((t for t in reversed(turns(st.session, game)) if t.phase == phase), None)
        if goal is None:
            shown = phase if st.calendar.standard else target  # as the Master wrote it
            raise CommandError(f"{game.name} has no phase {shown} to roll back to")
    for t in turns(st.session, game):
        if t.seq > goal.seq:
            t.status = TurnStatus.ROLLED_BACK
    goal.status = TurnStatus.OPEN
    goal.report = None
    goal.chart = None
    goal.processed_at = None
    money.roll_back(st.session, game, goal.seq, phase=goal.phase, now=now)
    if Flag.EXCHANGE in st.rules:
        exchange.roll_back_shares(st.session, game, goal.seq, phase=goal.phase, now=now)
    if not restore:
        repo.retire_submissions(st.session, goal)
    game.phase = goal.phase
    if game.state in (GameStatus.COMPLETED, GameStatus.WAITING):
        game.state = GameStatus.ACTIVE
    game.result = None
    game.ended_at = None
    game.reminded = []
    game.ready_at = None
    timing = Timing.from_json(game.timing)
    pos = position_from_json(st.map, goal.position)
    game.deadline = None if Flag.NO_DEADLINE in st.rules else timing.deadline(pos.phase.type, now)
    st.__dict__.pop("turn", None)
    st.__dict__.pop("position", None)
    tell_controllers(st, mailer, control, st.control())  # the control of the phase returned to
    broadcast(
        st,
        mailer,
        f"Diplomacy rollback {game.name} {st.calendar.short(goal.phase)}",
        "rollback.txt.j2",
        master=Flag.IGNORE_RESULTS not in st.rules,  # seed 003 §1.2: no rollback messages
        phase=pos.phase.title,
        deadline=show_time(game.deadline, timing.zone),
        restore=restore,
    )
    return goal


def check_votes(st: GameState, mailer: Mailer, now: datetime) -> bool:
    """End the game when the surviving powers' standing votes agree (`votes.decision`
    says on what); True if it ended."""
    pos = st.position
    if pos is None or st.game.state is not GameStatus.ACTIVE:
        return False
    result = decision(st, pos)
    if result is not None:
        end_game(st, mailer, now, result)
    return result is not None


def terminate(st: GameState, mailer: Mailer, now: datetime) -> None:
    """The Master's TERMINATE: the game ends without a result, and is published like any
    other end (rules 3.6 and 4.5)."""
    end_game(st, mailer, now, {"type": "terminated"}, state=GameStatus.TERMINATED)


def end_game(
    st: GameState,
    mailer: Mailer,
    now: datetime,
    result: dict[str, Any],
    *,
    state: GameStatus = GameStatus.COMPLETED,
) -> None:
    """End the game and publish every offer sheet, acceptance list and bid chart
    (rules 3.6 and 4.5) to everyone, with the sheets of a movement phase the game ended
    in (a draw or a concession comes between two phases). Under NO_EOG the end-of-game
    mail gives the result and the treasuries only: the sheets, lists and charts stay secret."""
    game = st.game
    if Flag.EXCHANGE in st.rules and state is not GameStatus.TERMINATED:
        # Exchange Payola: the companies are liquidated; the richest investor wins
        result = {**result, "ranking": exchange.liquidate_companies(st, now=now)}
    game.state = state
    game.result = result
    game.ended_at = now
    game.deadline = None
    broadcast(
        st,
        mailer,
        f"Diplomacy game {game.name} has ended",
        "game_end.txt.j2",
        kind=MailKind.GAME_END,
        **end_publication(st),
    )


def end_publication(st: GameState) -> dict[str, Any]:
    """What the end of a game publishes to everyone (rules 3.6 and 4.5): the result, every
    offer sheet, acceptance list and bid chart, the offers Tin Cup ignored (rule 6.3), and
    the final treasuries; under NO_EOG the
    result and the treasuries only. The end notice and the status page of a finished game
    show it."""
    game = st.game
    publish = Flag.NO_EOG not in st.rules
    published = []
    for t in turns(st.session, game) if publish else ():
        if t.status is not TurnStatus.PROCESSED or not t.chart:
            continue
        published.append(
            {
                "phase": st.calendar.title(t.phase),
                "sheets": t.chart.get("sheets", {}),
                "accept": t.chart.get("accept", {}),
                "chart": t.chart.get("chart", {}),
                "ignored": t.chart.get("ignored", {}),
            }
        )
    unfinished = _unfinished_sheets(st) if publish else None
    if unfinished:
        published.append(unfinished)
    acceptance = repo.acceptance_history(st.session, game) if publish else []
    return {
        "result": game.result,
        "turns": published,
        "publish": publish,
        "acceptance": [{"power": a.power, "text": a.text, "set_at": show_time(a.set_at)} for a in acceptance],
        "balances": final_treasuries(money.balances(st.session, game)),
    }


def final_treasuries(balances: Mapping[PowerName, int]) -> list[tuple[str, int]]:
    """The end-of-game list: every power (company) by name, then (Exchange Payola) every
    investor by its own name, never by its account key (`@ALICE`)."""
    ordered = sorted(balances.items(), key=lambda item: (is_investor(item[0]), item[0]))
    return [(account_label(key), amount) for key, amount in ordered]


def _unfinished_sheets(st: GameState) -> dict[str, Any] | None:
    """The sheets and acceptance lists on record for the open movement phase, if any."""
    turn, pos = st.turn, st.position
    if turn is None or pos is None or turn.status is not TurnStatus.OPEN or not pos.phase.is_movement:
        return None
    sheets = {p: sub.text for p, sub in st.submissions().items() if sub.text.strip()}
    if not sheets:
        return None
    accept = {p: text for p in st.map.power_names if (text := st.acceptance_text(p))}
    return {
        "phase": f"{st.calendar.title(pos.phase)} (not processed: the game ended first)",
        "sheets": sheets,
        "accept": accept,
        "chart": {},
        "ignored": {},  # the game_end template reads it for every turn
    }
