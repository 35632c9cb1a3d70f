"""A game's life: creation, seats, the start, resignations and takeovers, the end."""

from __future__ import annotations

import hashlib
import random
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from ..payola.income import opening_balances
from ..payola.transfers import forfeit_on_resign
from ..rules.flag_registry import lookup
from ..rules.flags import Flag
from ..rules.mapfile import MapError, load_variant, map_names
from ..rules.names import PowerName
from ..rules.phase import Phase
from ..rules.position import Position
from ..rules.serial import position_to_json
from ..store import Session, repo
from ..store.models import Game, Seat, Turn
from ..text.problems import Problem
from ..vocabulary import GameStatus, LedgerKind, SeatKind, SeatStatus, TurnStatus
from . import money
from .context import CommandError
from .observers import reserved_name
from .security import check_password, hash_password
from .settings_block import EXCHANGE_SETTINGS as EXCHANGE_SETTINGS  # still importable from here
from .settings_block import read_settings
from .state import GameState
from .timing import Timing


@dataclass(frozen=True)
class GameSettings:
    rules: tuple[str, ...]
    timing: Timing
    map_name: str
    private: str | None
    settings: dict
    always: tuple[Flag, ...] = ()  # named, though every Payola game plays by them


def new_seed(game: Game, phase: Phase) -> int:
    """The seed that fixes every random choice of a phase (the draw of `?` in acceptance
    lists): derived from a secret made when the game was created, so a replay of the
    game's mail gives the very same results, and a rolled-back phase draws the same."""
    base = game.settings.get("seed_base", "")
    return int(hashlib.sha256(f"{base}:{phase}".encode()).hexdigest()[:15], 16)


def check_create_rate(s: Session, *, sender: str, now: datetime, per_sender: int, overall: int) -> None:
    """CREATE at most `per_sender` times an hour from one address, `overall` from all (0:
    no limit): a game costs the judge a row, a listing and the status page's space, and a
    From is easily forged, so the whole judge's hour is bounded too."""
    since = now - timedelta(hours=1)
    if per_sender and repo.games_created_since(s, since, master=sender) >= per_sender:
        raise CommandError(
            f"{sender} has created {per_sender} games within the hour, the most allowed: try later"
        )
    if overall and repo.games_created_since(s, since) >= overall:
        raise CommandError(
            f"{overall} games were created on this judge within the hour, the most allowed: try later"
        )


def create_game(
    s: Session,
    *,
    name: str,
    password: str,
    master: str,
    variant: str,
    spec: GameSettings,
    now: datetime,
    maps_dir: Path | None = None,
) -> Game:
    if repo.game_exists(s, name):
        raise CommandError(f"a game named {name!r} already exists")
    game = Game(
        name=name,
        variant=variant,
        map_name=spec.map_name,
        state=GameStatus.FORMING,
        master_address=master,
        master_password=hash_password(password),
        rules=list(spec.rules),
        settings={**spec.settings, "seed_base": secrets.token_hex(16)},
        timing=spec.timing.to_json(),
        created_at=now,
        version=0,
        reminded=[],
    )
    if spec.private:
        game.settings = {**game.settings, "private": hash_password(spec.private.lower())}
    s.add(game)
    s.flush()
    m = load_variant(spec.map_name, maps_dir)
    if Flag.EXCHANGE in {lookup(r) for r in spec.rules}:
        # Exchange Payola: the seats are investors'; the companies have no players
        for _ in range(int(spec.settings.get("investors", len(m.powers)))):
            s.add(Seat(game_id=game.id, kind=SeatKind.INVESTOR, status=SeatStatus.OPEN, joined_at=now))
    else:
        for _ in m.powers:
            s.add(Seat(game_id=game.id, status=SeatStatus.OPEN, joined_at=now))
    s.flush()
    return game


def open_seats(game: Game) -> list[Seat]:
    return [seat for seat in game.seats if seat.status is SeatStatus.OPEN]


