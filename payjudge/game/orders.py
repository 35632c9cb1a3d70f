"""Offer sheets and orders as a power sends them: a message's order lines form the
power's new sheet (a movement phase, rule 3.1) or its retreat or build orders, which
replace what it had on record; CLEAR empties them.

A sheet or a set of orders with any problem is refused whole, with every problem on its
line of the message (`text.problems.Problem`, its kind kept).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar

from ..rules.adjustments import allowance, build_sites
from ..rules.errors import OrderError
from ..rules.flags import Flag
from ..rules.names import PowerName
from ..rules.parse import parse_order
from ..rules.phase import Phase
from ..rules.position import Position
from ..rules.validate import validate
from ..store import repo
from ..store.models import Submission, Turn
from ..text.problems import Problem
from ..text.sheet import parse_sheet
from ..vocabulary import SubmissionKind
from . import money
from .context import CommandError
from .state import GameState


@dataclass(frozen=True)
class SheetTaken:
    """`templates/notes/sheet.txt.j2`."""

    note: ClassVar[str] = "sheet"
    power: PowerName
    phase: str
    sheet: str  # the sheet as the judge understood it
    total: int | None  # what the offers add up to, if that is one number
    balance: int
    over: bool  # the offers add up to more than the balance (rule 5.5)
    counts: bool = True  # False: no offer in it, from a power that must send one (rule 3.3)


@dataclass(frozen=True)
class OrdersTaken:
    """`templates/notes/orders.txt.j2`."""

    note: ClassVar[str] = "orders"
    power: PowerName
    phase: str
    orders: list[str]
    # an adjustment phase: the builds (positive) or removals (negative) due to the power,
    # which it knows even in a BLIND game (seed 003 §1.6); None in a retreat phase
    due: int | None = None


@dataclass(frozen=True)
class Refused:
    """Nothing was taken: the problems, each on its line of the message."""

    problems: tuple[Problem, ...]


@dataclass(frozen=True)
class Cleared:
    """`templates/notes/cleared.txt.j2`."""

    note: ClassVar[str] = "cleared"
    power: PowerName
    phase: Phase


def _current(st: GameState) -> Turn:
    turn = st.turn
    if not st.game.state.is_running or turn is None:
        raise CommandError(f"{st.game.name} is {st.game.state}: no orders are taken now")
    return turn


def must_offer(position: Position, power: PowerName) -> bool:
    """Whether a sheet of `power` counts as sent only with an offer in it: a power that owns
    a supply centre (rule 3.3: "each uneliminated player must submit an offer sheet
    containing at least one offer"; rule 2.4: the eliminated are those that own none)."""
    return bool(position.centers.get(power))


def counted(sub: Submission | None) -> bool:
    """Whether a power's sheet or orders on record count as sent (not one without an
    offer, which rule 3.3 does not count)."""
    return sub is not None and sub.kind is not SubmissionKind.NO_OFFER and bool(sub.text.strip())


def _late_change_refused(st: GameState, power: PowerName, now: datetime, by_master: bool) -> None:
    """NO_LATE_CHANGES (which CIVIL_DISORDER brings unless LATE_CHANGES is named): once the
    deadline has passed, a power that has orders on record may no longer change them; a power
    that sent nothing may still send its first orders, and the Master may change anything."""
    deadline = st.game.deadline
    if by_master or Flag.NO_LATE_CHANGES not in st.rules or deadline is None or now < deadline:
        return
    if counted(st.submission(power)):
        raise CommandError(
            f"the deadline of {st.game.name} has passed and the game uses "
            "NO_LATE_CHANGES: orders already sent can no longer be changed"
        )


def _replace(
    st: GameState,
    turn: Turn,
    power: PowerName,
    kind: SubmissionKind,
    text: str,
    *,
    now: datetime,
    inbound_id: int | None,
) -> None:
    repo.retire_submissions(st.session, turn, power)
    st.session.add(
        Submission(
            game_id=st.game.id,
            turn_id=turn.id,
            power=power,
            kind=kind,
            text=text,
            current=True,
            inbound_id=inbound_id,
            submitted_at=now,
        )
    )


@dataclass(frozen=True)
class Checked:
    """Order lines the judge would take, not yet on record: what `submit` stores, and the
    note its reply shows."""

    kind: SubmissionKind
    text: str  # the sheet or orders as the judge understood them
    taken: SheetTaken | OrdersTaken


def check(
    st: GameState,
    *,
    power: PowerName,
    lines: Sequence[tuple[int, str]],
    now: datetime,
    by_master: bool = False,
) -> Checked | Refused:
    """What `submit` would take of `lines`, changing nothing (the web page's live check
    asks this alone)."""
    _current(st)
    _late_change_refused(st, power, now, by_master)
    pos = st.position
    assert pos is not None
    if pos.phase.is_movement:
        balance = money.balance(st.session, st.game, power)
        parsed = parse_sheet(
            "\n".join(text for _, text in lines), pos, power, st.rules, balance=balance, dummies=st.dummies()
        )
        if parsed.problems:
            return Refused(tuple(_placed(p, lines) for p in parsed.problems))
        counts = bool(parsed.sheet and parsed.sheet.offers) or not must_offer(pos, power)
        kind = SubmissionKind.SHEET if counts else SubmissionKind.NO_OFFER
        total = parsed.sheet.offered_total if parsed.sheet else None
        taken = SheetTaken(
            power,
            pos.phase.title,
            parsed.normalized,
            total,
            balance,
            over=total is not None and total > balance,
            counts=counts,
        )
        return Checked(kind, parsed.normalized, taken)
    accepted: list[str] = []
    problems: list[Problem] = []
    written = [(number, text) for number, text in lines if text.split("%", 1)[0].strip()]
    for number, text in written:
        try:
            order = validate(
                parse_order(text.split("%", 1)[0], pos.map),
                pos,
                power,
                flags=st.rules.flags,
                dummies=st.dummies(),
            )
        except OrderError as exc:
            problems.append(Problem(number, text, exc.kind, str(exc)))
            continue
        accepted.append(str(order))
    if problems:
        return Refused(tuple(problems))
    orders = "\n".join(accepted)
    return Checked(
        SubmissionKind.ORDERS,
        orders,
        OrdersTaken(power, pos.phase.title, accepted, _due(pos, power, st.rules.flags)),
    )


def submit(
    st: GameState,
    *,
    power: PowerName,
    lines: Sequence[tuple[int, str]],
    now: datetime,
    inbound_id: int | None,
    by_master: bool = False,
) -> SheetTaken | OrdersTaken | Refused:
    """`lines`: the order lines of the message, with their numbers in it; `by_master`: sent
    by the Master (FOR <power>)."""
    checked = check(st, power=power, lines=lines, now=now, by_master=by_master)
    if isinstance(checked, Refused):
        return checked
    _replace(st, _current(st), power, checked.kind, checked.text, now=now, inbound_id=inbound_id)
    return checked.taken


def _due(position: Position, power: PowerName, flags: frozenset[Flag]) -> int | None:
    """The builds (positive) or removals (negative) due to `power` in an adjustment phase
    (no build is due where it has no site to build in); None in another phase."""
    if not position.phase.is_adjustments:
        return None
    delta = allowance(position, power, flags)
    return 0 if delta > 0 and not build_sites(position, power, flags) else delta


def _placed(problem: Problem, lines: Sequence[tuple[int, str]]) -> Problem:
    """A sheet problem on its line of the message (a sheet's line n is the n-th order line)."""
    n = problem.line or 0
    if 0 < n <= len(lines):
        return problem.at(*lines[n - 1])
    # a problem of the whole sheet, of no line
    return Problem(None, "", problem.kind, f"the offer sheet: {problem.message}")


def clear(
    st: GameState, *, power: PowerName, now: datetime | None = None, by_master: bool = False
) -> Cleared:
    """Empty the power's offer sheet (or its orders) for this phase."""
    turn = st.turn
    if not st.game.state.is_running or turn is None:
        raise CommandError(f"{st.game.name} is {st.game.state}: nothing can be ordered now")
    if now is not None:
        _late_change_refused(st, power, now, by_master)
    repo.retire_submissions(st.session, turn, power)
    return Cleared(power, turn.phase)
