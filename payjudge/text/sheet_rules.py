"""The checks an offer line must pass beyond its grammar: who may be offered what, under
which rule flags (rule 3.1 item 2, DIRECT_ONLY, LIMIT_OFFERS, ZERO_FOREIGN, PAY_DUMMIES,
TOUCH_BRIBE, REMOTE_BRIBE, RESTRICT_SIGNAL)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final

from ..payola.offers import Offer, OfferKind, SheetItem, SignalSupport
from ..payola.rules import Flag, PayolaRules
from ..rules.errors import ProblemKind
from ..rules.flag_registry import REGISTRY
from ..rules.flags import Status
from ..rules.names import PowerName
from ..rules.orders import Unit
from ..rules.position import Position
from ..rules.proximity import supports_either_way
from .problems import Problem, illegal

# the flags every Payola game plays by (`PayolaRules.__contains__`)
_ALWAYS: Final = frozenset(f for f, info in REGISTRY.items() if info.status is Status.ALWAYS)


@lru_cache(maxsize=64)
def in_force(flags: frozenset[Flag]) -> frozenset[Flag]:
    """Every flag in force in a game of `flags`, as `flag in rules` answers: one set per
    flag set (its hash is kept, and offer_memo looks its readings up by it)."""
    return flags | _ALWAYS


@dataclass
class SheetContext:
    """What the checks need to know, and what the lines above have already offered."""

    position: Position
    power: PowerName
    rules: PayolaRules
    balance: int | None
    dummies: frozenset[PowerName]
    offered: dict[str, int] = field(default_factory=dict)  # province -> first line
    signals: set[str] = field(default_factory=set)  # provinces given a signal (RESTRICT_SIGNAL)
    # every flag in force (`in_force`): every line asks several times
    in_force: frozenset[Flag] = field(init=False)

    def __post_init__(self) -> None:
        self.in_force = in_force(self.rules.flags)

    def note(self, item: SheetItem) -> None:
        if isinstance(item, Offer):
            self.offered.setdefault(item.unit.province, item.line)
            # (`signals` is asked under RESTRICT_SIGNAL only)
            if Flag.RESTRICT_SIGNAL in self.in_force and any(
                isinstance(o, SignalSupport) for o in item.orders
            ):
                self.signals.add(item.unit.province)

    def clear(self) -> None:
        self.offered.clear()
        self.signals.clear()

    def owner(self, unit: Unit) -> PowerName | None:
        """The unit's owner; under BLIND (Tin Cup) the writer knows only its own units:
        any other unit's owner is None, whether the unit is there or not."""
        owner = self.position.owner_at(unit.province)
        if Flag.BLIND in self.in_force:
            board = self.position.unit_at(unit.province)
            mine = owner == self.power and board is not None and board.type is unit.type
            return self.power if mine else None
        return owner


def check_line(item: SheetItem, ctx: SheetContext) -> None:
    """Raise `LineError` when the offer is not allowed here."""
    if not isinstance(item, Offer):
        return
    rules, unit = ctx.in_force, item.unit
    owner = ctx.owner(unit)
    foreign = owner != ctx.power
    if Flag.RESTRICT_SIGNAL in rules and any(isinstance(o, SignalSupport) for o in item.orders):
        _restricted_signal(item, ctx, foreign)
    if Flag.DIRECT_ONLY in rules:
        if item.kind is not OfferKind.DIRECT:
            raise illegal(
                f"only direct (:) offers are allowed in this game (DIRECT_ONLY), not {item.kind.mark}"
            )
        if unit.province in ctx.offered:
            raise illegal(
                f"only one offer per unit is allowed (DIRECT_ONLY): {unit} already "
                f"has one on line {ctx.offered[unit.province]}"
            )
    if Flag.PAY_DUMMIES in rules:
        _pay_dummies(item, ctx, owner, foreign)
    if foreign and item.is_zero and Flag.ZERO_FOREIGN not in rules:
        whose = f"belongs to {owner}" if owner else "is not one of your units"
        raise illegal(f"a 0 AgP offer to a foreign unit is not allowed ({unit} {whose})")
    if foreign and (Flag.TOUCH_BRIBE in rules or Flag.REMOTE_BRIBE in rules):
        _touch(item, ctx, owner)