def join(
    st: GameState, *, address: str, password: str, power: str | None, privacy: str | None, now: datetime
) -> Seat:
    game = st.game
    if game.state is not GameStatus.FORMING:
        raise CommandError(f"game {game.name} is not forming: it cannot be joined")
    private = game.settings.get("private")
    if private and not check_password(private, (privacy or "").lower()):
        raise CommandError(f"game {game.name} is private: JOIN {game.name} <password> <privacy word>")
    if any(seat.address == address and seat.status is not SeatStatus.OPEN for seat in game.seats):
        raise CommandError(f"{address} already plays in {game.name}")
    free = open_seats(game)
    if not free:
        raise CommandError(f"game {game.name} is full")
    if Flag.EXCHANGE in st.rules:
        return _join_investor(st, free[0], name=power, address=address, password=password, now=now)
    if power is not None:
        if Flag.POWER_CHOICE not in st.rules:
            raise CommandError(
                f"game {game.name} does not let players choose their power "
                f"(rule POWER_CHOICE): write JOIN {game.name} <password>"
            )
        p = st.map.power(power)
        if p is None:
            raise CommandError(f"there is no power {power} in {game.name}")
        if any(seat.power == p.name for seat in game.seats):
            raise CommandError(f"{p.name} is already taken in {game.name}")
        power = p.name
    seat = free[0]
    seat.power = power
    return _sit(seat, address=address, password=password, now=now)


def _sit(seat: Seat, *, address: str, password: str, now: datetime) -> Seat:
    """A player takes `seat` (JOIN, an investor's JOIN, TAKEOVER): its address and password."""
    seat.address = address
    seat.password = hash_password(password)
    seat.status = SeatStatus.PLAYING
    seat.joined_at = now
    return seat


INVESTOR_NAME = re.compile(r"^[A-Z][A-Z0-9_]{1,11}$")
RESERVED_NAMES = frozenset({"M", "MASTER", "ME", "NONE"})


def investor_names(game: Game) -> set[str]:
    return {s.investor_name for s in game.seats if s.kind is SeatKind.INVESTOR and s.investor_name}


def _join_investor(
    st: GameState, seat: Seat, *, name: str | None, address: str, password: str, now: datetime
) -> Seat:
    """An investor's seat in an Exchange game (docs/exchange.md, "Joining"): the name is
    the investor's account, so it may not be read as a power, nor be taken."""
    game = st.game
    if name is None:
        raise CommandError(f"in an Exchange game write JOIN <your name>@{game.name} <password>")
    name = name.upper()
    if not INVESTOR_NAME.match(name):
        raise CommandError(
            f"{name!r} cannot be an investor's name: 2 to 12 letters, digits or _, starting with a letter"
        )
    if reserved_name(st, name) or name in RESERVED_NAMES:
        raise CommandError(f"{name} cannot be an investor's name in {game.name} (it names a power or a role)")
    if name in investor_names(game) or repo.observer(st.session, game, name) is not None:
        raise CommandError(f"{name} is already taken in {game.name}")
    seat.investor_name = name
    return _sit(seat, address=address, password=password, now=now)


def start_game(st: GameState, *, now: datetime, rng: random.Random | None = None) -> Turn:
    """Assign the powers not chosen, open the first phase, pay the opening balances."""
    game = st.game
    rng = rng or random.SystemRandom()
    taken = {seat.power for seat in game.seats if seat.power}
    free = [p for p in st.map.power_names if p not in taken]
    rng.shuffle(free)
    for seat in game.seats:
        if seat.status is SeatStatus.OPEN:
            seat.status = SeatStatus.DUMMY  # nobody joined: the Master started it short
            seat.address = None
        if not seat.power:
            seat.power = free.pop()
    position = Position.initial(st.map, st.rules.flags)  # MOBILIZE, FLEX_SETUP: builds first
    turn = Turn(
        game_id=game.id,
        seq=1,
        phase=position.phase,
        position=position_to_json(position),
        seed=new_seed(game, position.phase),
        status=TurnStatus.OPEN,
        opened_at=now,
    )
    st.session.add(turn)
    game.state = GameStatus.ACTIVE
    game.phase = position.phase
    game.started_at = now
    rules = st.rules  # with the map's RULE lines (1898: MOBILIZE)
    money.record_opening(st.session, game, opening_balances(position, rules), phase=position.phase, now=now)
    st.session.flush()
    st.__dict__.pop("turn", None)
    st.__dict__.pop("position", None)
    return turn


def seat_by_power(st: GameState, power: str) -> Seat:
    p = st.map.power(power)
    seat = st.seat(p.name) if p else None
    if seat is None:
        raise CommandError(f"there is no power {power} in {st.game.name}")
    return seat


