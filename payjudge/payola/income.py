"""Income (rules 2.1, 6.1, 6.2, 6.6, 6.7): opening balances and the year-end tax.

Default scheme: with victory at W centres, the first centre pays W-1 AgP, each further
one 1 AgP less (never below 0): 17, 33, 48, 62… on the standard map, so the openings
are 48 AgP, and 62 for Russia's four centres. W is the map's victory count, or under
VICTORY_HOMES the home centres that count for victory (10 on the standard map). The
increasing scheme of rule 6.6 (`INCOME INCREASING`) turns the scale round: the first
centre pays 1 AgP, each further one 1 AgP more, never more than W-1. FLAT_TAX pays the
number of the map's powers per centre (7 on the standard map, as Payola Classic's 7
AgP), `TAX n` n per centre, a per-centre table what it says, `CAP n` caps a year's
income (`within_cap`: all the payments of a year together, when income comes before
every movement phase). NO_HOARDING empties the treasury before the income is added.
ZEROSUM prints no money (see `zerosum_year_end`).

When (`income_due`): at the end of each year, as the map's FLOW ends it (payjudge plays
every map's FLOW on the standard cycle, rules/phase.py), or with `INCOME EVERY MOVEMENT`
(rule 6.6: "more often than once a year") before every movement phase. The opening
balance is the income before the game's first movement phase: a game that starts in a
Winter (1898, chaos) is not paid again at the end of that year.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from typing import Final

from ..rules.geography import Map
from ..rules.names import PowerName
from ..rules.phase import Phase
from ..rules.position import Position, mobilizing
from ..rules.turn import home_victory
from .rules import Flag, IncomeEvery, IncomeScheme, PayolaRules

ZEROSUM_RATE: Final = 10  # AgP per centre at the start, and for a neutral centre captured


def victory_count(m: Map, rules: PayolaRules) -> int:
    """The victory count the income scale is drawn from (rule 6.2): the map's, or under
    VICTORY_HOMES the number of other powers' home centres that wins (seed 003)."""
    return home_victory(m) if Flag.VICTORY_HOMES in rules else m.victory


def tax(owned: Iterable[str], position: Position, rules: PayolaRules) -> int:
    """One year's income for owning these centres (before CAP)."""
    owned = tuple(owned)
    count = len(owned)
    m = position.map
    if rules.center_taxes:
        default = rules.tax or 0
        return sum(rules.center_taxes.get(c, default) for c in owned)
    if rules.tax is not None:
        return count * rules.tax
    if Flag.FLAT_TAX in rules:
        return count * len(m.powers)
    top = victory_count(m, rules) - 1  # what the best-paying centre pays
    if rules.scheme is IncomeScheme.INCREASING:
        return sum(min(i, top) for i in range(1, count + 1))
    return sum(max(top + 1 - i, 0) for i in range(1, count + 1))


def income(owned: Iterable[str], position: Position, rules: PayolaRules) -> int:
    value = tax(owned, position, rules)
    return min(value, rules.cap) if rules.cap is not None else value


def within_cap(
    lines: Mapping[PowerName, IncomeLine], paid: Mapping[PowerName, int], rules: PayolaRules
) -> dict[PowerName, IncomeLine]:
    """CAP n caps a year's income: each tax line lowered so that, with what the power was
    already paid for the same year (`paid`: with income before every movement phase, the
    year's earlier payments), it comes to at most n."""
    if rules.cap is None:
        return dict(lines)
    out = {}
    for power, line in lines.items():
        room = max(rules.cap - paid.get(power, 0), 0)
        over = line.tax - room
        out[power] = replace(line, tax=room, balance=line.balance - over) if over > 0 else line
    return out


def income_year(paid_in: Phase) -> int:
    """The year whose income a payment made as `paid_in` ends belongs to: the year of the
    movement phase it pays for (the next one; CAP counts a year's income per this year)."""
    return first_movement(paid_in.next()).year


def first_movement(start: Phase) -> Phase:
    """The first movement phase at or after the game's first phase."""
    phase = start
    while not phase.is_movement:
        phase = phase.next()
    return phase


def income_due(current: Phase, following: Phase, start: Phase, rules: PayolaRules) -> bool:
    """Whether tax income is paid between `current` and the `following` phase, in a game
    that started in `start` (its opening balance pays for its first movement phase)."""
    if following <= first_movement(start):
        return False
    if Flag.EXCHANGE in rules and rules.income_every is not IncomeEvery.MOVEMENT:
        # Exchange Payola: the year's income is paid as its last Diplomacy phase gives way
        # to the exchange phase, so that trades and dividends see it (docs/exchange.md)
        return following.is_exchange
    if rules.income_every is IncomeEvery.MOVEMENT:
        return following.is_movement
    return following.year > current.year


def opening_balances(position: Position, rules: PayolaRules) -> dict[PowerName, int]:
    """Every power's treasury when the game starts (one year's income; rule 6.2: a power
    with units but no centres gets half of what as many centres would pay). MOBILIZE: each
    power owns one centre, the home centre it is about to build on (DPjudge's undetermined
    home centre), so it is paid for one centre; not knowing which, a per-centre TAX table
    pays it the flat TAX (or nothing). Under ZEROSUM as well, it owns nothing until it
    builds: its 10 AgP come with the build (`mobilized_treasuries`)."""
    out = {}
    undetermined = mobilizing(position, rules.flags)
    homes = {p.name for p in position.map.powers if p.homes}
    for power in position.map.power_names:
        centers: list[str] = sorted(position.centers.get(power, ()))
        units = position.units.get(power, ())
        if undetermined and power in homes and Flag.ZEROSUM not in rules:
            centers.append("#home")  # a name no table holds
        if Flag.ZEROSUM in rules:
            out[power] = ZEROSUM_RATE * len(centers)
        elif centers:
            out[power] = income(centers, position, rules)
        elif units:
            # as if each unit stood on a centre of its own; the names do not matter
            # except for a per-centre table, where none apply
            out[power] = income([f"#{i}" for i in range(len(units))], position, rules) // 2
        else:
            out[power] = 0
    return out


