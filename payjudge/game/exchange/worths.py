"""A company's WORTH lines (docs/exchange.md, "Worth and income"): the centres a CEO may
set, the allowance their worths may not exceed, and what the reply says of them. The
total is checked once the message's every WORTH line is in (`check_allowance`), so that
their order in the message does not matter."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...payola.exchange.phase import MarketState, phase_after
from ...payola.exchange.problems import ExchangeProblem
from ...payola.exchange.worth import allowance, check_worths
from ...rules.names import PowerName
from ...text.exchange_orders import ExchangeOrders
from ..context import CommandError
from ..state import GameState
from .market import load_market
from .sheets import exchange_turn, stored_orders


@dataclass(frozen=True)
class WorthTaken:
    """`templates/notes/worth.txt.j2`: the company's centres' worths after the line."""

    note: ClassVar[str] = "worth"
    company: str
    phase: str  # the phase from which they count
    worths: tuple[tuple[str, int], ...]
    allowance: int


def owned_centres(st: GameState, company: str) -> list[str]:
    """The centres `company` owns now, in alphabetical order."""
    pos = st.position
    assert pos is not None
    return sorted(pos.centers.get(PowerName(company), ()))


def worth_problems(
    st: GameState, company: str, orders: ExchangeOrders, state: MarketState
) -> list[ExchangeProblem]:
    """What is wrong with the worths `orders` set for `company` (none set: nothing)."""
    if not orders.worths:
        return []
    pos = st.position
    assert pos is not None
    owned = owned_centres(st, company)
    return check_worths(company, owned, state.worths, orders.worth_changes, pos, st.rules)


def worth_taken(st: GameState, company: str, orders: ExchangeOrders, state: MarketState) -> WorthTaken:
    """Every centre's worth the company will have after the phase, with its allowance."""
    turn, pos = st.turn, st.position
    assert turn is not None and pos is not None
    owned = owned_centres(st, company)
    changes = orders.worth_changes
    worths = tuple((c, changes.get(c, state.worths.get(c, 0))) for c in owned)
    return WorthTaken(company, phase_after(turn.phase).title, worths, allowance(len(owned), pos, st.rules))


def check_allowance(st: GameState, account: str) -> None:
    """The worths a company's stored sheet sets may not add up to more than its allowance
    (docs/exchange.md, "Worth and income"); raises CommandError."""
    turn = exchange_turn(st)
    assert turn.market is not None
    state = load_market(st.session, st.game, turn.market)
    problems = worth_problems(st, account, stored_orders(st, account, state), state)
    if problems:
        raise CommandError("; ".join(map(str, problems)))
