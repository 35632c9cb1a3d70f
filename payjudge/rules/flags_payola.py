"""The rule flags of Payola (seed 003 §3): the rules Payola includes or forbids,
transfers, income, secrecy, offers (read by `flag_registry.py`)."""

from __future__ import annotations

from typing import Final

from .flag_declare import NO, S, declare
from .flags import Flag as F
from .flags import FlagInfo

PAYOLA_FLAGS: Final[tuple[FlagInfo, ...]] = (
    # 3.1 rules Payola includes or forbids
    declare(
        F.NO_CHECK,
        "3.1",
        NO,
        "orders would be accepted unchecked and judged only at processing",
        reason="a rule of standard Diplomacy only; a Payola sheet is checked as it arrives",
    ),
    # 3.2 transfers
    declare(F.ANON_TRANSFER, "3.2", S, "the receiver of a TRANSFER is not told who sent it"),
    declare(F.NO_DONATIONS, "3.2", S, "eliminated powers may not transfer money", excludes=(F.GARRISON,)),
    declare(F.NO_TRANSFER, "3.2", S, "no TRANSFER at all"),
    declare(F.ONE_TRANSFER, "3.2", S, "at most one TRANSFER to each power per phase"),
    declare(F.NO_LOOTING, "3.2", S, "dummy powers' money may not be transferred"),
    # 3.3 income
    declare(
        F.EXCHANGE,
        "3.3",
        S,
        "players are investors trading shares in the powers (Exchange Payola, docs/exchange.md)",
        # its own money model; players who are powers; no power seats; not designed blind
        excludes=(F.ZEROSUM, F.PAY_DUMMIES, F.VASSAL_DUMMIES, F.POWER_CHOICE, F.BLIND),
    ),
    declare(F.FLAT_TAX, "3.3", S, "each centre pays as many AgP as the game has powers"),
    declare(F.NO_HOARDING, "3.3", S, "unspent money is lost before the year's income is paid"),
    declare(F.ZEROSUM, "3.3", S, "no income: a captured centre brings a share of the loser's treasury"),
    # 3.4 secrecy
    declare(
        F.EBAYOLA,
        "3.4",
        S,
        "the winning offer pays one AgP more than the best losing one; the savings go back",
    ),
    declare(F.HIDE_COST, "3.4", S, "statements do not show what each of your units was paid"),
    declare(F.HIDE_OFFERS, "3.4", S, "statements do not repeat your offers or which were accepted"),
    declare(
        F.PUBLIC_TOTALS,
        "3.4",
        S,
        "the results of each movement phase give the total every unit "
        "accepted (never who paid it); eBayola rebates are not limited by plateaus",
    ),
    declare(F.NO_LEDGERS, "3.4", S, "no statement of spending and balance after each phase"),
    # 3.5 offers
    declare(F.DIRECT_ONLY, "3.5", S, "one plain (:) offer per unit and power; no wildcards"),
    declare(
        F.RESTRICT_SIGNAL,
        "3.5",
        S,
        "only the owner may signal, at 0 AgP, in place of a winning HOLD",
        implies=(F.SIGNAL_SUPPORT,),
    ),
    declare(
        F.PAY_DUMMIES,
        "3.5",
        S,
        "powers order their own units; offers go to dummies' units only",
        implies=(F.CD_DUMMIES,),
    ),
    declare(F.NO_SAVINGS, "3.5", S, "no savings requests ($) and no plateaus (#)"),
    declare(F.NO_PLATEAU, "3.5", S, "no plateaus (#)"),
    declare(
        F.PAYOLA_CLASSIC,
        "3.5",
        S,
        "the original Payola rules: 7 AgP a centre, direct offers only",
        implies=(F.NO_SAVINGS, F.DIRECT_ONLY, F.FLAT_TAX, F.ZERO_FOREIGN),
    ),
    declare(
        F.LIMIT_OFFERS,
        "3.5",
        S,
        "a sheet's offers may not add up to more than the balance (brings DIRECT_ONLY, as in DPjudge)",
        implies=(F.DIRECT_ONLY,),
    ),
    declare(
        F.REMOTE_BRIBE,
        "3.5",
        S,
        "offers to foreign units only if none of your units is next to them",
        aliases=("REMOTE_OFFER",),
        excludes=(F.TOUCH_BRIBE,),
    ),
    declare(
        F.TOUCH_BRIBE,
        "3.5",
        S,
        "offers to foreign units only if one of your units is next to them",
        aliases=("TOUCH_OFFER",),
    ),
    declare(F.ZERO_FOREIGN, "3.5", S, "offers of 0 AgP to foreign units are allowed"),
)
