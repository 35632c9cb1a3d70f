"""Starting a game: the powers are assigned, the first phase opens, everyone is told."""

from __future__ import annotations

from datetime import datetime

from ..payola.acceptance import AcceptanceList
from ..payola.exchange.accounts import investor_key
from ..rules.flags import Flag
from ..rules.phase import Phase
from ..store.models import Seat
from ..vocabulary import MailKind, SeatStatus
from . import exchange, money
from .context import Reply
from .gamerules import listed_rules
from .lifecycle import start_game
from .mailer import Mailer
from .notes.master import GameStarted
from .notify import broadcast
from .state import GameState
from .timing import Timing, show_time


def begin(st: GameState, mailer: Mailer, reply: Reply, now: datetime) -> None:
    game = st.game
    investing = Flag.EXCHANGE in st.rules
    turn = exchange.start_exchange(st, now=now) if investing else start_game(st, now=now)
    timing = Timing.from_json(game.timing)
    position = st.position
    assert position is not None  # start_game has just made the opening position
    # a longer first deadline gives time for diplomacy, as on DPjudge (not without press)
    factor = 1 if Flag.NO_PRESS in st.rules else 2
    game.deadline = (
        None if Flag.NO_DEADLINE in st.rules else timing.deadline(position.phase.type, now, factor=factor)
    )
    deadline = show_time(game.deadline, timing.zone)
    balances = money.balances(st.session, game)
    for seat in game.seats:
        if seat.status is not SeatStatus.PLAYING:
            continue
        if investing:
            _welcome_investor(st, mailer, seat, balances, deadline, turn.phase, timing)
            continue
        power = st.map.power(seat.power) if seat.power is not None else None
        assert power is not None  # a playing seat holds one of the map's powers
        mailer.send(
            [seat.address],
            f"Diplomacy game {game.name} starts: you are {power.name}",
            "welcome.txt.j2",
            kind=MailKind.WELCOME,
            game=game,
            game_name=game.name,
            power=power.name,
            initial=power.initial,
            balance=balances.get(power.name, 0),
            accept=AcceptanceList.default(power.name).text(st.map),
            deadline=deadline,
            phase=turn.phase,
            timing=timing.describe(),
            rules=listed_rules(list(game.rules)),
        )
    broadcast(
        st,
        mailer,
        f"Diplomacy game {game.name} has started",
        "started.txt.j2",
        powers=[
            {"power": s.investor_name if investing else s.power, "status": _shown(st, s.status)}
            for s in game.seats
            if not investing or s.investor_name
        ],
        deadline=deadline,
        phase=position.phase.title,
    )
    reply.result(None, GameStarted(game=game.name, deadline=deadline))


def _welcome_investor(
    st: GameState, mailer: Mailer, seat: Seat, balances: dict, deadline: str, phase: Phase, timing: Timing
) -> None:
    """An investor's welcome (docs/exchange.md): how to sign on, its capital, the float."""
    game = st.game
    name = seat.investor_name
    assert name is not None  # a playing investor's seat has its name
    turn = st.turn
    assert turn is not None and turn.market is not None  # the float has just opened
    market = exchange.load_market(st.session, game, turn.market)
    mailer.send(
        [seat.address],
        f"Diplomacy game {game.name} starts: you are investor {name}",
        "welcome_investor.txt.j2",
        kind=MailKind.WELCOME,
        game=game,
        game_name=game.name,
        investor=name,
        balance=balances.get(investor_key(name), 0),
        shares=max(market.shares.values(), default=0),
        companies=sorted(market.shares),
        reserve=int(game.settings.get("float", 1)),
        deadline=deadline,
        phase=phase,
        timing=timing.describe(),
        rules=listed_rules(list(game.rules)),
    )


def _shown(st: GameState, status: SeatStatus) -> SeatStatus:
    """HIDE_DUMMIES: a dummy is announced as played."""
    if status is SeatStatus.DUMMY and Flag.HIDE_DUMMIES in st.rules:
        return SeatStatus.PLAYING
    return status
