"""Exchange Payola's investors as accounts and seats (docs/exchange.md, "Parties and
accounts"): the account a command names (TRANSFER to an investor), and a seat changing
hands. A resigning investor keeps its cash and shares with the seat for whoever takes it
over (`TAKEOVER <name>@<game>`); each company it ran passes at once to its largest other
playing stockholder (choice 16: `election.successor`, ties drawn from the phase's seed),
or is unmanaged, in the open turn's market snapshot, so a rollback undoes it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar

from ..payola.exchange.accounts import investor_key, investor_name, is_investor
from ..payola.exchange.election import successor
from ..rules.flags import Flag
from ..rules.names import PowerName
from ..store import repo
from ..store.models import Seat
from ..vocabulary import SeatKind
from . import lifecycle
from .context import CommandError
from .exchange import investor_seat, playing_investors
from .mailer import Mailer
from .notify import broadcast
from .state import GameState


@dataclass(frozen=True)
class Succession:
    company: str
    ceo: str | None  # None: unmanaged


@dataclass(frozen=True)
class InvestorResigned:
    """`templates/notes/investor_resigned.txt.j2`: the resigning investor's reply."""

    note: ClassVar[str] = "investor_resigned"
    investor: str
    game: str
    successions: tuple[Succession, ...]


@dataclass(frozen=True)
class OpenInvestorSeat:
    """`templates/investor_resigned.txt.j2`: everyone's news of it (CEOs are public)."""

    game_name: str
    investor: str
    successions: tuple[Succession, ...]


def account(seat: Seat) -> PowerName:
    """The account an investor's seat signs on as (`@ALICE`)."""
    assert seat.investor_name is not None
    return PowerName(investor_key(seat.investor_name))


def investor_accounts(st: GameState) -> tuple[PowerName, ...]:
    """Every investor's account, its seat played or not (a resigned seat's cash waits for
    its next player, and may be given to)."""
    return tuple(account(seat) for seat in st.seats if seat.kind is SeatKind.INVESTOR and seat.investor_name)


def account_named(st: GameState, word: str) -> PowerName | None:
    """The account a command names: a power (a company) by name or initial, or in an
    Exchange game an investor by name."""
    power = st.map.power(word)
    if power is not None:
        return power.name
    if Flag.EXCHANGE not in st.rules:
        return None
    seat = investor_seat(st, word)
    return account(seat) if seat is not None and seat.investor_name else None


def seat_to_take_over(st: GameState, name: str) -> Seat:
    """The investor seat `TAKEOVER <name>@<game>` names (companies have no seats)."""
    seat = investor_seat(st, name)
    if seat is None:
        raise CommandError(
            f"there is no investor {name.upper()} in {st.game.name} "
            f"(write TAKEOVER <name>@{st.game.name} <password> with a resigned investor's name)"
        )
    return seat


def resign_investor(st: GameState, mailer: Mailer, seat: Seat, *, now: datetime) -> InvestorResigned:
    name = seat.investor_name
    assert name is not None
    lifecycle.resign(st, seat, now=now)  # nothing forfeited
    passed = pass_companies(st, name)
    broadcast(
        st,
        mailer,
        f"Exchange resignation {st.game.name}",
        "investor_resigned.txt.j2",
        v=OpenInvestorSeat(st.game.name, name, passed),
    )
    return InvestorResigned(name, st.game.name, passed)


def pass_companies(st: GameState, departing: str) -> tuple[Succession, ...]:
    """Hand every company `departing` runs to its successor, in the open turn's market."""
    turn = st.turn
    if turn is None or turn.market is None:  # not started, or over: nobody runs anything
        return ()
    ceos = dict(turn.market["ceos"])
    run = sorted(company for company, ceo in ceos.items() if ceo == departing)
    if not run:
        return ()
    playing = playing_investors(st)
    held = repo.holdings(st.session, st.game)
    passed = []
    for company in run:
        register = {investor_name(h): n for (c, h), n in held.items() if c == company and is_investor(h)}
        ceos[company] = successor(company, register, departing, playing, turn.seed)
        passed.append(Succession(company, ceos[company]))
    turn.market = {**turn.market, "ceos": ceos}
    return tuple(passed)
