"""What anyone may see of the games: the views of the read-only status page.

Only what every player, observer and the Master already receive in public mail: the
board, the phase, the deadline, the centre counts, and each played phase's public results
(the same text as the results mail) with its picture. Never a balance, a sheet, an
acceptance list, an address or a password, until the game is over: then the end notice's
publication (rules 3.6 and 4.5, `end_publication`) is public too, and shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..config import Config
from ..rules.names import PowerName
from ..rules.serial import position_from_json
from ..store import Session, repo
from ..store.models import Game, Turn
from ..templating import render
from ..vocabulary import GameStatus, TurnStatus
from .hidden_builds import found_units, hides
from .notify import played_results
from .phases import end_publication
from .pictures import Pictures, shared_pictures
from .state import GameState, turns
from .timing import Timing, show_time


@dataclass(frozen=True)
class Count:
    power: PowerName
    centers: int
    units: int


@dataclass(frozen=True)
class Summary:
    """One line of the list of games."""

    name: str
    map_name: str
    state: str
    phase: str | None  # "Spring 1901 Movement"
    deadline: str | None
    counts: tuple[Count, ...]


@dataclass(frozen=True)
class Played:
    seq: int
    phase: str
    results: str  # the results mail's text


@dataclass(frozen=True)
class Page:
    summary: Summary
    current_seq: int | None  # the picture of the board as it stands
    pictures: bool  # False in a BLIND game
    history: tuple[Played, ...]  # newest first
    ended: str | None  # the end notice's text, once the game is over


def _state(session: Session, game: Game, config: Config) -> GameState:
    return GameState(session, game, config.maps_path)


def summary(st: GameState) -> Summary:
    game, pos = st.game, st.position
    zone = Timing.from_json(game.timing).zone
    counts: tuple[Count, ...] = ()
    if pos is not None and shared_pictures(game):  # BLIND: each power's counts are its own
        counts = tuple(
            Count(p, len(pos.centers.get(p, ())), len(pos.units.get(p, ()))) for p in pos.map.power_names
        )
    return Summary(
        game.name,
        game.map_name,
        game.state,
        st.calendar.title(game.phase) if game.phase else None,
        show_time(game.deadline, zone) if game.deadline and game.state is GameStatus.ACTIVE else None,
        counts,
    )


GAMES_PER_PAGE = 50


@dataclass(frozen=True)
class GameList:
    """One page of the list of games, by name."""

    games: tuple[Summary, ...]
    page: int  # from 1
    pages: int


def game_list(
    session: Session, config: Config, page: int = 1, search: repo.GameSearch = repo.EVERY_GAME
) -> GameList:
    """The `page`-th page of the games `search` finds (the last one when there are fewer):
    `search.ended` lists the archive, the ended games, whose pages publish everything."""
    pages = max(1, -(-repo.game_count(session, search) // GAMES_PER_PAGE))
    page = min(max(page, 1), pages)
    games = repo.games_page(session, (page - 1) * GAMES_PER_PAGE, GAMES_PER_PAGE, search)
    return GameList(tuple(summary(_state(session, g, config)) for g in games), page, pages)


def game_page(session: Session, config: Config, name: str) -> Page | None:
    game = repo.game_by_name(session, name)
    if game is None:
        return None
    st = _state(session, game, config)
    shared = shared_pictures(game)
    history = []
    if shared:  # a BLIND game's results are per power: none of it is public
        for t in turns(session, game):
            if t.status is TurnStatus.PROCESSED and t.report:
                history.append(Played(t.seq, st.calendar.title(t.phase), played_results(st, t)))
    ended = None
    if game.state.is_over and game.result:
        ended = render(
            "game_end.txt.j2",
            judge=config.judge_name,
            game_name=game.name,
            calendar=st.calendar,
            **end_publication(st),
        )
    current = st.turn
    if current is None:
        played = turns(session, game)
        current = played[-1] if played else None
    return Page(
        summary(st),
        current.seq if current is not None and shared else None,
        shared,
        tuple(reversed(history)),
        ended,
    )


def picture(session: Session, config: Config, name: str, seq: int) -> bytes | None:
    """The PNG of a game's phase: a played one with its orders and results, the open one
    as the board stands. None when there is no such phase or no shared picture."""
    game = repo.game_by_name(session, name)
    if game is None or not shared_pictures(game):
        return None
    turn: Turn | None = next((t for t in turns(session, game) if t.seq == seq), None)
    if turn is None:
        return None
    st = _state(session, game, config)
    report: Any = turn.report if turn.status is TurnStatus.PROCESSED else None
    position = position_from_json(st.map, turn.position)
    if report is not None and hides(st.rules, turn.phase):
        report = None  # HIDE_BUILDS: the board before the builds, without them
    elif report is None and (found := found_units(st, turn.phase)):
        # HIDE_BUILDS: the units built in secret are not shown until this phase is played
        secret = {(f["power"], f["unit"]) for f in found}
        position = position.replace(
            units={p: tuple(u for u in us if (p, str(u)) not in secret) for p, us in position.units.items()}
        )
    return Pictures.of(config).png(st.map, position, report)
