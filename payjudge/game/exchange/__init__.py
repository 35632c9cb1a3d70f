"""Exchange Payola's use cases on the store (docs/exchange.md, "In the code"), one module
per concern: `market` (the turn's market, the share ledger, booking and rollback),
`sheets` (an account's exchange sheet as stored), `entry` (one exchange line of a mail),
`dividends` and `worths` (a company's lines), `votes` (CEOs, their votes and SET CEO),
`phases` (the game's start and processing an exchange phase), `mails` (what a phase
sends) and `liquidation` (the game's end). The names others use are gathered here."""

from __future__ import annotations

from .dividends import DividendTaken
from .entry import ExchangeTaken, enter_exchange_line
from .liquidation import liquidate_companies
from .market import (
    CompanyStanding,
    book,
    company_standings,
    holdings,
    load_market,
    market_json,
    open_market,
    roll_back_shares,
)
from .phases import process_exchange, start_exchange
from .sheets import record_exchange_sheet
from .votes import (
    CeoSet,
    CeoVoteTaken,
    ceo_of,
    ceo_votes,
    investor_seat,
    playing_investors,
    set_ceo,
    set_ceo_vote,
    vote_ceo,
)
from .worths import WorthTaken, check_allowance

__all__ = [
    "CeoSet",
    "CeoVoteTaken",
    "CompanyStanding",
    "DividendTaken",
    "ExchangeTaken",
    "WorthTaken",
    "book",
    "ceo_of",
    "ceo_votes",
    "check_allowance",
    "company_standings",
    "enter_exchange_line",
    "holdings",
    "investor_seat",
    "liquidate_companies",
    "load_market",
    "market_json",
    "open_market",
    "playing_investors",
    "process_exchange",
    "record_exchange_sheet",
    "roll_back_shares",
    "set_ceo",
    "set_ceo_vote",
    "start_exchange",
    "vote_ceo",
]
