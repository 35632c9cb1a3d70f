"""The lines of Exchange Payola's mail (docs/exchange.md, "Mail commands"): BUY and SELL
orders, PASS, DIVIDEND, WORTH and VOTE CEO, read into values. A line that cannot be read
raises `LineError` (invalid) with the message the reply shows; whether the order is
allowed (cash, holdings, phase) is the engine's business (`payola/exchange/orders.py`).

`companies` maps every word that names a company (its name, its initial, an alias) to the
company's name, as the caller's map knows them."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Final

from ..payola.exchange.market import Side
from .numbers import whole_number
from .problems import invalid

MAX_PRICE: Final = 9999


@dataclass(frozen=True, slots=True)
class TradeLine:
    side: Side
    shares: int
    company: str
    price: int


@dataclass(frozen=True, slots=True)
class PassLine:
    pass


@dataclass(frozen=True, slots=True)
class DividendLine:
    per_share: int


@dataclass(frozen=True, slots=True)
class WorthLine:
    centre: str | None  # None: every centre the company owns
    worth: int


@dataclass(frozen=True, slots=True)
class CeoVoteLine:
    company: str
    candidate: str | None  # None: the vote is withdrawn


ExchangeLine = TradeLine | PassLine | DividendLine | WorthLine | CeoVoteLine


def _company(word: str, companies: Mapping[str, str]) -> str:
    try:
        return companies[word.upper()]
    except KeyError:
        raise invalid(f"there is no company {word.upper()}") from None


def _trade(
    words: list[str], companies: Mapping[str, str], shares: int, centres: Collection[str]
) -> TradeLine:
    head = words[0]
    if len(words) != 5 or words[3] != "AT":
        raise invalid(f"write {head} <shares> <company> AT <price>, e.g. {head} 4 FRANCE AT 6")
    company = _company(words[2], companies)
    n = whole_number(words[1], shares, what="the number of shares")
    if n < 1:
        raise invalid(f"the number of shares must be a whole number from 1 to {shares}")
    price = whole_number(words[4], MAX_PRICE, what="the price", limit=f"{MAX_PRICE} AgP")
    if price < 1:
        raise invalid(f"the price must be a whole number of AgP from 1 to {MAX_PRICE}")
    return TradeLine(Side(head.lower()), n, company, price)


def _pass(words: list[str], companies: Mapping[str, str], shares: int, centres: Collection[str]) -> PassLine:
    if len(words) != 1:
        raise invalid("PASS is written alone on its line")
    return PassLine()


def _dividend(
    words: list[str], companies: Mapping[str, str], shares: int, centres: Collection[str]
) -> DividendLine:
    if len(words) != 2:
        raise invalid("write DIVIDEND <AgP a share>, e.g. DIVIDEND 2")
    return DividendLine(whole_number(words[1], MAX_PRICE, what="a dividend", limit=f"{MAX_PRICE} AgP"))


def _worth(
    words: list[str], companies: Mapping[str, str], shares: int, centres: Collection[str]
) -> WorthLine:
    if len(words) == 2:
        return WorthLine(None, whole_number(words[1], what="a worth"))
    if len(words) != 3:
        raise invalid("write WORTH <centre> <AgP>, or WORTH <AgP> for every centre")
    centre = words[1]
    if centre not in centres:
        raise invalid(f"{centre} is not a supply centre")
    return WorthLine(centre, whole_number(words[2], what="a worth"))


def _vote(
    words: list[str], companies: Mapping[str, str], shares: int, centres: Collection[str]
) -> CeoVoteLine:
    if len(words) < 2 or words[1] != "CEO":
        raise invalid("VOTE is not an exchange order")
    if len(words) != 4:
        raise invalid("write VOTE CEO <company> <investor>, or VOTE CEO <company> NONE")
    company = _company(words[2], companies)
    return CeoVoteLine(company, None if words[3] == "NONE" else words[3])


# each order's first word -> the reader of its line (words in capitals)
_READERS: Final[
    Mapping[str, Callable[[list[str], Mapping[str, str], int, Collection[str]], ExchangeLine]]
] = {
    "BUY": _trade,
    "SELL": _trade,
    "PASS": _pass,
    "DIVIDEND": _dividend,
    "WORTH": _worth,
    "VOTE": _vote,
}


def parse_exchange_line(
    text: str, *, companies: Mapping[str, str], shares: int, centres: Collection[str] = ()
) -> ExchangeLine:
    """One line; `shares` is the game's SHARES (the most one order may name)."""
    words = text.upper().split()
    if not words:
        raise invalid("an empty line")
    reader = _READERS.get(words[0])
    if reader is None:
        raise invalid(f"{words[0]} is not an exchange order")
    return reader(words, companies, shares, centres)


def normalized(line: ExchangeLine) -> str:
    """A line as the judge stores and echoes it (`BUY 4 FRANCE AT 6`)."""
    match line:
        case TradeLine(side, n, company, price):
            return f"{side.value.upper()} {n} {company} AT {price}"
        case PassLine():
            return "PASS"
        case DividendLine(d):
            return f"DIVIDEND {d}"
        case WorthLine(centre, worth):
            return f"WORTH {centre} {worth}" if centre else f"WORTH {worth}"
        case CeoVoteLine(company, candidate):
            return f"VOTE CEO {company} {candidate or 'NONE'}"
    raise ValueError(line)
