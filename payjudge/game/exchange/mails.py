"""The mails of an exchange phase (docs/exchange.md, "What each party sees"): the public
results to everyone; each investor its statement; each company's statement to the CEO who
acted for it in the phase; each annual report to the company's stockholders and its CEO
for the coming year (not after the float: no year to report)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ...payola.exchange import views
from ...payola.exchange.accounts import investor_key
from ...payola.exchange.phase import ExchangeOutcome, MarketState
from ...rules.phase import Phase
from ...vocabulary import MailKind, SeatKind, SeatStatus
from ..mailer import Mailer
from ..notify import public_recipients
from ..state import GameState
from ..timing import Timing, show_time


@dataclass(frozen=True)
class Following:
    """What the exchange results say comes next: the phase and its deadline, or the end
    of the game (`END <year>` reached: `ends` is that year)."""

    phase: Phase
    deadline: str | None
    ends: int | None


@dataclass(frozen=True)
class PhaseMoney:
    """What the mails of a phase report beside its outcome: the balances before it, the
    centres each company owns, and the year's income (for the annual reports)."""

    balances: Mapping[str, int]
    owned: Mapping[str, tuple[str, ...]]
    income: Mapping[str, int]


def _investor_addresses(st: GameState) -> dict[str, str]:
    return {
        s.investor_name: s.address
        for s in st.seats
        if s.kind is SeatKind.INVESTOR and s.status is SeatStatus.PLAYING and s.investor_name and s.address
    }


def _following(st: GameState, processed: Phase) -> Following:
    game = st.game
    last = game.settings.get("end")
    ended = last is not None and processed.year >= st.calendar.game_year(int(last))
    ends = st.calendar.year(processed) if ended else None  # the map's year (A.D. 1430)
    assert game.phase is not None
    zone = Timing.from_json(game.timing).zone
    return Following(game.phase, show_time(game.deadline, zone) if game.deadline else None, ends)


def _company_mails(
    st: GameState,
    mailer: Mailer,
    phase: Phase,
    before: MarketState,
    outcome: ExchangeOutcome,
    figures: PhaseMoney,
    addresses: dict[str, str],
) -> None:
    """Each company's statement to the CEO who acted for it, and its annual report."""
    game, name, balances = st.game, st.game.name, figures.balances
    shown, year = st.calendar.short(phase), st.calendar.year(phase)  # the map's (A1430X on hundred)
    after = dict(balances)
    for m in outcome.money:
        after[m.account] = after.get(m.account, 0) + m.amount
    for company in outcome.state.companies():
        acting = before.ceos.get(company)
        if acting in addresses:
            mailer.send(
                [addresses[acting]],
                f"Company statement for {company} {name} {shown}",
                "company_statement.txt.j2",
                kind=MailKind.STATEMENT,
                game=game,
                v=views.company_statement(str(phase), company, balances, outcome),
            )
        readers = [addresses[n] for n in views.stockholders(company, outcome) if n in addresses]
        income = figures.income.get(company, 0)
        mailer.send(
            readers,
            f"Annual stockholder report for {company} {year}",
            "stockholder_report.txt.j2",
            kind=MailKind.REPORT,
            game=game,
            v=views.stockholder_report(year, company, after, income, outcome, figures.owned),
        )


def send_exchange_mails(
    st: GameState,
    mailer: Mailer,
    phase: Phase,
    before: MarketState,
    public: views.ResultsView,
    outcome: ExchangeOutcome,
    figures: PhaseMoney,
    *,
    is_float: bool = False,
) -> None:
    """Every mail of the processed exchange phase `phase` (see the module's docstring)."""
    game, name = st.game, st.game.name
    shown = st.calendar.short(phase)  # the map's name of the phase (A1430X on hundred)
    addresses = _investor_addresses(st)
    mailer.send(
        public_recipients(st),
        f"Exchange results {name} {shown}",
        "exchange_results.txt.j2",
        kind=MailKind.RESULTS,
        game=game,
        v=public,
        following=_following(st, phase),
    )
    for investor, address in sorted(addresses.items()):
        mailer.send(
            [address],
            f"Exchange statement {name} {shown}",
            "exchange_statement.txt.j2",
            kind=MailKind.STATEMENT,
            game=game,
            v=views.investor_statement(str(phase), investor_key(investor), figures.balances, outcome),
        )
    if not is_float:
        _company_mails(st, mailer, phase, before, outcome, figures, addresses)
