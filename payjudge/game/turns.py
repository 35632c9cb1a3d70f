"""Processing a phase: Payola auction, adjudication, money, the next phase, and the mail.

`compute_turn` works out everything from the stored state without changing it (PREVIEW
uses it alone); `apply_turn` writes the result: ledger entries, the processed turn with
its public report and its bid chart, the next turn, and the mails, all in the caller's
transaction.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..payola.acceptance import AcceptanceList, parse_acceptance
from ..payola.auction import Auction, run_auction
from ..payola.exchange.accounts import account_label, investor_key, is_investor
from ..payola.exchange.phase import phase_after
from ..payola.exchange.worth import exchange_year_end
from ..payola.income import (
    IncomeLine,
    first_movement,
    income_due,
    mobilized_treasuries,
    vassal_income,
    within_cap,
    year_end,
    zerosum_year_end,
)
from ..rules.adjustments import allowance, build_sites
from ..rules.flags import Flag
from ..rules.names import PowerName
from ..rules.orders import Order
from ..rules.phase import Phase, game_start_phase
from ..rules.position import Position
from ..rules.serial import position_to_json
from ..rules.turn import PhaseReport, play, read_orders, winners
from ..store import repo
from ..store.models import Turn
from ..text.sheet import parse_sheet
from ..vocabulary import GameStatus, LedgerKind, SeatKind, SeatStatus, TurnStatus
from . import money
from .blind import is_blind, sight_json
from .lifecycle import new_seed
from .orders import counted, must_offer
from .state import CONTROL_KEY, GameState
from .timing import Timing


@dataclass
class TurnComputation:
    report: PhaseReport
    next_position: Position
    auction: Auction | None = None
    sheets_used: dict[PowerName, str] = field(default_factory=dict)  # power -> normalised sheet
    accept_used: dict[PowerName, str] = field(default_factory=dict)
    balances_before: dict[PowerName, int] = field(default_factory=dict)
    income: dict[PowerName, int] = field(default_factory=dict)  # power -> change at year end
    income_lines: dict[PowerName, IncomeLine] = field(default_factory=dict)
    mobilized: dict[PowerName, int] = field(default_factory=dict)  # ZEROSUM: MOBILIZE's opening treasuries
    balances_after: dict[PowerName, int] = field(default_factory=dict)
    winner: str | None = None  # the winner, or the winners joined with "and" (SHARED_VICTORY)
    winners: tuple[PowerName, ...] = ()
    rejected: dict[PowerName, list[str]] = field(default_factory=dict)  # stored sheets no longer valid
    control: dict[PowerName, PowerName] = field(default_factory=dict)  # the control in the next phase
    control_before: dict[PowerName, PowerName] = field(default_factory=dict)  # the control in this one


def required_powers(st: GameState) -> list[PowerName]:
    """The powers whose orders the phase waits for: the played ones, and the powers another
    power's player controls (CONTROL, vassal states). In an Exchange game: in its exchange
    phases every playing investor (by account key); in the others the companies that
    have a CEO and something to order (docs/exchange.md, "Who must act")."""
    if Flag.EXCHANGE in st.rules:
        return _exchange_required(st)
    controlled = st.control()
    need = _needing(st, SeatStatus.PLAYING)
    need += [p for p in _offering(st) if p not in need]
    need += [p for p in _needing(st, None) if p in controlled and p not in need]
    return need


def _offering(st: GameState) -> list[PowerName]:
    """Rule 3.3: in a movement phase every played power that owns a centre must send a
    sheet with an offer, whether it has units or not (it may bribe others' units)."""
    pos = st.position
    if pos is None or not pos.phase.is_movement:
        return []
    playing = {s.power for s in st.seats if s.status is SeatStatus.PLAYING and s.power}
    return [p for p in pos.map.power_names if p in playing and must_offer(pos, p)]


def waited_dummies(st: GameState) -> list[PowerName]:
    """The dummies that keep the phase from being processed before its deadline: without
    CD_DUMMIES, a dummy with something to order is waited for (the Master may order for
    it; at the deadline it is in civil disorder); under CD_DUMMIES none is."""
    if Flag.CD_DUMMIES in st.rules:
        return []
    dummies = st.dummies()
    return [p for p in _needing(st, SeatStatus.DUMMY) if p in dummies and not has_orders(st, p)]


def _exchange_required(st: GameState) -> list[PowerName]:
    pos = st.position
    if pos is None:
        return []
    if pos.phase.is_exchange:
        return [
            PowerName(investor_key(s.investor_name))
            for s in st.seats
            if s.kind is SeatKind.INVESTOR and s.status is SeatStatus.PLAYING and s.investor_name
        ]
    ceos = (st.market() or {}).get("ceos", {})
    return [p for p in _to_order(pos, st) if ceos.get(p)]


def _needing(st: GameState, status: SeatStatus | None) -> list[PowerName]:
    """The powers with seats of `status` (any, for None) that have something to order in
    this phase."""
    pos = st.position
    if pos is None:
        return []
    playing = {s.power for s in st.seats if (status is None or s.status is status) and s.power}
    return [p for p in _to_order(pos, st) if p in playing]


def _to_order(pos: Position, st: GameState) -> list[PowerName]:
    """The powers that have something to order in this phase."""
    phase = pos.phase
    if phase.is_movement:
        need = [p for p in pos.map.power_names if pos.units.get(p)]
    elif phase.is_retreats:
        need = [p for p, ds in pos.dislodged.items() if any(d.retreats for d in ds)]
    else:
        need = [
            p
            for p in pos.map.power_names
            if allowance(pos, p, st.rules.flags) < 0
            or (allowance(pos, p, st.rules.flags) > 0 and build_sites(pos, p, st.rules.flags))
        ]
    return need


def has_orders(st: GameState, power: PowerName) -> bool:
    return counted(st.submission(power))


def late_powers(st: GameState) -> list[PowerName]:
    return [p for p in required_powers(st) if not has_orders(st, p)]


def _minor_phase(st: GameState) -> bool:
    return st.position is not None and not st.position.phase.is_movement


def wait_refused(st: GameState) -> str | None:
    """Why a power may not ask the judge to wait for the deadline now (SET WAIT), or None:
    REAL_TIME and NO_WAIT forbid it, NO_MINOR_WAIT outside movement phases."""
    for flag in (Flag.REAL_TIME, Flag.NO_WAIT):
        if flag in st.rules:
            return f"{st.game.name} uses {flag.value}: nobody may ask to wait for the deadline"
    if Flag.NO_MINOR_WAIT in st.rules and _minor_phase(st):
        return (
            f"{st.game.name} uses NO_MINOR_WAIT: one may ask to wait for the deadline only in movement phases"
        )
    return None


def waiting_powers(st: GameState) -> list[PowerName]:
    """The powers whose wait for the deadline holds now (none when the rules forbid waiting)."""
    if wait_refused(st) is not None:
        return []
    waiting = []
    for s in st.seats:
        if s.wait and s.status is SeatStatus.PLAYING:
            if s.power:
                waiting.append(s.power)
            elif s.investor_name:  # Exchange Payola: an investor, by its account
                waiting.append(PowerName(investor_key(s.investor_name)))
    return waiting


@dataclass(frozen=True)
class Told:
    """What anyone is told of whom a phase waits for (SUMMARY, a party's web page): as in
    DPjudge, nothing unless a rule says so. None for a list the rules keep quiet."""

    late: list[PowerName] | None  # the powers without orders, under LIST_UNORDERED
    waiting: list[PowerName] | None  # the powers that asked to wait, under LIST_WAITERS


def told_waiting(st: GameState) -> Told:
    running = st.game.state is GameStatus.ACTIVE and st.position is not None
    late = (late_powers(st) if running else []) if Flag.LIST_UNORDERED in st.rules else None
    waiting = (waiting_powers(st) if running else []) if Flag.LIST_WAITERS in st.rules else None
    return Told(late, waiting)


def always_waits(st: GameState) -> bool:
    """ALWAYS_WAIT in force for this phase (NO_MINOR_WAIT limits it to movement phases)."""
    return Flag.ALWAYS_WAIT in st.rules and not (Flag.NO_MINOR_WAIT in st.rules and _minor_phase(st))


def is_ready(st: GameState) -> bool:
    """Every power that must order has ordered, and nobody asked to wait."""
    return not late_powers(st) and not waiting_powers(st) and not always_waits(st) and not waited_dummies(st)


def compute_turn(st: GameState) -> TurnComputation:
    pos, turn = st.position, st.turn
    assert pos is not None and turn is not None
    balances = money.balances(st.session, st.game)
    subs = st.submissions()
    if pos.phase.is_movement:
        comp = _movement(st, pos, turn.seed, balances, subs)
    else:
        texts = {p: sub.text.splitlines() for p, sub in subs.items()}
        orders, problems = read_orders(pos, texts, flags=st.rules.flags, dummies=st.dummies())
        report, nxt = play(
            pos, orders, problems, flags=st.rules.flags, dummies=st.dummies(), control=st.control()
        )
        comp = TurnComputation(report, nxt, balances_before=balances, balances_after=dict(balances))
    market = st.market() if Flag.EXCHANGE in st.rules else None
    if market is not None:
        # Exchange Payola: the year's exchange phase follows its last Diplomacy phase
        following = phase_after(pos.phase, comp.next_position.phase)
        comp.next_position = comp.next_position.replace(phase=following)
    control = st.control()
    comp.control = dict(comp.report.control) if comp.report.control is not None else control
    comp.control_before = control
    m = st.map
    start = game_start_phase(m.start_phase, m.first_phase, m.flow)
    if income_due(pos.phase, comp.next_position.phase, start, st.rules):
        # rule 2.1: income before every spring, for the centres owned after the fall (rule
        # 6.6: with INCOME EVERY MOVEMENT, before every movement phase)
        if Flag.ZEROSUM in st.rules:
            lines = zerosum_year_end(
                _year_start_centers(st, pos),
                comp.next_position,
                comp.balances_after,
                _accrued(st, pos.phase.year, comp),
                st.rules,
            )
        elif market is not None:  # the worths the CEOs set (docs/exchange.md, "Worth and income")
            lines = exchange_year_end(comp.next_position, comp.balances_after, market["worths"], st.rules)
        else:
            lines = year_end(comp.next_position, comp.balances_after, st.rules)
        if st.rules.cap is not None and Flag.ZEROSUM not in st.rules:
            # CAP caps a year's income: with INCOME EVERY MOVEMENT, all its payments together
            year = first_movement(comp.next_position.phase).year
            paid = money.income_paid(st.session, st.game, year, first_movement(start).year)
            lines = within_cap(lines, paid, st.rules)
        if Flag.VASSAL_DUMMIES in st.rules:
            lines = vassal_income(lines, st.unplayed(), comp.control, zerosum=Flag.ZEROSUM in st.rules)
        for p, line in lines.items():
            change = line.balance - comp.balances_after.get(p, 0)
            comp.income_lines[p] = line
            comp.income[p] = change
            comp.balances_after[p] = line.balance
    comp.mobilized = mobilized_treasuries(pos, comp.next_position, st.rules)
    for p, amount in comp.mobilized.items():
        comp.balances_after[p] = comp.balances_after.get(p, 0) + amount
    if (
        comp.report.center_changes
        or comp.next_position.phase.is_adjustments
        or comp.next_position.phase.year > pos.phase.year
    ):
        comp.winners = victors(st, pos, comp.next_position, comp.control)
        comp.winner = " and ".join(comp.winners) or None
    return comp


def victors(
    st: GameState, pos: Position, nxt: Position, control: Mapping[PowerName, PowerName] | None = None
) -> tuple[PowerName, ...]:
    """Who has won once `pos` gives way to `nxt`, under the game's rules: VICTORY_HOMES
    counts other powers' home centres, SHARED_VICTORY lets every power that reaches the
    condition share it, HOLD_WIN asks that each also met it at the end of the previous year
    (the centres at the start of this one), TEAM_VICTORY adds the centres of the powers
    each controls (`control`, the control in force after the phase)."""
    homes = Flag.VICTORY_HOMES in st.rules
    team = control if Flag.TEAM_VICTORY in st.rules else None
    won = winners(nxt, homes=homes, shared=Flag.SHARED_VICTORY in st.rules, control=team)
    if won and Flag.HOLD_WIN in st.rules:
        start = _year_start_centers(st, pos)
        before = nxt.replace(centers={p: frozenset(cs) for p, cs in start.items()})
        held = set(winners(before, homes=homes, shared=True, control=team))
        won = tuple(p for p in won if p in held)
    return won


def _year_turns(st: GameState, year: int) -> list[Turn]:
    from .state import turns

    return [t for t in turns(st.session, st.game) if t.phase.year == year]


def _year_start_centers(st: GameState, pos: Position) -> Mapping[PowerName, Iterable[str]]:
    """The centres each power owned when `pos`'s year began."""
    first = _year_turns(st, pos.phase.year)
    if not first:
        return pos.centers
    # a stored position: its keys are names the judge wrote
    return {PowerName(p): cs for p, cs in first[0].position.get("centers", {}).items()}


def _accrued(st: GameState, year: int, comp: TurnComputation) -> dict[PowerName, int]:
    """ZEROSUM: what the offers each power's units accepted during the year paid (not the
    totals reported: a dummy's tie HOLD is reported one above the tie, and nobody pays that)."""
    out: dict[PowerName, int] = {}
    for t in _year_turns(st, year):
        if t.status is TurnStatus.PROCESSED and t.chart:
            # (charts stored before "received" was kept have only the reported totals)
            paid = t.chart.get("received", t.chart.get("totals", {}))
            for province, amount in paid.items():
                owner = PowerName(t.chart["owners"][province])  # a stored chart: names the judge wrote
                out[owner] = out.get(owner, 0) + amount
    if comp.auction is not None:
        for power in set(comp.auction.owners.values()):
            out[power] = out.get(power, 0) + comp.auction.received_by(power)
    return out


def _unmanaged(st: GameState) -> frozenset[PowerName]:
    """Exchange Payola: the companies without a CEO, whose units play as a power nobody
    plays does (rule 4.4: any tie at the top HOLDs; docs/exchange.md)."""
    if Flag.EXCHANGE not in st.rules:
        return frozenset()
    ceos = (st.market() or {}).get("ceos", {})
    return frozenset(PowerName(company) for company, ceo in ceos.items() if ceo is None)


def _movement(
    st: GameState, pos: Position, seed: int, balances: dict[PowerName, int], subs
) -> TurnComputation:
    sheets = {}
    used = {}
    rejected: dict[PowerName, list[str]] = {}
    dummies = st.dummies()
    for power, sub in subs.items():
        parsed = parse_sheet(sub.text, pos, power, st.rules, balance=balances.get(power, 0), dummies=dummies)
        if parsed.sheet is None:
            rejected[power] = [f"line {p.line}: {p.message}" for p in parsed.problems]
            continue
        sheets[power] = parsed.sheet
        used[power] = parsed.normalized
    accept = {}
    for power in pos.map.power_names:
        text = st.acceptance_text(power)
        if text:
            accept[power] = parse_acceptance(text, pos.map, power)
    # a controlled power's ties are decided by its controller's acceptance list (DPjudge)
    for controlled, controller in st.control().items():
        accept[controlled] = parse_acceptance(st.acceptance_text(controller) or "", pos.map, controller)
    # Exchange Payola: the investors who sent sheets bid beside the companies
    investors = sorted(p for p in sheets if is_investor(p))
    unplayed = dummies | _unmanaged(st)
    auction = run_auction(pos, sheets, balances, accept, st.rules, unplayed, seed, investors=investors)
    orders: dict[PowerName, list[Order]] = {}
    for province, order in auction.adjudication_orders().items():
        owner = pos.owner_at(province)
        # the auction gives orders only to provinces with a unit, and every unit has an owner
        assert owner is not None
        orders.setdefault(owner, []).append(order)
    report, nxt = play(pos, orders, flags=st.rules.flags, dummies=dummies, control=st.control())
    after = {p: auction.balances.get(p, balances.get(p, 0)) for p in set(balances) | set(auction.balances)}
    return TurnComputation(
        report,
        nxt,
        auction,
        sheets_used=used,
        accept_used={p: AcceptanceList(tuple(lst)).text(pos.map) for p, lst in auction.accept_used.items()},
        balances_before=dict(balances),
        balances_after=after,
        rejected=rejected,
    )


def _income_memo(current: Phase, following: Phase) -> str:
    if following.year > current.year:
        return f"year-end income {following.year - 1}"
    return f"income before {following}"


def _book(
    st: GameState, turn: Turn, kind: LedgerKind, amounts: Mapping[PowerName, int], memo: str, now: datetime
) -> None:
    """One ledger entry per power of `amounts`, made by the phase `turn` processes."""
    for power, amount in amounts.items():
        money.record(
            st.session, st.game, power, kind, amount, turn_seq=turn.seq, phase=turn.phase, now=now, memo=memo
        )


def apply_turn(st: GameState, comp: TurnComputation, *, now: datetime) -> Turn:
    """Write the processed phase and open the next one. Returns the new turn."""
    game, turn = st.game, st.turn
    assert turn is not None
    s = st.session
    if comp.auction is not None:
        spent = {power: -paid for power, paid in comp.auction.spent.items() if paid}
        _book(st, turn, LedgerKind.BRIBES, spent, f"bribes paid in {turn.phase}", now)
    income = {power: amount for power, amount in comp.income.items() if amount}
    _book(st, turn, LedgerKind.INCOME, income, _income_memo(turn.phase, comp.next_position.phase), now)
    _book(
        st, turn, LedgerKind.INCOME, comp.mobilized, "Zero Sum treasury for the centre built (rule 6.7)", now
    )
    turn.status = TurnStatus.PROCESSED
    turn.processed_at = now
    turn.report = report_json(comp, st.rules.flags)
    if comp.auction is not None:
        turn.chart = {
            "chart": chart_json(comp.auction),
            "sheets": comp.sheets_used,
            "accept": comp.accept_used,
            "totals": dict(comp.auction.totals),
            "received": dict(comp.auction.received),
            "owners": dict(comp.auction.owners),
            # BLIND (Tin Cup): the offers silently ignored, told to nobody until the end
            "ignored": {p: [str(o) for o in os] for p, os in comp.auction.ignored.items()},
        }
    last_seq = repo.last_turn_seq(s, game)
    phase = comp.next_position.phase
    document = position_to_json(comp.next_position)
    if comp.control:
        document[CONTROL_KEY] = dict(sorted(comp.control.items()))
    nxt = Turn(
        game_id=game.id,
        seq=last_seq + 1,
        phase=phase,
        position=document,
        seed=new_seed(game, phase),
        status=TurnStatus.OPEN,
        opened_at=now,
        # Exchange Payola: each turn keeps the market in force, so a rollback restores it
        market=st.market() if Flag.EXCHANGE in st.rules else None,
    )
    s.add(nxt)
    game.phase = nxt.phase
    game.reminded = []
    game.late_noticed_at = None
    game.ready_at = None
    for seat in game.seats:
        seat.wait = False
    if comp.winner is None and Flag.NO_DEADLINE in st.rules:
        game.deadline = None
    elif comp.winner is None:
        timing = Timing.from_json(game.timing)
        game.deadline = timing.deadline(comp.next_position.phase.type, now, absences=absences(st))
    s.flush()
    st.__dict__.pop("turn", None)
    st.__dict__.pop("position", None)
    return nxt


def absences(st: GameState) -> tuple[tuple[datetime, datetime], ...]:
    out = []
    for seat in st.seats:
        for start, end in seat.absences or []:
            out.append((datetime.fromisoformat(start), datetime.fromisoformat(end)))
    return tuple(out)


def chart_json(auction: Auction) -> dict[str, list[dict[str, Any]]]:
    """Every candidate order of every unit with each power's offer (secret until the end)."""
    return {
        str(cu.unit): [
            {
                "order": str(b.order),
                "total": b.total,
                "chosen": b.chosen,
                # Exchange Payola: an investor by its name (`ALICE 1`), not its account key
                "payers": [f"{account_label(p)} {amount}" for p, amount in b.offers],
            }
            for b in cu.bids
        ]
        for cu in auction.chart
    }


def _control_changes(comp: TurnComputation) -> list[dict[str, str | None]]:
    """VASSAL_DUMMIES: the dummies whose controller changed at the end of the fall."""
    before = comp.control_before
    changed = [(p, c) for p, c in sorted(comp.control.items()) if before.get(p) != c]
    return [{"power": p, "from": before.get(p), "to": c} for p, c in changed]


def report_json(comp: TurnComputation, flags: Iterable[Flag] = ()) -> dict[str, Any]:
    """The record of a phase (no money): public, except in a BLIND game, where its `sight`
    says what each power saw and only that is ever shown to the power (game/blind.py)."""
    r = comp.report
    out: dict[str, Any] = {
        "phase": str(r.phase),
        "orders": [
            {
                "power": o.power,
                "order": str(o.order),
                "result": o.result.value,
                "dislodged": o.dislodged,
                "default": o.default,
            }
            for o in r.outcomes
        ],
        "dislodged": {
            p: [{"unit": str(d.unit), "retreats": [str(x) for x in d.retreats]} for d in ds]
            for p, ds in r.dislodged.items()
        },
        "destroyed": [{"power": p, "unit": str(u)} for p, u in r.destroyed],
        "stranded": [{"power": p, "unit": str(u)} for p, u in r.stranded],
        "center_changes": [{"center": c, "from": f, "to": t} for c, f, t in r.center_changes],
        "torn": [{"power": p, "unit": str(u)} for p, u in r.torn],
        "control_changes": _control_changes(comp),
        "next_phase": str(comp.next_position.phase),
        "centers": {p: sorted(cs) for p, cs in comp.next_position.centers.items()},
        "winner": comp.winner,
        "winners": list(comp.winners),
    }
    if is_blind(flags):
        out["sight"] = sight_json(r, comp.next_position, flags)
    return out
