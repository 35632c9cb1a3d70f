"""The end of an Exchange game (docs/exchange.md, "How the game ends"): every company's
treasury is paid out to its stockholders, booked at the last turn, and the investors are
ranked by their net worth."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ...payola.exchange.accounts import investor_name
from ...payola.exchange.liquidation import liquidate, ranking
from ...store import repo
from .. import money
from ..ledger import Posting
from ..state import GameState
from .market import by_account, record_money


def liquidate_companies(st: GameState, *, now: datetime) -> list[dict[str, Any]]:
    """Pay out every company's treasury; returns the investors' ranking by net worth (their
    cash after it), richest first."""
    s, game = st.session, st.game
    turn = st.turn
    if turn is None:
        return []
    balances = by_account(money.balances(s, game))
    companies = {str(p) for p in st.map.power_names}
    registers: dict[str, dict[str, int]] = {}
    for (company, holder), n in repo.holdings(s, game).items():
        registers.setdefault(company, {})[holder] = n
    moves = liquidate({c: balances.get(c, 0) for c in companies}, registers)
    at = Posting(turn.seq, turn.phase, now)
    for m in moves:
        record_money(s, game, m, at)
        balances[m.account] = balances.get(m.account, 0) + m.amount
    return [
        {"place": r.place, "investor": investor_name(r.investor), "net_worth": r.net_worth}
        for r in ranking(balances)
    ]
