"""Who runs each company (docs/exchange.md, "CEOs and elections"): investors' seats, the
standing CEO votes they send, the CEO a company has now, and the Master's SET CEO. The
election itself is the engine's (`payola/exchange/election.py`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar

from ...rules.names import PowerName
from ...store import Session, repo
from ...store.models import CeoVote, Game, Seat
from ...text.exchange import CeoVoteLine
from ...vocabulary import SeatKind, SeatStatus
from ..context import CommandError
from ..state import GameState
from .sheets import parse_line


def set_ceo_vote(
    s: Session, game: Game, voter: str, company: str, candidate: str | None, *, now: datetime
) -> None:
    """Record a standing CEO vote (None withdraws it): the latest row counts."""
    s.add(CeoVote(game_id=game.id, voter=voter, company=company, candidate=candidate, set_at=now))


def ceo_votes(s: Session, game: Game) -> dict[str, dict[str, str | None]]:
    """company -> voter -> candidate, as `run_exchange` takes them."""
    out: dict[str, dict[str, str | None]] = {}
    for (voter, company), candidate in repo.ceo_votes(s, game).items():
        out.setdefault(company, {})[voter] = candidate
    return out


def playing_investors(st: GameState) -> frozenset[str]:
    return frozenset(
        s.investor_name
        for s in st.seats
        if s.kind is SeatKind.INVESTOR and s.status is SeatStatus.PLAYING and s.investor_name
    )


def investor_seat(st: GameState, name: str) -> Seat | None:
    """The seat of the investor called `name` (any case), if there is one."""
    for seat in st.seats:
        if seat.kind is SeatKind.INVESTOR and seat.investor_name == name.upper():
            return seat
    return None


def ceo_of(st: GameState, company: PowerName) -> str | None:
    """The investor who runs `company` now (None: unmanaged, or not an Exchange game)."""
    market = st.market()
    ceo = market.get("ceos", {}).get(str(company)) if market else None
    return str(ceo) if ceo else None


@dataclass(frozen=True)
class CeoVoteTaken:
    """`templates/notes/ceo_vote.txt.j2`."""

    note: ClassVar[str] = "ceo_vote"
    company: str
    candidate: str | None


def vote_ceo(st: GameState, voter: str, text: str, *, now: datetime) -> CeoVoteTaken:
    """VOTE CEO <company> <investor>|NONE: a standing vote of the investor `voter` (its
    name), counted at every exchange phase with the shares it then holds."""
    parsed = parse_line(st, text, 1)
    if not isinstance(parsed, CeoVoteLine):
        raise CommandError("write VOTE CEO <company> <investor>, or VOTE CEO <company> NONE")
    candidate = parsed.candidate
    if candidate is not None and investor_seat(st, candidate) is None:
        raise CommandError(f"there is no investor {candidate}")
    set_ceo_vote(st.session, st.game, voter, parsed.company, candidate, now=now)
    return CeoVoteTaken(parsed.company, candidate)


@dataclass(frozen=True)
class CeoSet:
    """`templates/notes/ceo_set.txt.j2`: the Master's SET CEO."""

    note: ClassVar[str] = "ceo_set"
    company: str
    ceo: str | None


def set_ceo(st: GameState, company: PowerName, name: str | None) -> CeoSet:
    """The Master appoints (or, with None, removes) a company's CEO at once, for games
    that stall (docs/exchange.md, "CEOs and elections"); kept in the turn's market, so a
    rollback undoes it."""
    turn = st.turn
    if turn is None or turn.market is None:
        raise CommandError(f"{st.game.name} has no market yet: a CEO is set once the game has started")
    if name is not None:
        seat = investor_seat(st, name)
        if seat is None or seat.status is not SeatStatus.PLAYING or not seat.investor_name:
            raise CommandError(f"there is no playing investor {name.upper()}")
        name = seat.investor_name
    turn.market = {**turn.market, "ceos": {**turn.market["ceos"], str(company): name}}
    return CeoSet(str(company), name)
