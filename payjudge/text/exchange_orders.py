"""An account's exchange orders for one phase as one typed value (docs/exchange.md,
"Trading", "Dividends", "Worth and income"): how each line of a message changes it, and
its stored text, which reads back to the same value.

The lines of one kind are replaced as the design says: BUY, SELL and PASS as a whole by
the next message that holds any, DIVIDEND by its latest line, each centre's WORTH by its
latest line. The stored text is the normalised lines, trade lines first, so what the
judge kept before these values existed reads back as well."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, replace

from .exchange import (
    CeoVoteLine,
    DividendLine,
    ExchangeLine,
    PassLine,
    TradeLine,
    WorthLine,
    normalized,
    parse_exchange_line,
)
from .problems import invalid

SheetLine = TradeLine | PassLine | DividendLine | WorthLine  # the lines an exchange sheet holds


@dataclass(frozen=True, slots=True)
class ExchangeOrders:
    """What one account has on record for the open exchange phase. `passed`: it sent PASS
    (never with trades); `worths`: (centre, AgP) in the order they were last set."""

    trades: tuple[TradeLine, ...] = ()
    passed: bool = False
    dividend: DividendLine | None = None
    worths: tuple[WorthLine, ...] = ()

    def with_trade(self, line: TradeLine, *, fresh: bool) -> ExchangeOrders:
        """A BUY or SELL line; `fresh`: the message's first, which replaces the trades on record."""
        kept = () if fresh else self.trades
        return replace(self, trades=(*kept, line), passed=False)

    def with_pass(self) -> ExchangeOrders:
        return replace(self, trades=(), passed=True)

    def with_dividend(self, line: DividendLine) -> ExchangeOrders:
        return replace(self, dividend=line)

    def with_worth(self, worth: int, centres: Iterable[str]) -> ExchangeOrders:
        """`worth` for each of `centres` (a `WORTH <n>` line names every centre owned)."""
        targets = tuple(centres)
        kept = tuple(w for w in self.worths if w.centre not in targets)
        return replace(self, worths=(*kept, *(WorthLine(c, worth) for c in targets)))

    def with_line(self, line: SheetLine, *, fresh: bool = False) -> ExchangeOrders:
        """Any line of a sheet; a WORTH line must name its centre here."""
        match line:
            case TradeLine():
                return self.with_trade(line, fresh=fresh)
            case PassLine():
                return self.with_pass()
            case DividendLine():
                return self.with_dividend(line)
            case WorthLine():
                if line.centre is None:
                    raise ValueError("a WORTH line for every centre is spread over them by the caller")
                return self.with_worth(line.worth, (line.centre,))
        raise ValueError(line)

    @property
    def worth_changes(self) -> dict[str, int]:
        """centre -> the worth set for it."""
        return {w.centre: w.worth for w in self.worths if w.centre is not None}

    def lines(self) -> list[SheetLine]:
        head: list[SheetLine] = [PassLine()] if self.passed else list(self.trades)
        return head + ([self.dividend] if self.dividend else []) + list(self.worths)

    def __str__(self) -> str:
        return "\n".join(normalized(line) for line in self.lines())


def read_exchange_orders(
    text: str, *, companies: Mapping[str, str], shares: int, centres: Collection[str] = ()
) -> ExchangeOrders:
    """A stored exchange sheet (one line a line, in any order) as the value; raises
    `LineError` for a line that is not an exchange order of a sheet."""
    orders = ExchangeOrders()
    for text_line in text.splitlines():
        if not text_line.strip():
            continue
        line: ExchangeLine = parse_exchange_line(
            text_line, companies=companies, shares=shares, centres=centres
        )
        if isinstance(line, CeoVoteLine) or (isinstance(line, WorthLine) and line.centre is None):
            raise invalid(f"{normalized(line)} is not kept on an exchange sheet")
        orders = orders.with_line(line)
    return orders
