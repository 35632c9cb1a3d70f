"""What each party reads after an exchange phase (docs/exchange.md, "What each party
sees"), as views for the templates: the public results (prices, volumes, per-share
dividends, CEOs, worths: no holder, no balance), an investor's private statement (its own
cash, dividends, fills and holdings), a company's statement for its CEO, and the annual
stockholder report (treasury, income, register, tally) for the company's stockholders."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from .accounts import investor_name, is_investor
from .election import Reason
from .market import Side
from .phase import ExchangeOutcome, MarketState, MoneyKind

REASONS: Final = {
    Reason.VOTES: "elected by the stockholders' votes",
    Reason.TIE_SITTING: "re-elected: the votes were tied and the sitting CEO was among the tied",
    Reason.TIE_HOLDER: "elected: the votes were tied, and of the tied candidates holds the most shares",
    Reason.TIE_DRAW: "elected: the votes were tied all the way, and the draw chose",
    Reason.SITTING: "stays: no share voted",
    Reason.LARGEST_HOLDER: "the largest stockholder: no share voted and there was no CEO",
    Reason.LARGEST_HOLDER_DRAW: "drawn among the largest stockholders: no share voted and there was no CEO",
    Reason.NOBODY: "none: nobody playing holds its shares (unmanaged)",
}


@dataclass(frozen=True, slots=True)
class CompanyResult:
    company: str
    price: int | None  # None: no trade
    volume: int
    dividend: int | None  # per share; None: none declared
    ceo: str | None
    new_ceo: bool
    worths: tuple[tuple[str, int], ...]  # its centres, for the coming year


@dataclass(frozen=True, slots=True)
class ResultsView:
    phase: str
    companies: tuple[CompanyResult, ...]


@dataclass(frozen=True, slots=True)
class FillLine:
    company: str
    bought: bool
    shares: int
    price: int
    amount: int


@dataclass(frozen=True, slots=True)
class InvestorStatementView:
    phase: str
    investor: str
    cash_before: int
    dividends: tuple[tuple[str, int], ...]  # (company, AgP)
    fills: tuple[FillLine, ...]
    cancelled: tuple[str, ...]
    cash_after: int
    holdings: tuple[tuple[str, int], ...]  # (company, shares) after the trades


@dataclass(frozen=True, slots=True)
class CompanyStatementView:
    phase: str
    company: str
    treasury_before: int
    dividend_paid: int
    per_share: int
    lowered: bool
    shares_moved: int  # + issued from the pool, - bought back
    amount: int  # AgP received (+) or paid (-) for them
    treasury_after: int
    pool_after: int


@dataclass(frozen=True, slots=True)
class StockholderReportView:
    year: int
    company: str
    treasury: int
    income: int
    per_share: int
    register: tuple[tuple[str, int], ...]  # (investor, shares), most first; the pool last
    pool: int
    tally: tuple[tuple[str, int], ...]
    ceo: str | None
    reason: str
    worths: tuple[tuple[str, int], ...]


def _worths(
    company: str, owned: Mapping[str, Sequence[str]], worths: Mapping[str, int]
) -> tuple[tuple[str, int], ...]:
    return tuple((c, worths.get(c, 0)) for c in sorted(owned.get(company, ())))


def results_view(
    phase: str, before: MarketState, outcome: ExchangeOutcome, owned: Mapping[str, Sequence[str]]
) -> ResultsView:
    clearings = {c.company: c for c in outcome.clearings}
    dividends = {d.company: d.per_share for d in outcome.dividends}
    rows = []
    for company in outcome.state.companies():
        c = clearings.get(company)
        ceo = outcome.state.ceos.get(company)
        rows.append(
            CompanyResult(
                company,
                c.price if c is not None else None,
                c.volume if c is not None else 0,
                dividends.get(company),
                ceo,
                ceo != before.ceos.get(company),
                _worths(company, owned, outcome.state.worths),
            )
        )
    return ResultsView(phase, tuple(rows))


def results_json(view: ResultsView) -> dict[str, Any]:
    """The public results as the turn's stored report (JSON); `results_from_json` reads it
    back for HISTORY and the status page."""
    return {
        "results": [
            {
                "company": c.company,
                "price": c.price,
                "volume": c.volume,
                "dividend": c.dividend,
                "ceo": c.ceo,
                "new_ceo": c.new_ceo,
                "worths": [[centre, worth] for centre, worth in c.worths],
            }
            for c in view.companies
        ],
    }


def results_from_json(phase: str, report: Mapping[str, Any]) -> ResultsView:
    """The public results of an exchange phase from its stored report. A report stored
    before the results were kept whole holds only each company's clearing and the CEOs
    after the phase: it gives prices, volumes and CEOs, and nothing it does not hold."""
    if "results" in report:
        return ResultsView(
            phase,
            tuple(
                CompanyResult(
                    c["company"],
                    c["price"],
                    c["volume"],
                    c["dividend"],
                    c["ceo"],
                    c["new_ceo"],
                    tuple((centre, worth) for centre, worth in c["worths"]),
                )
                for c in report["results"]
            ),
        )
    clearings = {c["company"]: c for c in report.get("exchange", ())}
    ceos = report.get("ceos", {})
    return ResultsView(
        phase,
        tuple(
            CompanyResult(
                company,
                clearings[company]["price"] if company in clearings else None,
                clearings[company]["volume"] if company in clearings else 0,
                None,
                ceos.get(company),
                False,
                (),
            )
            for company in sorted({*clearings, *ceos})
        ),
    )


def investor_statement(
    phase: str, key: str, balances_before: Mapping[str, int], outcome: ExchangeOutcome
) -> InvestorStatementView:
    mine = [m for m in outcome.money if m.account == key]
    dividends = tuple((m.counterparty or "", m.amount) for m in mine if m.kind is MoneyKind.DIVIDEND_IN)
    fills = tuple(
        FillLine(c.company, f.order.side is Side.BUY, f.shares, f.price, f.amount)
        for c in outcome.clearings
        for f in c.fills
        if f.order.account == key and f.shares
    )
    before = balances_before.get(key, 0)
    holdings = tuple(
        (company, outcome.state.holding(company, key))
        for company in outcome.state.companies()
        if outcome.state.holding(company, key)
    )
    return InvestorStatementView(
        phase,
        investor_name(key),
        before,
        dividends,
        fills,
        tuple(x.reason for x in outcome.cancelled if x.account == key),
        before + sum(m.amount for m in mine),
        holdings,
    )


def company_statement(
    phase: str, company: str, balances_before: Mapping[str, int], outcome: ExchangeOutcome
) -> CompanyStatementView:
    mine = [m for m in outcome.money if m.account == company]
    d = next((d for d in outcome.dividends if d.company == company), None)
    moved = -sum(s.amount for s in outcome.shares if s.holder == company)
    traded = sum(m.amount for m in mine if m.kind in (MoneyKind.PURCHASE, MoneyKind.SALE))
    before = balances_before.get(company, 0)
    return CompanyStatementView(
        phase,
        company,
        before,
        d.total if d else 0,
        d.per_share if d else 0,
        d.lowered if d else False,
        moved,
        traded,
        before + sum(m.amount for m in mine),
        outcome.state.holding(company, company),
    )


def stockholder_report(
    year: int,
    company: str,
    balances_after: Mapping[str, int],
    income: int,
    outcome: ExchangeOutcome,
    owned: Mapping[str, Sequence[str]],
) -> StockholderReportView:
    register = outcome.state.register.get(company, {})
    holders = sorted(
        ((investor_name(k), n) for k, n in register.items() if is_investor(k) and n),
        key=lambda kv: (-kv[1], kv[0]),
    )
    e = next(e for e in outcome.elections if e.company == company)
    d = next((d for d in outcome.dividends if d.company == company), None)
    return StockholderReportView(
        year,
        company,
        balances_after.get(company, 0),
        income,
        d.per_share if d else 0,
        tuple(holders),
        register.get(company, 0),
        e.tally,
        e.ceo,
        REASONS[e.reason],
        _worths(company, owned, outcome.state.worths),
    )


def stockholders(company: str, outcome: ExchangeOutcome) -> tuple[str, ...]:
    """Who gets the annual report: the investors holding the company's shares after the
    trades, and its CEO."""
    names = {
        investor_name(k) for k, n in outcome.state.register.get(company, {}).items() if is_investor(k) and n
    }
    ceo = outcome.state.ceos.get(company)
    if ceo is not None:
        names.add(ceo)
    return tuple(sorted(names))
