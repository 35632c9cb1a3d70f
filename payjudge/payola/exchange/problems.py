"""What can be wrong with an exchange sheet when it is sent (docs/exchange.md, "Mail
commands", errors), as typed values: the caller tells problems apart by their kind and
shows their text, which is the reply's."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class ProblemKind(enum.Enum):
    """One limit of docs/exchange.md that an exchange sheet broke."""

    FLOAT_COMPANY = "float_company"  # a company order at the float
    FOREIGN_STOCK = "foreign_stock"  # a company trading another's stock
    BOTH_SIDES = "both_sides"  # buying and selling one company in one phase
    OVERSOLD = "oversold"  # selling more shares than held
    OVERCOMMITTED = "overcommitted"  # buy orders committing more than the cash
    NOT_OWNED = "not_owned"  # a worth for a centre the company does not own
    NEGATIVE_WORTH = "negative_worth"
    OVER_ALLOWANCE = "over_allowance"  # worths adding up to more than the allowance
    NO_OUTSTANDING = "no_outstanding"  # a dividend with no shares held by investors
    DIVIDEND_TOO_HIGH = "dividend_too_high"  # more than the treasury covers


@dataclass(frozen=True, slots=True)
class ExchangeProblem:
    kind: ProblemKind
    text: str  # in the reply's words

    def __str__(self) -> str:
        return self.text
