"""Offer sheets as players mail them (rule 3.1, shared/spec/email.md), checked against the position.

One line is one offer, savings request or comment:

    [count*]amount[#[plateau]][+ more amounts] TYPE UNIT ORDER [| ORDER …] [% comment]
    amount[+ amount…] $ [% comment]

TYPE is `:` `!` `>` `@` or `&`; spaces around it are optional (`6:A BOH H`); a line that
starts with a unit (`A PAR H`, `PAR - BUR`) is a 0 AgP direct offer. Orders are read
leniently by `payjudge.rules.parse` (full names, any case, DPjudge convoy routes) and must
be legal for the unit (any unit may be bribed). Under FICTIONAL_OK (BLIND: Tin Cup)
every unit named needs its type, and the lines are checked against the map alone
(`_supposed`).
A `CLEAR` or `NMR` line drops the lines above it.
Every problem is reported with its line; a sheet with any problem is rejected
whole (`SheetParse.sheet` is None). `SheetParse.normalized` is the sheet as understood,
which parses back to an equal sheet.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Final

from ..payola.exchange.accounts import is_investor
from ..payola.offers import (
    SAVINGS_MARK,
    Comment,
    Offer,
    OfferKind,
    OfferOrder,
    Savings,
    Sheet,
    SheetItem,
    SignalSupport,
    Term,
)
from ..payola.rules import Flag, PayolaRules
from ..payola.tincup import supposed_position
from ..rules.errors import IllegalOrder, OrderError, ProblemKind
from ..rules.geography import Map
from ..rules.names import PowerName
from ..rules.orders import Hold, Unit, Waive
from ..rules.parse import OrderKind, ParsedOrder, parse_order, parse_order_body, parse_unit
from ..rules.phase import PhaseType
from ..rules.position import Position
from ..rules.validate import validate
from .amounts import parse_amounts
from .offer_memo import Table, recall, remember, table_for
from .problems import LineError, Problem, illegal, invalid, unplaced
from .sheet_rules import SheetContext, check_line, check_sheet

_MARKS: Final = {k.mark: k for k in OfferKind}
_AMOUNT_CHARS: Final = set("0123456789*#+ \t")
_CLEAR_WORDS: Final = {"CLEAR", "NMR"}


@dataclass(frozen=True, slots=True)
class SheetParse:
    sheet: Sheet | None  # None when there was any problem
    problems: tuple[Problem, ...]
    normalized: str  # the sheet as understood (problem lines kept as written)

    @property
    def ok(self) -> bool:
        return not self.problems


def split_comment(line: str) -> tuple[str, str | None]:
    """(text before `%`, comment after it or None)."""
    body, mark, comment = line.partition("%")
    return body, (comment.strip() if mark else None)


def parse_sheet(
    text: str,
    position: Position,
    power: str,
    rules: PayolaRules,
    *,
    balance: int | None = None,
    dummies: frozenset[PowerName] = frozenset(),
) -> SheetParse:
    """Read and check a whole offer sheet of `power` (name or initial)."""
    found = position.map.power(power)
    if found is None and not is_investor(power):
        raise ValueError(f"unknown power {power!r}")
    if position.phase.type is not PhaseType.MOVEMENT:
        raise ValueError("offer sheets belong to movement phases")
    # an Exchange investor (`@ALICE`) owns no unit: every unit is foreign to it
    payer = found.name if found is not None else PowerName(power)
    ctx = SheetContext(position, payer, rules, balance, frozenset(dummies))
    readings = table_for(position.map, ctx.in_force, ctx.dummies)
    items: list[SheetItem] = []
    echo: list[str] = []
    problems: list[Problem] = []
    lines = text.splitlines()
    for number, raw in enumerate(lines, 1):
        body, comment = split_comment(raw)
        stripped = body.strip()
        if not stripped:
            if comment is not None:
                items.append(Comment(comment, number))
                echo.append(str(items[-1]))
            continue
        # (a line opening with a digit, as offers do, is no CLEAR: digits have no case)
        if not stripped[0].isdigit() and stripped.strip("()[]").upper() in _CLEAR_WORDS and comment is None:
            items.clear()
            echo.clear()
            ctx.clear()
            continue
        try:
            item = _parse_line(stripped, comment, number, ctx, readings)
            check_line(item, ctx)
        except LineError as e:
            written = raw.strip()  # one copy, shared by the line's problems
            problems.extend(p.at(number, written) for p in e.problems)
            echo.append(written)
            continue
        items.append(item)
        ctx.note(item)
        echo.append(str(item))
    for p in check_sheet(items, ctx):
        line = p.line or 0
        problems.append(p.at(line, lines[line - 1].strip() if 0 < line <= len(lines) else ""))
    if problems:
        problems.sort(key=lambda p: p.line or 0)
    sheet = None if problems else Sheet(tuple(items))
    return SheetParse(sheet, tuple(problems), "\n".join(echo))


def _parse_line(
    text: str, comment: str | None, number: int, ctx: SheetContext, readings: Table | None
) -> SheetItem:
    """The item of a line (`text`: stripped, without its comment). `readings`: the orders
    read before (`offer_memo`), or None."""
    # the usual line, `7 : A PAR - BUR` (a plain amount, a space, the offer type, a space,
    # the orders) is taken apart at its two spaces instead of character by character, to
    # the same result (test_sheet.py: test_usual_lines_read_as_any_line)
    words = text.split(" ", 2)
    if len(words) == 3:
        amount, mark, rest = words
        kind = _MARKS.get(mark)
        if (
            kind is not None
            and len(amount) <= 4
            and amount.isascii()
            and amount.isdigit()
            and rest[:1].isalpha()
        ):
            return _offer(kind, _plain_terms(amount), rest, comment, number, ctx, readings)
    return _read_line(text, comment, number, ctx, readings)


@cache  # (at most 11,110 texts of four digits or fewer; terms are immutable)
def _plain_terms(amount: str) -> tuple[Term, ...]:
    """The terms of a plain amount (`7`, `007`)."""
    return (Term(int(amount)),)


def _read_line(
    text: str, comment: str | None, number: int, ctx: SheetContext, readings: Table | None
) -> SheetItem:
    """`_parse_line` for any line."""
    if text[0].isalpha():
        return _offer(OfferKind.DIRECT, (Term(0),), text, comment, number, ctx, readings)
    i = 0
    while i < len(text) and text[i] in _AMOUNT_CHARS:
        i += 1
    if i == len(text):
        raise invalid("an amount must be followed by an offer type (: ! > @ &) and an order, or by $")
    mark, amount_text, rest = text[i], text[:i], text[i + 1 :].strip()
    if mark.isalnum():
        word = text.split()[0]
        raise invalid(f"{word!r} is not an amount, or the offer type (: ! > @ &) is missing")
    if mark == SAVINGS_MARK:
        return _savings(amount_text, rest, comment, number, ctx)
    kind = _MARKS.get(mark)
    if kind is None:
        raise invalid(
            f"{mark!r} is not an offer type: use : (direct), ! (negative), > (move), "
            f"@ (hold), & (gift), or $ for savings"
        )
    if amount_text.strip():
        amounts = parse_amounts(amount_text)
        if amounts.plateaus and not ctx.rules.plateaus_allowed:
            flag = (Flag.NO_SAVINGS if Flag.NO_SAVINGS in ctx.in_force else Flag.NO_PLATEAU).value
            raise illegal(f"plateaus (#) are not allowed in this game ({flag})")
        if (amounts.repeated or amounts.augmented) and Flag.DIRECT_ONLY in ctx.in_force:
            raise illegal("repetition (*) and augmentation (+) are not allowed in this game (DIRECT_ONLY)")
        terms = amounts.terms
    else:
        terms = (Term(0),)
    if not rest:
        raise invalid(f"incomplete offer: a unit and an order must follow {mark!r}")
    if rest[0] in _MARKS or rest[0] == SAVINGS_MARK:
        raise invalid(f"two offer types ({mark!r} and {rest[0]!r})")
    return _offer(kind, terms, rest, comment, number, ctx, readings)


def _savings(amount_text: str, rest: str, comment: str | None, number: int, ctx: SheetContext) -> Savings:
    if rest:
        raise invalid("nothing but a comment may follow '$' in a savings request")
    if not ctx.rules.savings_allowed:
        raise illegal("savings requests ($) are not allowed in this game (NO_SAVINGS)")
    if not amount_text.strip():
        raise invalid("a savings request needs an amount: '10 $'")
    amounts = parse_amounts(amount_text)
    if amounts.repeated:
        raise invalid("a savings request cannot be repeated with '*': write the sum, or add amounts with '+'")
    if amounts.plateaus:
        raise invalid("a savings request has no plateau ('#')")
    return Savings(amounts.terms, comment, number)


def _offer(
    kind: OfferKind,
    terms: tuple[Term, ...],
    text: str,
    comment: str | None,
    number: int,
    ctx: SheetContext,
    readings: Table | None,
) -> Offer:
    """The offer of a line, `text` being what follows its offer type (`offer_memo` may
    know its orders already)."""
    # checked before a reading is recalled: readings are kept whatever the rules of offers
    if Flag.DIRECT_ONLY in ctx.in_force and "|" in text:
        raise illegal("alternatives (|) are not allowed in this game (DIRECT_ONLY)")
    if readings is not None:
        known = recall(readings, text, ctx.position, ctx.rules.flags)
        if known is not None:
            return Offer(kind, known.unit, known.orders, terms, comment, number)
    offer = _read_offer(kind, terms, text, comment, number, ctx)
    if readings is not None:
        remember(readings, text, offer, ctx.position)
    return offer


def _read_offer(
    kind: OfferKind, terms: tuple[Term, ...], text: str, comment: str | None, number: int, ctx: SheetContext
) -> Offer:
    m = ctx.position.map
    parts = text.split("|")  # (`text` is stripped: so is a lone part)
    if len(parts) > 1:  # (refused under DIRECT_ONLY by `_offer`)
        parts = [p.strip() for p in parts]
    first_text, first_signal = _signal_mark(parts[0])
    try:
        first = parse_order(first_text, m)
    except OrderError as e:
        raise LineError(unplaced(e.kind, e.message)) from None
    # a bare unit reads as a HOLD: only then can the line lack its order (one reading
    # less for every other line)
    # (a text ending in the word H names its order: one-letter words are never places)
    if first.kind is OrderKind.HOLD and not first_text.endswith(" H"):
        try:
            spec = parse_unit(first_text, m)
        except OrderError:
            pass
        else:
            raise invalid(f"no order given for {spec}")
    if first.unit is None:  # WAIVE: no unit's order (`_order` says why), no alternatives to it
        _order(first, first_signal, ctx)
        raise invalid(f"{first} is not an order for a unit")
    if len(parts) == 1:  # the usual line: one order, no alternative to compare it with
        order = _order(first, first_signal, ctx)
        assert not isinstance(order, Waive), "validate refuses a WAIVE in a movement phase"
        return Offer(kind, order.unit, (order,), terms, comment, number)
    orders: list[OfferOrder] = []
    seen: dict[OfferOrder, int] = {}  # order -> times written: a set, not a scan (issue 8)
    errors: list[Problem] = []
    parsed: list[tuple[ParsedOrder, bool]] = [(first, first_signal)]
    for part in parts[1:]:
        body, signal = _signal_mark(part)
        if not body:
            errors.extend(invalid("an order is missing after '|'").problems)
            continue
        try:
            parsed.append((parse_order_body(first.unit, body, m), signal))
        except OrderError as e:
            errors.append(unplaced(e.kind, f"| {part}: {e.message}"))
    for p, signal in parsed:
        try:
            order = _order(p, signal, ctx)
        except LineError as line_error:  # (a name of its own: mypyc types a name once)
            errors.extend(line_error.problems)
            continue
        if order in seen:
            seen[order] += 1
            continue
        seen[order] = 1
        orders.append(order)
    errors.extend(
        unplaced(ProblemKind.ILLEGAL, f"{order} appears {_times(n)} in the offer")
        for order, n in seen.items()
        if n > 1
    )
    if errors:
        raise LineError(*errors)
    unit_order = orders[0]
    assert not isinstance(unit_order, Waive), "validate refuses a WAIVE in a movement phase"
    return Offer(kind, unit_order.unit, tuple(orders), terms, comment, number)


def _times(n: int) -> str:
    return "twice" if n == 2 else f"{n:,} times"


def _signal_mark(text: str) -> tuple[str, bool]:
    if text.endswith("?"):
        return text[:-1].strip(), True
    return text, False


def _order(parsed: ParsedOrder, signal: bool, ctx: SheetContext) -> OfferOrder:
    """The legal order `parsed` stands for, or a signal support where the rules allow one."""
    if signal and not ctx.rules.signals_allowed:
        raise illegal("signal orders ('?') need the SIGNAL_SUPPORT rule")
    if signal and parsed.kind is not OrderKind.SUPPORT:
        raise invalid("only a support order can be a signal ('?')")
    position = _supposed(parsed, ctx) if Flag.FICTIONAL_OK in ctx.in_force else ctx.position
    try:
        order = validate(
            parsed, position, ctx.power, check_owner=False, flags=ctx.rules.flags, dummies=ctx.dummies
        )
    except IllegalOrder as illegal_order:  # (a name of its own: mypyc types a name once)
        if ctx.rules.signals_allowed and parsed.kind is OrderKind.SUPPORT:
            return _signal(parsed, position.map, position)
        raise LineError(unplaced(illegal_order.kind, illegal_order.message)) from None
    except OrderError as e:
        raise LineError(unplaced(e.kind, e.message)) from None
    if signal:
        return _signal(parsed, position.map, position)
    return order


def _supposed(parsed: ParsedOrder, ctx: SheetContext) -> Position:
    """FICTIONAL_OK (which BLIND brings: Tin Cup, rule 6.3): the board as the line
    supposes it. Every unit the order names must have its type (A or F); whether it is
    there is not checked now, so that the reply is the same whether it is or not
    (`payola.tincup`)."""
    written = []
    for spec in (parsed.unit, parsed.target):
        if spec is None:
            continue
        if spec.type is None:
            raise invalid(
                f"name the type of the unit in {spec.location}: A {spec.location} or F {spec.location} "
                "(under BLIND and FICTIONAL_OK every offer names its units' types)"
            )
        written.append(Unit(spec.type, spec.location))
    return supposed_position(ctx.position, ctx.power, written)


def _signal(parsed: ParsedOrder, m: Map, position: Position) -> SignalSupport:
    assert parsed.unit is not None
    hold = ParsedOrder(OrderKind.HOLD, parsed.unit)
    try:
        held = validate(hold, position, None, check_owner=False)
    except OrderError as e:
        raise LineError(unplaced(e.kind, e.message)) from None
    assert isinstance(held, Hold)
    text = f"S {parsed.target}" + (f" - {parsed.dest}" if parsed.dest else "")
    return SignalSupport(held.unit, text)
