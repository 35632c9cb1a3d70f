"""A company's CEO election (docs/exchange.md, "CEOs and elections"): standing votes, one
vote per share held after the phase's trades, plurality. Ties go to the sitting CEO, then
to the tied candidate holding most shares, then to a draw from the seed. With no share
voting the sitting CEO stays while playing, else the largest playing stockholder takes
over; a company nobody playing holds has no CEO.

Names here are investors' names (`ALICE`), as votes are written."""

from __future__ import annotations

import enum
import random
from collections.abc import Collection, Mapping
from dataclasses import dataclass


class Reason(enum.Enum):
    """How the CEO was chosen; the annual report says it in words."""

    VOTES = "votes"  # the most share-votes
    TIE_SITTING = "tie_sitting"  # tied, and the sitting CEO was among them
    TIE_HOLDER = "tie_holder"  # tied, and one of them holds most shares
    TIE_DRAW = "tie_draw"  # tied all the way: drawn
    SITTING = "sitting"  # no share voted: the sitting CEO stays
    LARGEST_HOLDER = "largest_holder"  # no share voted, no sitting CEO: the largest holder
    LARGEST_HOLDER_DRAW = "largest_holder_draw"  # the same, drawn among the largest
    NOBODY = "nobody"  # nobody playing holds shares: unmanaged


@dataclass(frozen=True, slots=True)
class Election:
    company: str
    ceo: str | None
    reason: Reason
    tally: tuple[tuple[str, int], ...]  # (candidate, share-votes), most first, then by name


def _draw(names: Collection[str], seed: int | str, company: str) -> str:
    return random.Random(f"payjudge-elect:{seed}:{company}").choice(sorted(names))


def _tally(
    register: Mapping[str, int], votes: Mapping[str, str | None], playing: Collection[str]
) -> tuple[tuple[str, int], ...]:
    """Share-votes per playing candidate, most first, then by name."""
    tally: dict[str, int] = {}
    for voter, candidate in votes.items():
        weight = register.get(voter, 0)
        if candidate is not None and candidate in playing and weight > 0:
            tally[candidate] = tally.get(candidate, 0) + weight
    return tuple(sorted(tally.items(), key=lambda kv: (-kv[1], kv[0])))


def _by_votes(
    company: str,
    ordered: tuple[tuple[str, int], ...],
    register: Mapping[str, int],
    sitting: str | None,
    seed: int | str,
) -> Election:
    """The winner of a tally with votes in it, ties broken as the module says."""
    top = ordered[0][1]
    tied = [name for name, n in ordered if n == top]
    if len(tied) == 1:
        return Election(company, tied[0], Reason.VOTES, ordered)
    if sitting in tied:
        return Election(company, sitting, Reason.TIE_SITTING, ordered)
    most = max(register.get(name, 0) for name in tied)
    holders = [name for name in tied if register.get(name, 0) == most]
    if len(holders) == 1:
        return Election(company, holders[0], Reason.TIE_HOLDER, ordered)
    return Election(company, _draw(holders, seed, company), Reason.TIE_DRAW, ordered)


def elect(
    company: str,
    register: Mapping[str, int],
    votes: Mapping[str, str | None],
    incumbent: str | None,
    playing: Collection[str],
    seed: int | str,
) -> Election:
    """`register`: investor name -> shares of `company` after the trades; `votes`: voter
    -> candidate (None: withdrawn); `playing`: the investors who may be CEO."""
    ordered = _tally(register, votes, playing)
    sitting = incumbent if incumbent in playing else None
    if ordered:
        return _by_votes(company, ordered, register, sitting, seed)
    if sitting is not None:
        return Election(company, sitting, Reason.SITTING, ordered)
    holding = {name: n for name, n in register.items() if n > 0 and name in playing}
    if not holding:
        return Election(company, None, Reason.NOBODY, ordered)
    most = max(holding.values())
    largest = [name for name, n in holding.items() if n == most]
    if len(largest) == 1:
        return Election(company, largest[0], Reason.LARGEST_HOLDER, ordered)
    return Election(company, _draw(largest, seed, company), Reason.LARGEST_HOLDER_DRAW, ordered)


def successor(
    company: str, register: Mapping[str, int], departing: str, playing: Collection[str], seed: int | str
) -> str | None:
    """A CEO who resigns or is dismissed hands the company at once to its largest other
    playing stockholder (ties drawn from the seed of the current phase), or to nobody."""
    holding = {n: k for n, k in register.items() if k > 0 and n != departing and n in playing}
    if not holding:
        return None
    most = max(holding.values())
    largest = [n for n, k in holding.items() if k == most]
    return largest[0] if len(largest) == 1 else _draw(largest, seed, company)
