"""An Exchange game's exchange phases on the store (docs/exchange.md, "The phases"): the
game's start with the float (W1900X), and processing an open exchange phase: the engine
run on the stored sheets, votes and balances, its movements booked, the turn closed, the
next spring opened with the market after the phase, and the phase's mails sent."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from ...payola.exchange import views
from ...payola.exchange.phase import ExchangeOutcome, ExchangeSheet, MarketState, phase_after, run_exchange
from ...payola.exchange.worth import starting_worths
from ...payola.income import opening_balances
from ...rules.phase import Phase, PhaseType, Season
from ...rules.position import Position
from ...rules.serial import position_to_json
from ...store import repo
from ...store.models import Turn
from ...vocabulary import GameStatus, SeatStatus, SubmissionKind, TurnStatus
from .. import money
from ..lifecycle import investor_names, new_seed
from ..mailer import Mailer
from ..state import GameState
from ..timing import Timing
from .mails import PhaseMoney, send_exchange_mails
from .market import book, by_account, load_market, market_json, open_market
from .sheets import engine_sheet, read_orders
from .votes import ceo_votes, playing_investors

DEFAULT_SHARES = 10  # each company's shares, unless SHARES says (docs/exchange.md, choice 2)


def float_phase(first: Phase) -> Phase:
    """The float: the exchange phase of the winter before the first phase (W1900X)."""
    return Phase(first.year - 1, Season.WINTER, PhaseType.EXCHANGE)


def _open_turn(st: GameState, seq: int, position: Position, market: MarketState, now: datetime) -> Turn:
    """A new open turn of the game at `position`'s phase, which becomes the game's."""
    game, phase = st.game, position.phase
    turn = Turn(
        game_id=game.id,
        seq=seq,
        phase=phase,
        position=position_to_json(position),
        seed=new_seed(game, phase),
        status=TurnStatus.OPEN,
        opened_at=now,
        market=market_json(market),
    )
    st.session.add(turn)
    game.phase = phase
    return turn


def _forget_turn(st: GameState) -> None:
    # the state caches the open turn and its position: the next read finds the new one
    st.__dict__.pop("turn", None)
    st.__dict__.pop("position", None)


def _book_opening(st: GameState, initial: Position, phase: Phase, now: datetime) -> MarketState:
    """Companies' opening treasuries, investors' capital, every pool all its shares."""
    game, rules = st.game, st.rules  # with the map's RULE lines
    opening = opening_balances(initial, rules)
    money.record_opening(st.session, game, opening, phase=phase, now=now)
    investors = sorted(investor_names(game))
    capital = game.settings.get("capital")
    if capital is None:
        capital = sum(opening.values()) // max(1, len(investors))
    return open_market(
        st.session,
        game,
        st.map.power_names,
        investors,
        capital=int(capital),
        shares=int(game.settings.get("shares", DEFAULT_SHARES)),
        worths=starting_worths(initial, rules),
        reserve=int(game.settings.get("float", 1)),
        turn_seq=0,
        phase=phase,
        now=now,
    )


def start_exchange(st: GameState, *, now: datetime) -> Turn:
    """An Exchange game's start (docs/exchange.md, "Joining"): seats nobody took stay
    empty, companies get their opening treasuries, investors their capital, every pool all
    its shares, every centre its starting worth; the first phase is the float."""
    game = st.game
    for seat in game.seats:
        if seat.status is SeatStatus.OPEN:
            seat.status = SeatStatus.DUMMY  # nobody joined: the Master started it short
            seat.address = None
    initial = Position.initial(st.map, st.rules.flags)
    phase = float_phase(initial.phase)
    market = _book_opening(st, initial, phase, now)
    turn = _open_turn(st, 1, initial.replace(phase=phase), market, now)
    game.state = GameStatus.ACTIVE
    game.started_at = now
    st.session.flush()
    _forget_turn(st)
    return turn


def _sheets(st: GameState, state: MarketState) -> dict[str, ExchangeSheet]:
    """Every account's stored exchange sheet, as the engine takes it."""
    centres = st.map.supply_centers
    return {
        str(account): engine_sheet(str(account), read_orders(sub.text, state, centres))
        for account, sub in st.submissions().items()
        if sub.kind is SubmissionKind.EXCHANGE
    }


def process_exchange(
    st: GameState, *, now: datetime, mailer: Mailer | None = None, income: Mapping[str, int] | None = None
) -> tuple[ExchangeOutcome, Turn]:
    """Process the open exchange phase (see the module's docstring; `income`: the year's,
    for the reports). The float is the game's first turn."""
    s, game, turn, pos = st.session, st.game, st.turn, st.position
    assert turn is not None and pos is not None and turn.market is not None and turn.phase.is_exchange
    state = load_market(s, game, turn.market)
    is_float = turn.seq == 1
    balances = by_account(money.balances(s, game))
    outcome = run_exchange(
        state,
        _sheets(st, state),
        balances,
        ceo_votes(s, game),
        playing_investors(st),
        turn.seed,
        float_price=int(game.settings.get("float", 1)) if is_float else None,
    )
    book(s, game, outcome, turn_seq=turn.seq, phase=turn.phase, now=now)
    turn.status = TurnStatus.PROCESSED
    turn.processed_at = now
    owned = {str(c): tuple(sorted(cs)) for c, cs in pos.centers.items()}
    public = views.results_view(str(turn.phase), state, outcome, owned)
    turn.report = views.results_json(public)  # the public results, for HISTORY and the status page
    phase = phase_after(turn.phase)
    nxt = _open_turn(st, repo.last_turn_seq(s, game) + 1, pos.replace(phase=phase), outcome.state, now)
    game.deadline = Timing.from_json(game.timing).deadline(phase.type, now)
    s.flush()
    if mailer is not None:
        figures = PhaseMoney(balances, owned, income or {})
        send_exchange_mails(st, mailer, turn.phase, state, public, outcome, figures, is_float=is_float)
    _forget_turn(st)
    return outcome, nxt
