"""What the surviving powers' standing votes decide: a concession, a draw, or nothing yet.

`phases.check_votes` asks `decision` after every phase and after a message with a VOTE or
a PROPOSE, and ends the game with the result it gets. Each rule of the decision is a
small step below, over `Vote` values (text/votes.py): who votes, whether everyone has,
whether all but one concede to that one, and how large a draw the votes accept.
"""

from __future__ import annotations

from typing import Any

from ..rules.flags import Flag
from ..rules.names import PowerName
from ..rules.position import Position
from ..text.votes import Vote, VoteKind
from ..vocabulary import SeatKind, SeatStatus
from .proposals import agreed
from .state import GameState

Result = dict[str, Any]  # what `phases.end_game` stores as `game.result`


def voters(st: GameState, pos: Position) -> list[PowerName]:
    """The surviving powers that vote: those with centres, except that a controlled power's
    vote is its controller's, and a controller whose own centres are gone survives through
    the powers it controls (seed 003 §1.8: it plays on)."""
    control = st.control()
    owning = {p for p in pos.powers_alive() if pos.centers.get(p)}
    teams = {control[p] for p in owning if p in control}
    return [p for p in pos.map.power_names if (p in owning and p not in control) or p in teams]


def decision(st: GameState, pos: Position) -> Result | None:
    """The end the standing votes agree on, if any. A concession when every other
    survivor concedes to one power; otherwise a draw. By default (DPjudge's DIAS) a draw
    includes every survivor and comes when nobody votes SOLO nor a smaller draw; under
    NO_DIAS the powers not conceding draw among themselves when each accepts a draw that
    size, and if every survivor concedes to another power, all draw."""
    if Flag.EXCHANGE in st.rules:
        return _investors_end(st)
    alive = voters(st, pos)
    silent = _silent(st, alive)
    if Flag.PROPOSE_DIAS in st.rules:
        return agreed(st, alive, silent)
    cast = _cast(st, alive, silent)
    if cast is None:
        return None
    return _concession(cast, alive) or _draw(st, cast, alive)


def _silent(st: GameState, alive: list[PowerName]) -> set[PowerName]:
    """A dummy nobody controls has no voice: the others decide without it (else one
    surviving dummy would block every draw and concession); under DIAS it still shares a
    draw."""
    dummies = {s.power for s in st.seats if s.status is SeatStatus.DUMMY}
    return {p for p in alive if p in dummies}


def _cast(st: GameState, alive: list[PowerName], silent: set[PowerName]) -> dict[PowerName, Vote] | None:
    """Every voice's standing vote, or None while one of them has none (a seat not
    playing, a resigned one, has none)."""
    seats = {s.power: s for s in st.seats}
    cast: dict[PowerName, Vote] = {}
    for power in alive:
        if power in silent:
            continue
        seat = seats.get(power)
        if seat is None or seat.status is not SeatStatus.PLAYING or seat.vote is None:
            return None
        cast[power] = seat.vote
    return cast or None


def _concession(cast: dict[PowerName, Vote], alive: list[PowerName]) -> Result | None:
    """Every voice but one concedes to that one, a survivor (its own vote is not asked)."""
    conceded = {v.conceded_to for v in cast.values() if v.kind is VoteKind.CONCEDE}
    if len(conceded) != 1:
        return None
    winner = conceded.pop()
    if winner is None or winner not in alive:
        return None
    others = [p for p in cast if p != winner]
    if all(cast[p] == Vote.concede(winner) for p in others):
        return {"type": "concession", "winner": winner}
    return None


def _draw(st: GameState, cast: dict[PowerName, Vote], alive: list[PowerName]) -> Result | None:
    """A draw of the drawers when each of them accepts a draw of that many, and nobody
    votes SOLO (NO_DRAW: never)."""
    if Flag.NO_DRAW in st.rules or any(v.kind is VoteKind.SOLO for v in cast.values()):
        return None
    drawers = _drawers(st, cast, alive)
    # a voice with another vote than a draw (a concession under NO_DIAS) sets no bound
    bounded = [cast[p] for p in drawers if p in cast and cast[p].kind is VoteKind.DRAW]
    if all(v.accepts_draw_of(len(drawers)) for v in bounded):
        return {"type": "draw", "powers": sorted(drawers)}
    return None


def _drawers(st: GameState, cast: dict[PowerName, Vote], alive: list[PowerName]) -> list[PowerName]:
    """Who shares a draw: every survivor (DIAS), or under NO_DIAS the voices not conceding
    (all of them if every one concedes)."""
    if Flag.NO_DIAS not in st.rules:
        return alive
    return [p for p in cast if cast[p].kind is not VoteKind.CONCEDE] or list(cast)


def _investors_end(st: GameState) -> Result | None:
    """Exchange Payola: the game ends when every playing investor's standing vote is END."""
    playing = [s for s in st.seats if s.kind is SeatKind.INVESTOR and s.status is SeatStatus.PLAYING]
    if playing and all(s.vote is not None and s.vote.kind is VoteKind.END for s in playing):
        return {"type": "investors"}
    return None
