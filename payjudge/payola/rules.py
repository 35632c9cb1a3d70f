"""The rule flags in force in a game (DPjudge's rule names) and its income settings, as one value."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

from ..rules.flag_registry import REGISTRY, closure, lookup, split_off
from ..rules.flags import Flag, Status

# Every flag is one `Flag` of the registry (payjudge/rules/flag_registry.py), which also says
# what each brings with it (PAYOLA_CLASSIC, LIMIT_OFFERS, RESTRICT_SIGNAL, PAY_DUMMIES…).
__all__ = ["CLASSIC_RATE", "Flag", "IncomeEvery", "IncomeScheme", "PayolaRules", "RulesError"]

# Payola classic pays this many AgP per centre (seed 001 section 6.1, "seven silver pieces").
CLASSIC_RATE: Final = 7


class IncomeEvery(enum.StrEnum):
    """When a game pays its tax income (rule 6.6; the game setting `income`, CREATE's
    `INCOME EVERY YEAR|MOVEMENT`)."""

    YEAR = "year"  # at the year's end, before the first movement of the next
    MOVEMENT = "movement"  # before every movement phase (twice a year on most maps)


class IncomeScheme(enum.StrEnum):
    """How the tax grows with the centres owned (rule 6.6; CREATE's `INCOME DECREASING|INCREASING`).
    Fixed schemes are `FLAT_TAX` and `TAX n`; a capped one is `CAP n`."""

    DECREASING = "decreasing"  # rule 2.1: the first centre pays V-1 AgP, each further one 1 less
    INCREASING = "increasing"  # the first centre pays 1 AgP, each further one 1 more, up to V-1


class RulesError(ValueError):
    """Contradictory rule flags or settings."""


@dataclass(frozen=True)
class PayolaRules:
    """The flags in force (implied ones included) and the income settings of rule 6.6.

    `tax`: a flat rate per centre (DPjudge's `TAX n`); `center_taxes`: the income of
    particular centres (`TAX <sc> n`); `cap`: the most any power receives in a year (`CAP n`).
    `income_every`: when the tax is paid (rule 6.6: yearly, or before every movement phase).
    `scheme`: how the default tax grows with the centres (rule 6.6: decreasing or increasing).
    `other` keeps names the flag registry does not know (only games stored before it).
    """

    flags: frozenset[Flag] = frozenset()
    tax: int | None = None
    center_taxes: Mapping[str, int] = field(default_factory=dict)
    cap: int | None = None
    other: frozenset[str] = frozenset()
    income_every: IncomeEvery = IncomeEvery.YEAR
    scheme: IncomeScheme = IncomeScheme.DECREASING

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
        if Flag.EXCHANGE in self.flags and self.center_taxes:
            raise RulesError("EXCHANGE has no TAX <centre> table: the CEOs set their centres' worths")
        if self.scheme is IncomeScheme.INCREASING:
            self._check_increasing()

    def _check_increasing(self) -> None:
        """The increasing scheme is the per-centre scale of rule 2.1 turned round: a fixed
        rate or a game without tax leaves it nothing to scale."""
        if Flag.ZEROSUM in self.flags:
            raise RulesError("a ZEROSUM game has no tax income: INCOME INCREASING cannot be used with it")
        if Flag.FLAT_TAX in self.flags:
            raise RulesError("INCOME INCREASING and FLAT_TAX cannot be used together: FLAT_TAX is fixed")
        if self.tax is not None or self.center_taxes:
            raise RulesError("INCOME INCREASING and TAX cannot be used together: TAX sets a fixed rate")

    @classmethod
    def from_flags(
        cls,
        names: Iterable[str] = (),
        *,
        tax: int | None = None,
        center_taxes: Mapping[str, int] | None = None,
        cap: int | None = None,
        income_every: IncomeEvery | str = IncomeEvery.YEAR,
        scheme: IncomeScheme | str = IncomeScheme.DECREASING,
    ) -> PayolaRules:
        """Read flag names (any case, aliases included) and add what they bring with them.

        Only flags payjudge implements are kept: one the registry marks `not yet` (say
        SILENT_ABSENCES, which NO_PRESS brings) is not in force here until it is written;
        names the registry does not know are kept in `other`."""
        named: set[Flag] = set()
        other: set[str] = set()
        words, off_words = split_off(names)
        for name in words:
            flag = lookup(name)
            if flag is None:
                other.add(name)
            else:
                named.add(flag)
        # `RULE !X` (X brought by another flag, as BLIND brings HIDE_DUMMIES): X is not in force
        off = {f for f in map(lookup, off_words) if f is not None}
        flags = frozenset(f for f in closure(named, off) if REGISTRY[f].status is Status.SUPPORTED)
        if Flag.PAYOLA_CLASSIC in flags and tax is None and not center_taxes:
            tax = CLASSIC_RATE
        return cls(
            flags,
            tax,
            dict(center_taxes or {}),
            cap,
            frozenset(other),
            IncomeEvery(income_every),
            IncomeScheme(scheme),
        )

    def __contains__(self, flag: object) -> bool:
        """A flag in force: one of `flags`, or one every Payola game plays by (ORDER_ANY…)."""
        if isinstance(flag, Flag):
            return flag in self.flags or REGISTRY[flag].status is Status.ALWAYS
        if isinstance(flag, str):  # for callers outside the engine (tests, JSON); code uses Flag
            name = flag.strip().upper()
            known = lookup(name)
            return name in self.other if known is None else known in self
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