def power_seat(st: GameState, power: str) -> tuple[Seat, PowerName]:
    """The seat of the power named `power`, and the power as the map names it."""
    seat = seat_by_power(st, power)
    assert seat.power is not None  # seat_by_power finds a seat by its power
    return seat, seat.power


def make_dummy(seat: Seat) -> None:
    """DUMMY: the power is played by nobody, and nobody may take it over (rule 4.4)."""
    seat.status, seat.address, seat.password = SeatStatus.DUMMY, None, None
    seat.wait, seat.vote = False, None


def reopen(seat: Seat) -> None:
    """REVIVE: a dummy is open for a new player, who joins it with TAKEOVER."""
    seat.status = SeatStatus.RESIGNED


def resign(st: GameState, seat: Seat, *, now: datetime) -> int:
    """Give up a power, or an Exchange investor's seat; an eliminated power forfeits its
    treasury (rule 2.4). Returns the amount forfeited."""
    power = seat.power
    if power is None and seat.kind is not SeatKind.INVESTOR:
        raise CommandError(f"that seat in {st.game.name} has no power to resign")
    seat.status = SeatStatus.RESIGNED
    seat.address = None
    seat.password = None
    seat.wait = False
    seat.vote = None
    if power is None:  # an investor is never eliminated: its cash waits for its next player
        return 0
    pos = st.position
    forfeited = (
        forfeit_on_resign(pos, power, money.balance(st.session, st.game, power)) if pos is not None else 0
    )
    if forfeited and st.turn is not None:
        turn = st.turn
        money.record(
            st.session,
            st.game,
            power,
            LedgerKind.FORFEIT,
            -forfeited,
            turn_seq=turn.seq,
            phase=turn.phase,
            now=now,
            memo="resigned while eliminated (rule 2.4)",
        )
    return forfeited


def seat_label(seat: Seat) -> str:
    """How mail names a seat: its power, or an Exchange investor's name."""
    return seat.power or seat.investor_name or "?"


def takeover(st: GameState, seat: Seat, *, address: str, password: str, now: datetime) -> None:
    if seat.status is not SeatStatus.RESIGNED:
        raise CommandError(f"{seat_label(seat)} is not open for a takeover")
    _sit(seat, address=address, password=password, now=now)
    seat.missed = 0


# and what HELP says of each, with the TIMING key of exchange phases (docs/exchange.md)
EXCHANGE_HELP = (
    ("INVESTORS <n>", "the number of investor seats, 2 to 20 (default: the map's number of powers)"),
    ("SHARES <n>", "the shares of each company, 1 to 1000 (default 10)"),
    ("CAPITAL <n>", "each investor's starting cash (default: the companies' opening treasuries, shared out)"),
    ("FLOAT <n>", "the lowest price of the float, the first exchange phase, in AgP a share (default 1)"),
    ("END <year>", "the game ends after that year's exchange phase (default: none)"),
    ("TIMING … EXCHANGE <length>", "the length of exchange phases (default: the ADJUST length)"),
)


def parse_settings(
    lines: list[tuple[int, str]], *, default_map: str = "standard", maps_dir: Path | None = None
) -> tuple[GameSettings | None, list[Problem]]:
    """The setting lines of a CREATE block -> settings, or problems (a table of setting ->
    parser, in `settings_block`)."""
    draft = read_settings(lines, default_map=default_map, maps_dir=maps_dir)
    if draft.problems:
        return None, draft.problems
    flags = tuple(dict.fromkeys(draft.flags))
    return GameSettings(flags, draft.timing, draft.map_name, draft.private, draft.settings, draft.always), []


@dataclass(frozen=True)
class MapSummary:
    """One map a game can be created on, as `LIST MAPS` shows it."""

    name: str
    powers: tuple[str, ...]
    centres: int
    victory: int
    first_phase: str


def available_maps(maps_dir: Path | None) -> list[MapSummary]:
    """The installed maps and those payjudge ships (a map that no longer loads is left out)."""
    found = []
    for name in map_names(maps_dir):
        try:
            m = load_variant(name, maps_dir)
        except MapError:
            continue
        found.append(
            MapSummary(
                name,
                tuple(p.written or p.name for p in m.powers),
                len(m.supply_centers),
                m.victory,
                m.first_phase,
            )
        )
    return found
