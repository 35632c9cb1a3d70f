"""The Payola rule flags of a game (DPjudge's rule names) and its income settings, as one value."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Iterable, Mapping


class Flag(enum.Enum):
    """The rule flags that change what the Payola engine does."""

    # offer sheets (rule 3)
    DIRECT_ONLY = "DIRECT_ONLY"          # one `:` offer per unit; no `|`, `*`, `+`
    NO_SAVINGS = "NO_SAVINGS"            # no `$` and no `#`
    NO_PLATEAU = "NO_PLATEAU"            # no `#`
    ZERO_FOREIGN = "ZERO_FOREIGN"        # 0 AgP offers to foreign units allowed
    LIMIT_OFFERS = "LIMIT_OFFERS"        # the whole sheet within the balance
    PAY_DUMMIES = "PAY_DUMMIES"          # own units take plain orders; bribes to dummies only
    TOUCH_BRIBE = "TOUCH_BRIBE"          # foreign units must be adjacent to one of yours
    REMOTE_BRIBE = "REMOTE_BRIBE"        # foreign units must not be adjacent to any of yours
    SIGNAL_SUPPORT = "SIGNAL_SUPPORT"    # void "signal" supports allowed (`... ?`)
    RESTRICT_SIGNAL = "RESTRICT_SIGNAL"  # signals: owner only, 0 AgP, replace a winning HOLD
    # order determination (rule 5, 6.4)
    EBAYOLA = "EBAYOLA"
    PUBLIC_TOTALS = "PUBLIC_TOTALS"      # (also: plateaus do not limit eBayola rebates)
    # reports (rule 5.7)
    HIDE_COST = "HIDE_COST"
    HIDE_OFFERS = "HIDE_OFFERS"
    NO_LEDGERS = "NO_LEDGERS"
    # accounts (rule 2, 6.6, 6.7)
    FLAT_TAX = "FLAT_TAX"
    NO_HOARDING = "NO_HOARDING"
    ZEROSUM = "ZEROSUM"
    NO_TRANSFER = "NO_TRANSFER"
    ONE_TRANSFER = "ONE_TRANSFER"
    NO_DONATIONS = "NO_DONATIONS"
    NO_LOOTING = "NO_LOOTING"
    ANON_TRANSFER = "ANON_TRANSFER"
    # compound (seed 001 section 6.1)
    PAYOLA_CLASSIC = "PAYOLA_CLASSIC"
    # general rules the engine consults
    CD_DUMMIES = "CD_DUMMIES"
    DEFAULT_UNORDERED = "DEFAULT_UNORDERED"


# DPjudge's rule table: a flag brings these with it.
IMPLIES: Mapping[Flag, frozenset[Flag]] = MappingProxyType({
    Flag.PAYOLA_CLASSIC: frozenset({Flag.FLAT_TAX, Flag.NO_SAVINGS, Flag.DIRECT_ONLY, Flag.ZERO_FOREIGN}),
    Flag.LIMIT_OFFERS: frozenset({Flag.DIRECT_ONLY}),
    Flag.RESTRICT_SIGNAL: frozenset({Flag.SIGNAL_SUPPORT}),
})

# Names the DPjudge documentation uses for flags its code calls otherwise.
ALIASES: Mapping[str, Flag] = MappingProxyType({
    "TOUCH_OFFER": Flag.TOUCH_BRIBE,
    "REMOTE_OFFER": Flag.REMOTE_BRIBE,
})

# Payola classic pays this many AgP per centre (seed 001 section 6.1, "seven silver pieces").
CLASSIC_RATE = 7


class RulesError(ValueError):
    """Contradictory rule flags or settings."""


@dataclass(frozen=True)
class PayolaRules:
    """The flags in force (implied ones included) and the income settings of rule 6.6.

    `tax`: a flat rate per centre (DPjudge's `TAX n`); `center_taxes`: the income of
    particular centres (`TAX <sc> n`); `cap`: the most any power receives in a year (`CAP n`).
    `other` keeps flags the Payola engine does not know (they belong to other layers).
    """

    flags: frozenset[Flag] = frozenset()
    tax: int | None = None
    center_taxes: Mapping[str, int] = field(default_factory=dict)
    cap: int | None = None
    other: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        object.__setattr__(self, "center_taxes", MappingProxyType(dict(self.center_taxes)))
        if Flag.TOUCH_BRIBE in self.flags and Flag.REMOTE_BRIBE in self.flags:
            raise RulesError("TOUCH_BRIBE and REMOTE_BRIBE cannot both be in force")
        if self.tax is not None and self.tax < 0:
            raise RulesError("TAX must not be negative")
        if self.cap is not None and self.cap < 1:
            raise RulesError("CAP must be at least 1")
        if any(v < 0 for v in self.center_taxes.values()):
            raise RulesError("a centre's TAX must not be negative")

    @classmethod
    def from_flags(cls, names: Iterable[str] = (), *, tax: int | None = None,
                   center_taxes: Mapping[str, int] | None = None, cap: int | None = None) -> PayolaRules:
        """Read flag names (any case); add the flags they imply (PAYOLA_CLASSIC, LIMIT_OFFERS…)."""
        flags: set[Flag] = set()
        other: set[str] = set()
        for raw in names:
            name = str(raw).strip().upper()
            if not name:
                continue
            flag = ALIASES.get(name)
            if flag is None:
                try:
                    flag = Flag(name)
                except ValueError:
                    other.add(name)
                    continue
            flags.add(flag)
        changed = True
        while changed:
            changed = False
            for flag in list(flags):
                extra = IMPLIES.get(flag, frozenset()) - flags
                if extra:
                    flags |= extra
                    changed = True
        if Flag.PAYOLA_CLASSIC in flags and tax is None and not center_taxes:
            tax = CLASSIC_RATE
        return cls(frozenset(flags), tax, dict(center_taxes or {}), cap, frozenset(other))

    def __contains__(self, flag: object) -> bool:
        if isinstance(flag, Flag):
            return flag in self.flags
        if isinstance(flag, str):
            name = flag.upper()
            return name in self.other or any(f.value == name for f in self.flags)
        return False

    # -- the questions the engine asks, by name --------------------------------------
    @property
    def plateaus_allowed(self) -> bool:
        return Flag.NO_PLATEAU not in self.flags and Flag.NO_SAVINGS not in self.flags

    @property
    def savings_allowed(self) -> bool:
        return Flag.NO_SAVINGS not in self.flags

    @property
    def signals_allowed(self) -> bool:
        return Flag.SIGNAL_SUPPORT in self.flags

    def names(self) -> tuple[str, ...]:
        """Every flag in force, sorted (for reports and round trips)."""
        return tuple(sorted({f.value for f in self.flags} | set(self.other)))
