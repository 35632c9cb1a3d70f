"""PROPOSE_DIAS: a power proposes a draw of every survivor or a concession, and the others
answer; one NO vetoes it. The proposal and the answers are the seats' standing votes
(`Vote` values): the proposer's is a proposal (`PROPOSE DRAW`, `PROPOSE CONCEDE <power>`),
the others' YES (a NO clears them all at once). `phases.check_votes` ends the game when
every survivor agrees."""

from __future__ import annotations

from collections.abc import Collection

from ..rules.flags import Flag
from ..rules.names import PowerName
from ..store.models import Seat
from ..text.votes import Vote, VoteKind
from ..vocabulary import SeatStatus
from .context import CommandError
from .mailer import Mailer
from .notify import broadcast
from .state import GameState


def open_proposal(st: GameState) -> Seat | None:
    """The seat whose proposal is open, if any."""
    return next((s for s in st.seats if s.vote is not None and s.vote.is_proposal), None)


def describe(proposal: Vote | None) -> str:
    """What a proposal proposes, in words ("a draw including every survivor")."""
    winner = proposal.conceded_to if proposal is not None else None
    if winner is not None:
        return f"a concession to {winner}"
    return "a draw including every survivor"


def _clear(st: GameState) -> None:
    for seat in st.seats:
        seat.vote = None


def propose(st: GameState, mailer: Mailer, seat: Seat, proposal: Vote) -> str:
    """Open a proposal (DRAW or CONCEDE <power>) and tell everyone; under HIDE_PROPOSER
    without naming the proposer. Returns what was proposed, in words."""
    if Flag.PROPOSE_DIAS not in st.rules:
        raise CommandError(
            f"{st.game.name} does not use the rule PROPOSE_DIAS: "
            "write VOTE DRAW, VOTE SOLO or VOTE CONCEDE <power>"
        )
    current = open_proposal(st)
    if current is not None:
        raise CommandError(
            f"{describe(current.vote)} is already proposed: answer it with VOTE YES or VOTE NO first"
        )
    if proposal.kind is VoteKind.PROPOSE_DRAW and Flag.NO_DRAW in st.rules:
        raise CommandError(f"{st.game.name} uses the rule NO_DRAW: only a concession may be proposed")
    _clear(st)
    seat.vote = proposal
    what = describe(proposal)
    proposer = None if Flag.HIDE_PROPOSER in st.rules else seat.power
    broadcast(
        st,
        mailer,
        f"Diplomacy game {st.game.name}: {what} proposed",
        "proposal.txt.j2",
        outcome="proposed",
        what=what,
        proposer=proposer,
    )
    return what


def answer(st: GameState, mailer: Mailer, seat: Seat, yes: bool) -> str:
    """A power's YES or NO to the open proposal; a NO vetoes it, and everyone is told (not
    who said no). Returns what was proposed, in words."""
    current = open_proposal(st)
    if current is None:
        raise CommandError("no proposal is open: write PROPOSE DRAW or PROPOSE CONCEDE <power>")
    if current is seat:
        raise CommandError("you made the proposal; it counts as your YES")
    what = describe(current.vote)
    if yes:
        seat.vote = Vote(VoteKind.YES)
    else:
        _clear(st)
        broadcast(
            st,
            mailer,
            f"Diplomacy game {st.game.name}: proposal vetoed",
            "proposal.txt.j2",
            outcome="vetoed",
            what=what,
            proposer=None,
        )
    return what


def agreed(
    st: GameState, alive: list[PowerName], silent: Collection[PowerName] = ()
) -> dict[str, object] | None:
    """The result every survivor agreed to, if the open proposal has a YES from each
    (`silent`: the uncontrolled dummies among them, which have no vote)."""
    current = open_proposal(st)
    if current is None:
        return None
    seats = {s.power: s for s in st.seats}
    for power in alive:
        if power in silent:
            continue
        s = seats.get(power)
        if s is None or s.status is not SeatStatus.PLAYING or not (s is current or _said_yes(s)):
            return None
    winner = current.vote.conceded_to if current.vote is not None else None
    if winner is not None:
        return {"type": "concession", "winner": winner}
    return {"type": "draw", "powers": sorted(alive)}


def _said_yes(seat: Seat) -> bool:
    return seat.vote is not None and seat.vote.kind is VoteKind.YES