def _restricted_signal(item: Offer, ctx: SheetContext, foreign: bool) -> None:
    if foreign:
        raise illegal("a signal order may only be given to one's own unit (RESTRICT_SIGNAL)")
    if item.kind is not OfferKind.DIRECT or item.total or len(item.orders) > 1:
        raise illegal("a signal order must be a 0 AgP direct offer of that order alone (RESTRICT_SIGNAL)")
    if item.unit.province in ctx.signals:
        raise illegal(f"{item.unit} already has a signal order (RESTRICT_SIGNAL)")


def _pay_dummies(item: Offer, ctx: SheetContext, owner: PowerName | None, foreign: bool) -> None:
    if not foreign:
        if (
            item.kind is not OfferKind.DIRECT
            or item.total
            or len(item.orders) > 1
            or item.unit.province in ctx.offered
        ):
            raise illegal(f"your own units take one plain order each, not bribes (PAY_DUMMIES): {item.unit}")
    elif owner is None and Flag.BLIND in ctx.in_force:
        # Tin Cup: the writer cannot know whose unit it is; an offer to a unit that is not a
        # dummy's is ignored in silence at processing (`payola.tincup.screen`)
        return
    elif owner not in ctx.dummies:
        raise illegal(
            f"offers may only be made to units of powers nobody plays (PAY_DUMMIES): "
            f"{item.unit} belongs to {owner}"
        )


def _touch(item: Offer, ctx: SheetContext, owner: PowerName | None) -> None:
    rules = ctx.in_force
    if owner in ctx.dummies and (Flag.CD_DUMMIES in rules or Flag.PAY_DUMMIES in rules):
        return
    if owner is None and Flag.PAY_DUMMIES in rules and Flag.BLIND in rules:
        return  # Tin Cup: every foreign offer that is kept goes to a dummy's unit, exempt
    mine = ctx.position.units.get(ctx.power, ())
    near = any(supports_either_way(ctx.position.map, u, item.unit) for u in mine)
    if Flag.TOUCH_BRIBE in rules and not near:
        raise illegal(f"{item.unit} is not next to any of your units (TOUCH_BRIBE)")
    if Flag.REMOTE_BRIBE in rules and near:
        raise illegal(f"{item.unit} is next to one of your units (REMOTE_BRIBE)")


def check_sheet(items: Iterable[SheetItem], ctx: SheetContext) -> list[Problem]:
    """Checks of the sheet as a whole: LIMIT_OFFERS, and PAY_DUMMIES's every-unit-ordered."""
    rules = ctx.in_force
    offers = [i for i in items if isinstance(i, Offer)]
    out: list[Problem] = []
    if Flag.LIMIT_OFFERS in rules and ctx.balance is not None:
        total = 0
        for o in offers:
            total += o.total
            if total > ctx.balance:
                whole = sum(x.total for x in offers)
                out.append(
                    Problem(
                        o.line,
                        "",
                        ProblemKind.ILLEGAL,
                        f"the offers add up to {whole} AgP, more than the "
                        f"{ctx.balance} AgP in the treasury (LIMIT_OFFERS)",
                    )
                )
                break
    if Flag.PAY_DUMMIES in rules and offers and Flag.DEFAULT_UNORDERED not in rules:
        ordered = {o.unit.province for o in offers}
        missing = [str(u) for u in ctx.position.units.get(ctx.power, ()) if u.province not in ordered]
        if missing:
            out.append(
                Problem(
                    0,
                    "",
                    ProblemKind.ILLEGAL,
                    f"every unit of yours needs an order (PAY_DUMMIES): {', '.join(missing)} have none",
                )
            )
    return out