@dataclass(frozen=True, slots=True)
class IncomeLine:
    """One power's income statement at the end of a year."""

    power: PowerName
    forward: int  # the balance brought forward
    tax: int  # tax income (ZEROSUM: bribe profits)
    captures: tuple[tuple[str, int], ...] = ()  # ZEROSUM: (centre, AgP received)
    losses: tuple[tuple[str, int], ...] = ()  # ZEROSUM: (centre, AgP paid)
    balance: int = 0  # the new balance
    vassals: tuple[tuple[str, int], ...] = ()  # VASSAL_DUMMIES: (vassal, its income paid here)


def year_end(
    position: Position, balances: Mapping[PowerName, int], rules: PayolaRules
) -> dict[PowerName, IncomeLine]:
    """Tax income for the centres owned in `position` (not for ZEROSUM games)."""
    if Flag.ZEROSUM in rules:
        raise ValueError("a ZEROSUM game has no tax income: use zerosum_year_end")
    out = {}
    for power in position.map.power_names:
        forward = 0 if Flag.NO_HOARDING in rules else balances.get(power, 0)
        gained = income(sorted(position.centers.get(power, ())), position, rules)
        out[power] = IncomeLine(power, forward, gained, balance=forward + gained)
    return out


def zerosum_year_end(
    start_centers: Mapping[PowerName, Iterable[str]],
    position: Position,
    balances: Mapping[PowerName, int],
    accrued: Mapping[PowerName, int],
    rules: PayolaRules,
) -> dict[PowerName, IncomeLine]:
    """ZEROSUM (rule 6.7): each power receives the bribes its units accepted during the
    year (`accrued`); a neutral centre captured pays 10 AgP; a centre taken from a power
    moves that power's treasury (with its accrued profits) divided by the number of
    centres it owned at the start of the year, rounded down."""
    before = {p: frozenset(cs) for p, cs in start_centers.items()}
    owner_before = {c: p for p, cs in before.items() for c in cs}
    captures: dict[PowerName, list[tuple[str, int]]] = {}
    losses: dict[PowerName, list[tuple[str, int]]] = {}
    for power, owned in sorted(position.centers.items()):
        for center in sorted(owned):
            loser = owner_before.get(center)
            if loser == power:
                continue
            if loser is None:
                amount = ZEROSUM_RATE
            else:
                wealth = balances.get(loser, 0) + accrued.get(loser, 0)
                amount = wealth // max(len(before[loser]), 1)
                losses.setdefault(loser, []).append((center, amount))
            captures.setdefault(power, []).append((center, amount))
    out = {}
    for power in position.map.power_names:
        forward = 0 if Flag.NO_HOARDING in rules else balances.get(power, 0)
        profit = accrued.get(power, 0)
        got, lost = tuple(captures.get(power, ())), tuple(losses.get(power, ()))
        balance = forward + profit + sum(a for _, a in got) - sum(a for _, a in lost)
        out[power] = IncomeLine(power, forward, profit, got, lost, max(balance, 0))
    return out


def mobilized_treasuries(position: Position, following: Position, rules: PayolaRules) -> dict[PowerName, int]:
    """ZEROSUM under MOBILIZE: the opening treasuries, paid when the opening adjustment
    phase (`position`) gives way to `following`: 10 AgP for each centre a power then owns,
    the one it built on (rule 6.7: "a treasury containing 10 silver pieces for each owned
    supply center"). Before its build a MOBILIZE power owns no centre, and
    `opening_balances` gives it nothing; paid earlier, the 10 AgP of a power that builds
    nothing would stay in the world with no centre behind them."""
    if Flag.ZEROSUM not in rules or not mobilizing(position, rules.flags):
        return {}
    return {p: ZEROSUM_RATE * len(cs) for p, cs in sorted(following.centers.items()) if cs}


def vassal_income(
    lines: Mapping[PowerName, IncomeLine],
    unplayed: AbstractSet[PowerName],
    control: Mapping[PowerName, PowerName],
    *,
    zerosum: bool = False,
) -> dict[PowerName, IncomeLine]:
    """VASSAL_DUMMIES (seed 003 §3.2): a dummy earns nothing unless it is a vassal, and a
    vassal's income is paid into its controller's treasury (its own is left as it was).
    The lines of the dummies that gain are dropped; each controller's line says what came
    from which vassal.

    ZEROSUM (rule 6.7, `zerosum_year_end` lines) prints no money, it moves it: a dummy's
    line is what it gains (the bribes its units took, its captures) net of what it loses
    (its centres' shares of its treasury, paid to their captors). A loss always comes out
    of the dummy's own treasury, since its captor is paid; a vassal's net gain goes to its
    controller; a dummy nobody controls keeps its gain, which would else leave the world."""
    out = {p: line for p, line in lines.items() if p not in unplayed}
    for vassal in sorted(unplayed & lines.keys()):
        own = lines[vassal]
        gained = own.balance - own.forward if zerosum else own.tax
        master = control.get(vassal)
        if zerosum and (gained < 0 or master is None or master not in out):
            out[vassal] = own  # a loss, or an autonomous dummy's gain: on its own treasury
            continue
        if master is None or master not in out:
            continue
        line = out[master]
        out[master] = IncomeLine(
            line.power,
            line.forward,
            line.tax,
            line.captures,
            line.losses,
            line.balance + gained,
            (*line.vassals, (vassal, gained)),
        )
    return out
