"""Exchange Payola's use cases on the store (docs/exchange.md, "In the code"): the market
at the game's start (capital, the pools' issue), the market of a turn (the share ledger's
register and the turn's `market` snapshot), booking an exchange phase's movements in both
append-only ledgers, standing CEO votes, and the rollback of share entries.

Money goes through `money.record` like every other movement; shares through the share
ledger, whose sums are the holdings. Neither is ever updated, only added to."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar, TypeVar

from ..payola.exchange import views
from ..payola.exchange.accounts import investor_key, investor_name, is_investor
from ..payola.exchange.dividends import max_dividend, outstanding
from ..payola.exchange.liquidation import liquidate, ranking
from ..payola.exchange.market import MarketOrder, Side
from ..payola.exchange.orders import check_orders
from ..payola.exchange.phase import (
    ExchangeOutcome,
    ExchangeSheet,
    MarketState,
    float_state,
    phase_after,
    run_exchange,
)
from ..payola.exchange.worth import allowance, check_worths, starting_worths
from ..payola.income import opening_balances
from ..rules.names import PowerName
from ..rules.phase import Phase, PhaseType, Season
from ..rules.position import Position
from ..rules.serial import position_to_json
from ..store import Session, repo
from ..store.models import CeoVote, Game, Seat, ShareEntry, Submission, Turn
from ..text.exchange import (
    CeoVoteLine,
    DividendLine,
    ExchangeLine,
    PassLine,
    TradeLine,
    WorthLine,
    normalized,
    parse_exchange_line,
)
from ..text.problems import LineError
from ..vocabulary import (
    GameStatus,
    LedgerKind,
    MailKind,
    SeatKind,
    SeatStatus,
    ShareKind,
    SubmissionKind,
    TurnStatus,
)
from . import money
from .context import CommandError
from .lifecycle import investor_names, new_seed
from .mailer import Mailer
from .notify import public_recipients
from .state import GameState
from .timing import Timing, show_time

_V = TypeVar("_V")

DEFAULT_SHARES = 10  # each company's shares, unless SHARES says (docs/exchange.md, choice 2)


def _by_account(by_name: Mapping[PowerName, _V]) -> dict[str, _V]:
    """The store's accounts (companies' names and investors' keys, kept in the ledger's
    power column) as the exchange engine keys them: by account key, plain text."""
    return {str(k): v for k, v in by_name.items()}


def _ledger_key(account: str) -> PowerName:
    # the ledger keeps every account, an investor's key included, in its power column
    return PowerName(account)


def market_json(state: MarketState) -> dict[str, Any]:
    """What `turn.market` keeps: everything but the register, which the share ledger keeps."""
    return {
        "shares": dict(state.shares),
        "ceos": dict(state.ceos),
        "worths": dict(state.worths),
        "last_prices": dict(state.last_prices),
    }


def load_market(s: Session, game: Game, snapshot: Mapping[str, Any]) -> MarketState:
    """The market of a turn: its snapshot, with the register summed from the share ledger."""
    register: dict[str, dict[str, int]] = {c: {} for c in snapshot["shares"]}
    for (company, holder), n in repo.holdings(s, game).items():
        if n:
            register.setdefault(company, {})[holder] = n
    return MarketState(
        shares=dict(snapshot["shares"]),
        register=register,
        ceos=dict(snapshot["ceos"]),
        worths=dict(snapshot["worths"]),
        last_prices=dict(snapshot["last_prices"]),
    )


def record_shares(
    s: Session,
    game: Game,
    company: str,
    holder: str,
    kind: ShareKind,
    amount: int,
    *,
    turn_seq: int,
    phase: Phase,
    now: datetime,
    price: int | None = None,
    memo: str = "",
    reverses: int | None = None,
) -> ShareEntry:
    entry = ShareEntry(
        game_id=game.id,
        company=company,
        holder=holder,
        kind=kind,
        amount=amount,
        turn_seq=turn_seq,
        phase=phase,
        price=price,
        memo=memo[:200],
        reverses=reverses,
        created_at=now,
    )
    s.add(entry)
    return entry


def open_market(
    s: Session,
    game: Game,
    companies: Collection[str],
    investors: Collection[str],
    *,
    capital: int,
    shares: int,
    worths: Mapping[str, int],
    reserve: int,
    turn_seq: int,
    phase: Phase,
    now: datetime,
) -> MarketState:
    """The game's start: each investor's capital, each pool all its company's shares (the
    companies' opening treasuries are booked as in every Payola game)."""
    for name in sorted(investors):
        money.record(
            s,
            game,
            _ledger_key(investor_key(name)),
            LedgerKind.CAPITAL,
            capital,
            turn_seq=turn_seq,
            phase=phase,
            now=now,
        )
    for company in sorted(companies):
        record_shares(
            s, game, company, company, ShareKind.ISSUE, shares, turn_seq=turn_seq, phase=phase, now=now
        )
    return float_state(companies, shares, worths, reserve)


def book(
    s: Session, game: Game, outcome: ExchangeOutcome, *, turn_seq: int, phase: Phase, now: datetime
) -> None:
    """Book an exchange phase's money and share movements in the two ledgers."""
    for m in outcome.money:
        money.record(
            s,
            game,
            _ledger_key(m.account),
            LedgerKind(m.kind.value),
            m.amount,
            turn_seq=turn_seq,
            phase=phase,
            now=now,
            counterparty=m.counterparty,
            memo=m.memo,
        )
    for sh in outcome.shares:
        record_shares(
            s,
            game,
            sh.company,
            sh.holder,
            ShareKind(sh.kind.value),
            sh.amount,
            turn_seq=turn_seq,
            phase=phase,
            now=now,
            price=sh.price,
            memo=f"{sh.kind.value} at {sh.price}",
        )


def roll_back_shares(s: Session, game: Game, from_seq: int, *, phase: Phase, now: datetime) -> int:
    """Reverse every share entry made at or after turn `from_seq` by new entries (as
    `money.roll_back` does for money); returns how many."""
    entries = repo.share_entries(s, game)
    done = {e.reverses for e in entries if e.reverses is not None}
    count = 0
    for e in entries:
        if e.turn_seq >= from_seq and e.kind is not ShareKind.ROLLBACK and e.id not in done:
            record_shares(
                s,
                game,
                e.company,
                e.holder,
                ShareKind.ROLLBACK,
                -e.amount,
                turn_seq=from_seq,
                phase=phase,
                now=now,
                price=e.price,
                memo=f"rollback of {e.kind} ({e.phase})",
                reverses=e.id,
            )
            count += 1
    return count


def set_ceo_vote(
    s: Session, game: Game, voter: str, company: str, candidate: str | None, *, now: datetime
) -> None:
    """Record a standing CEO vote (None withdraws it): the latest row counts."""
    s.add(CeoVote(game_id=game.id, voter=voter, company=company, candidate=candidate, set_at=now))


def ceo_votes(s: Session, game: Game) -> dict[str, dict[str, str | None]]:
    """company -> voter -> candidate, as `run_exchange` takes them."""
    out: dict[str, dict[str, str | None]] = {}
    for (voter, company), candidate in repo.ceo_votes(s, game).items():
        out.setdefault(company, {})[voter] = candidate
    return out


def playing_investors(st: GameState) -> frozenset[str]:
    return frozenset(
        s.investor_name
        for s in st.seats
        if s.kind is SeatKind.INVESTOR and s.status is SeatStatus.PLAYING and s.investor_name
    )


def sheet_from_text(account: str, text: str, state: MarketState, centres: Collection[str]) -> ExchangeSheet:
    """An exchange submission as stored (normalised lines, `WORTH <centre> n` only) -> the
    engine's sheet."""
    companies = {c: c for c in state.companies()}
    shares = max(state.shares.values(), default=1)
    orders: list[MarketOrder] = []
    dividend: int | None = None
    worths: dict[str, int] = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        parsed = parse_exchange_line(line, companies=companies, shares=shares, centres=centres)
        if isinstance(parsed, TradeLine):
            orders.append(MarketOrder(account, parsed.side, parsed.company, parsed.shares, parsed.price))
        elif isinstance(parsed, DividendLine):
            dividend = parsed.per_share
        elif isinstance(parsed, WorthLine) and parsed.centre is not None:
            worths[parsed.centre] = parsed.worth
    return ExchangeSheet(account, tuple(orders), dividend, worths)


def process_exchange(
    st: GameState, *, now: datetime, mailer: Mailer | None = None, income: Mapping[str, int] | None = None
) -> tuple[ExchangeOutcome, Turn]:
    """Process the open exchange phase: run it on the stored sheets, votes and balances,
    book its movements in both ledgers, close the turn and open the next spring with the
    market after the phase, and send its mails (`income`: the year's, for the reports).
    The float is the game's first turn."""
    s, game, turn, pos = st.session, st.game, st.turn, st.position
    assert turn is not None and pos is not None and turn.market is not None and turn.phase.is_exchange
    state = load_market(s, game, turn.market)
    centres = st.map.supply_centers
    sheets = {
        account: sheet_from_text(account, sub.text, state, centres)
        for account, sub in st.submissions().items()
        if sub.kind is SubmissionKind.EXCHANGE
    }
    is_float = turn.seq == 1
    balances = money.balances(s, game)
    outcome = run_exchange(
        state,
        _by_account(sheets),
        _by_account(balances),
        ceo_votes(s, game),
        playing_investors(st),
        turn.seed,
        float_price=int(game.settings.get("float", 1)) if is_float else None,
    )
    book(s, game, outcome, turn_seq=turn.seq, phase=turn.phase, now=now)
    turn.status = TurnStatus.PROCESSED
    turn.processed_at = now
    owned = {c: tuple(sorted(cs)) for c, cs in pos.centers.items()}
    public = views.results_view(str(turn.phase), state, outcome, _by_account(owned))
    turn.report = views.results_json(public)  # the public results, for HISTORY and the status page
    phase = phase_after(turn.phase)
    nxt = Turn(
        game_id=game.id,
        seq=repo.last_turn_seq(s, game) + 1,
        phase=phase,
        position=position_to_json(pos.replace(phase=phase)),
        seed=new_seed(game, phase),
        status=TurnStatus.OPEN,
        opened_at=now,
        market=market_json(outcome.state),
    )
    s.add(nxt)
    game.phase = phase
    game.deadline = Timing.from_json(game.timing).deadline(phase.type, now)
    s.flush()
    if mailer is not None:
        send_exchange_mails(
            st,
            mailer,
            turn.phase,
            state,
            public,
            outcome,
            _by_account(balances),
            _by_account(owned),
            income or {},
            is_float=is_float,
        )
    st.__dict__.pop("turn", None)
    st.__dict__.pop("position", None)
    return outcome, nxt


def investor_seat(st: GameState, name: str) -> Seat | None:
    """The seat of the investor called `name` (any case), if there is one."""
    for seat in st.seats:
        if seat.kind is SeatKind.INVESTOR and seat.investor_name == name.upper():
            return seat
    return None


def ceo_of(st: GameState, company: PowerName) -> str | None:
    """The investor who runs `company` now (None: unmanaged, or not an Exchange game)."""
    market = st.market()
    ceo = market.get("ceos", {}).get(str(company)) if market else None
    return str(ceo) if ceo else None


def _investor_addresses(st: GameState) -> dict[str, str]:
    return {
        s.investor_name: s.address
        for s in st.seats
        if s.kind is SeatKind.INVESTOR and s.status is SeatStatus.PLAYING and s.investor_name and s.address
    }


@dataclass(frozen=True)
class Following:
    """What the exchange results say comes next: the phase and its deadline, or the end
    of the game (`END <year>` reached: `ends` is that year)."""

    phase: Phase
    deadline: str | None
    ends: int | None


def _following(st: GameState, processed: Phase) -> Following:
    game = st.game
    last = game.settings.get("end")
    ends = processed.year if last is not None and processed.year >= int(last) else None
    assert game.phase is not None
    zone = Timing.from_json(game.timing).zone
    return Following(game.phase, show_time(game.deadline, zone) if game.deadline else None, ends)


def send_exchange_mails(
    st: GameState,
    mailer: Mailer,
    phase: Phase,
    before: MarketState,
    public: views.ResultsView,
    outcome: ExchangeOutcome,
    balances: Mapping[str, int],
    owned: Mapping[str, tuple[str, ...]],
    income: Mapping[str, int],
    *,
    is_float: bool = False,
) -> None:
    """The mails of an exchange phase (docs/exchange.md, "What each party sees"): the
    public results to everyone; each investor its statement; each company's statement to
    the CEO who acted for it in the phase; each annual report to the company's
    stockholders and its CEO for the coming year (not after the float: no year to report)."""
    game, name = st.game, st.game.name
    addresses = _investor_addresses(st)
    mailer.send(
        public_recipients(st),
        f"Exchange results {name} {phase}",
        "exchange_results.txt.j2",
        kind=MailKind.RESULTS,
        game=game,
        v=public,
        following=_following(st, phase),
    )
    for investor, address in sorted(addresses.items()):
        mailer.send(
            [address],
            f"Exchange statement {name} {phase}",
            "exchange_statement.txt.j2",
            kind=MailKind.STATEMENT,
            game=game,
            v=views.investor_statement(str(phase), investor_key(investor), balances, outcome),
        )
    if is_float:
        return
    after = dict(balances)
    for m in outcome.money:
        after[m.account] = after.get(m.account, 0) + m.amount
    for company in outcome.state.companies():
        acting = before.ceos.get(company)
        if acting in addresses:
            mailer.send(
                [addresses[acting]],
                f"Company statement for {company} {name} {phase}",
                "company_statement.txt.j2",
                kind=MailKind.STATEMENT,
                game=game,
                v=views.company_statement(str(phase), company, balances, outcome),
            )
        readers = [addresses[n] for n in views.stockholders(company, outcome) if n in addresses]
        mailer.send(
            readers,
            f"Annual stockholder report for {company} {phase.year}",
            "stockholder_report.txt.j2",
            kind=MailKind.REPORT,
            game=game,
            v=views.stockholder_report(phase.year, company, after, income.get(company, 0), outcome, owned),
        )


def record_exchange_sheet(st: GameState, account: str, lines: list[str], *, now: datetime) -> None:
    """Store an account's exchange sheet for the open phase (normalised lines), replacing
    its previous one, as offer sheets are replaced."""
    turn = st.turn
    assert turn is not None
    repo.retire_submissions(st.session, turn, _ledger_key(account))
    st.session.add(
        Submission(
            game_id=st.game.id,
            turn_id=turn.id,
            power=account,
            kind=SubmissionKind.EXCHANGE,
            text="\n".join(lines),
            current=True,
            submitted_at=now,
        )
    )


def float_phase(first: Phase) -> Phase:
    """The float: the exchange phase of the winter before the first phase (W1900X)."""
    return Phase(first.year - 1, Season.WINTER, PhaseType.EXCHANGE)


def start_exchange(st: GameState, *, now: datetime) -> Turn:
    """An Exchange game's start (docs/exchange.md, "Joining"): seats nobody took stay
    empty, companies get their opening treasuries, investors their capital, every pool all
    its shares, every centre its starting worth; the first phase is the float."""
    game = st.game
    for seat in game.seats:
        if seat.status is SeatStatus.OPEN:
            seat.status = SeatStatus.DUMMY  # nobody joined: the Master started it short
            seat.address = None
    initial = Position.initial(st.map, st.rules.flags)
    phase = float_phase(initial.phase)
    position = initial.replace(phase=phase)
    rules = st.rules  # with the map's RULE lines
    opening = opening_balances(initial, rules)
    for power, amount in opening.items():
        money.record(
            st.session,
            game,
            power,
            LedgerKind.OPENING,
            amount,
            turn_seq=0,
            phase=phase,
            now=now,
            memo="opening balance",
        )
    investors = sorted(investor_names(game))
    capital = game.settings.get("capital")
    if capital is None:
        capital = sum(opening.values()) // max(1, len(investors))
    market = open_market(
        st.session,
        game,
        st.map.power_names,
        investors,
        capital=int(capital),
        shares=int(game.settings.get("shares", DEFAULT_SHARES)),
        worths=starting_worths(initial, rules),
        reserve=int(game.settings.get("float", 1)),
        turn_seq=0,
        phase=phase,
        now=now,
    )
    turn = Turn(
        game_id=game.id,
        seq=1,
        phase=phase,
        position=position_to_json(position),
        seed=new_seed(game, phase),
        status=TurnStatus.OPEN,
        opened_at=now,
        market=market_json(market),
    )
    st.session.add(turn)
    game.state = GameStatus.ACTIVE
    game.phase = phase
    game.started_at = now
    st.session.flush()
    st.__dict__.pop("turn", None)
    st.__dict__.pop("position", None)
    return turn


# -- the exchange lines of a mail (docs/exchange.md, "Mail commands") -------------------


@dataclass(frozen=True)
class ExchangeTaken:
    """`templates/notes/exchange_order.txt.j2`: one BUY, SELL or PASS line taken."""

    note: ClassVar[str] = "exchange_order"
    phase: str
    line: TradeLine | None  # None: PASS
    committed: int  # what the account's buy orders now commit
    cash: int
    held: int  # the shares of the line's company the account holds (its pool: a company)
    company_account: bool


@dataclass(frozen=True)
class DividendTaken:
    """`templates/notes/dividend.txt.j2`."""

    note: ClassVar[str] = "dividend"
    company: str
    per_share: int
    outstanding: int
    treasury: int


@dataclass(frozen=True)
class WorthTaken:
    """`templates/notes/worth.txt.j2`: the company's centres' worths after the line."""

    note: ClassVar[str] = "worth"
    company: str
    phase: str  # the phase from which they count
    worths: tuple[tuple[str, int], ...]
    allowance: int


@dataclass(frozen=True)
class CeoVoteTaken:
    """`templates/notes/ceo_vote.txt.j2`."""

    note: ClassVar[str] = "ceo_vote"
    company: str
    candidate: str | None


def _companies(st: GameState) -> dict[str, str]:
    """Every word that names a company (its name or initial) -> its name."""
    out: dict[str, str] = {}
    for p in st.map.powers:
        out[str(p.name)] = str(p.name)
        if p.initial:
            out[p.initial] = str(p.name)
    return out


def _parse(st: GameState, text: str, shares: int) -> ExchangeLine:
    try:
        return parse_exchange_line(
            text, companies=_companies(st), shares=shares, centres=st.map.supply_centers
        )
    except LineError as exc:
        raise CommandError(str(exc)) from None


def _exchange_turn(st: GameState) -> Turn:
    """The open exchange phase, or the command is refused saying when the next one is."""
    turn = st.turn
    if turn is None or not st.game.state.is_running:
        raise CommandError(f"{st.game.name} is {st.game.state}: nothing can be ordered now")
    if not turn.phase.is_exchange or turn.market is None:
        year = turn.phase.year
        raise CommandError(
            f"exchange orders are for exchange phases (now: {turn.phase.title}; "
            f"the next is Winter {year} Exchange)"
        )
    return turn


def _stored_lines(st: GameState, account: str) -> list[str]:
    sub = st.submission(_ledger_key(account))
    if sub is None or sub.kind is not SubmissionKind.EXCHANGE:
        return []
    return [line for line in sub.text.splitlines() if line.strip()]


def _is_trade(line: str) -> bool:
    return line.split()[0] in ("BUY", "SELL", "PASS")


def enter_exchange_line(
    st: GameState, account: str, text: str, *, fresh: bool, now: datetime, allowance_later: bool = False
) -> ExchangeTaken | DividendTaken | WorthTaken:
    """One BUY, SELL, PASS, DIVIDEND or WORTH line for `account` (an investor's key, or a
    company its CEO acts for) in the open exchange phase. Its trade lines are replaced as
    a whole by the next message holding any (`fresh`: this is that message's first trade
    line for the account); DIVIDEND and each centre's WORTH by their latest line. The whole
    sheet is checked against the account's cash and holdings before it is stored
    (`allowance_later`: the worths' total is checked by `check_allowance` once the
    message's every WORTH line is in, so that their order does not matter)."""
    turn = _exchange_turn(st)
    assert turn.market is not None
    state = load_market(st.session, st.game, turn.market)
    shares = max(state.shares.values(), default=1)
    parsed = _parse(st, text, shares)
    company_account = not is_investor(account)
    lines = _stored_lines(st, account)
    cash = money.balance(st.session, st.game, _ledger_key(account))
    if isinstance(parsed, DividendLine | WorthLine) and not company_account:
        word = "DIVIDEND" if isinstance(parsed, DividendLine) else "WORTH"
        raise CommandError(f"write FOR <company> first: {word} acts for a company you run")
    if isinstance(parsed, PassLine) and company_account:
        raise CommandError("PASS is for investors: a company without orders sends none")
    if isinstance(parsed, TradeLine | PassLine):
        if fresh:
            lines = [line for line in lines if not _is_trade(line)]
        if isinstance(parsed, PassLine):
            lines = [line for line in lines if not _is_trade(line)] + ["PASS"]
        else:
            lines = [line for line in lines if line != "PASS"] + [normalized(parsed)]
    elif isinstance(parsed, DividendLine):
        lines = [line for line in lines if not line.startswith("DIVIDEND ")] + [normalized(parsed)]
    elif isinstance(parsed, WorthLine):
        pos = st.position
        assert pos is not None
        owned = sorted(pos.centers.get(PowerName(account), ()))
        targets = [parsed.centre] if parsed.centre else owned
        changed = {f"WORTH {c} " for c in targets}
        lines = [line for line in lines if not any(line.startswith(w) for w in changed)]
        lines += [f"WORTH {c} {parsed.worth}" for c in targets]
    else:
        raise CommandError("VOTE CEO is written VOTE CEO <company> <investor>")
    sheet = sheet_from_text(account, "\n".join(lines), state, st.map.supply_centers)
    problems = check_orders(account, sheet.orders, state, cash, is_float=turn.seq == 1)
    if company_account:
        register = state.register.get(account, {})
        if sheet.dividend:
            most = max_dividend(cash, register)
            if not outstanding(register):
                problems.append(f"{account} has no outstanding shares")
            elif sheet.dividend > most:
                problems.append(
                    f"{account} holds {cash} AgP for {outstanding(register)} outstanding shares: "
                    f"at most {most} AgP a share"
                )
        if sheet.worths:
            pos = st.position
            assert pos is not None
            owned = sorted(pos.centers.get(PowerName(account), ()))
            worth_problems = check_worths(account, owned, state.worths, sheet.worths, pos, st.rules)
            problems += [p for p in worth_problems if not (allowance_later and "allowance" in p)]
    if problems:
        raise CommandError("; ".join(problems))
    record_exchange_sheet(st, account, lines, now=now)
    if isinstance(parsed, DividendLine):
        register = state.register.get(account, {})
        return DividendTaken(account, parsed.per_share, outstanding(register), cash)
    if isinstance(parsed, WorthLine):
        pos = st.position
        assert pos is not None
        owned = sorted(pos.centers.get(PowerName(account), ()))
        worths = {c: sheet.worths.get(c, state.worths.get(c, 0)) for c in owned}
        return WorthTaken(
            account,
            phase_after(turn.phase).title,
            tuple(worths.items()),
            allowance(len(owned), pos, st.rules),
        )
    committed = sum(o.shares * o.price for o in sheet.orders if o.side is Side.BUY)
    trade = parsed if isinstance(parsed, TradeLine) else None
    held = state.holding(trade.company, account) if trade else 0
    return ExchangeTaken(turn.phase.title, trade, committed, cash, held, company_account)


def check_allowance(st: GameState, account: str) -> None:
    """The worths a company's stored sheet sets may not add up to more than its allowance
    (docs/exchange.md, "Worth and income"); raises CommandError."""
    turn = _exchange_turn(st)
    pos = st.position
    assert turn.market is not None and pos is not None
    state = load_market(st.session, st.game, turn.market)
    sheet = sheet_from_text(account, "\n".join(_stored_lines(st, account)), state, st.map.supply_centers)
    owned = sorted(pos.centers.get(PowerName(account), ()))
    problems = check_worths(account, owned, state.worths, sheet.worths, pos, st.rules)
    if problems:
        raise CommandError("; ".join(problems))


def vote_ceo(st: GameState, voter: str, text: str, *, now: datetime) -> CeoVoteTaken:
    """VOTE CEO <company> <investor>|NONE: a standing vote of the investor `voter` (its
    name), counted at every exchange phase with the shares it then holds."""
    parsed = _parse(st, text, 1)
    assert isinstance(parsed, CeoVoteLine)
    candidate = parsed.candidate
    if candidate is not None:
        seat = investor_seat(st, candidate)
        if seat is None:
            raise CommandError(f"there is no investor {candidate}")
    set_ceo_vote(st.session, st.game, voter, parsed.company, candidate, now=now)
    return CeoVoteTaken(parsed.company, candidate)


def liquidate_companies(st: GameState, *, now: datetime) -> list[dict[str, Any]]:
    """The end of an Exchange game (docs/exchange.md, "How the game ends"): every company's
    treasury is paid out to its stockholders, booked at the last turn; returns the
    investors' ranking by net worth (their cash after it), richest first."""
    s, game = st.session, st.game
    turn = st.turn
    if turn is None:
        return []
    balances = _by_account(money.balances(s, game))
    companies = {str(p) for p in st.map.power_names}
    registers: dict[str, dict[str, int]] = {}
    for (company, holder), n in repo.holdings(s, game).items():
        registers.setdefault(company, {})[holder] = n
    moves = liquidate({c: balances.get(c, 0) for c in companies}, registers)
    for m in moves:
        money.record(
            s,
            game,
            _ledger_key(m.account),
            LedgerKind(m.kind.value),
            m.amount,
            turn_seq=turn.seq,
            phase=turn.phase,
            now=now,
            counterparty=m.counterparty,
            memo=m.memo,
        )
        balances[m.account] = balances.get(m.account, 0) + m.amount
    return [
        {"place": r.place, "investor": investor_name(r.investor), "net_worth": r.net_worth}
        for r in ranking(balances)
    ]


def holdings(st: GameState, account: str) -> dict[str, int]:
    """company -> the shares `account` holds (a company's own key: its pool)."""
    return {
        company: n
        for (company, holder), n in sorted(repo.holdings(st.session, st.game).items())
        if holder == account and n
    }


@dataclass(frozen=True)
class CompanyStanding:
    """What everyone may know of a company (docs/exchange.md, "What each party sees"): its
    CEO and how many of its shares investors hold, for SUMMARY."""

    company: str
    ceo: str | None
    outstanding: int
    shares: int


def company_standings(st: GameState) -> list[CompanyStanding]:
    """Each company's CEO and shares outstanding now, in the map's order (empty before the
    game starts: there is no market yet)."""
    market = st.market()
    if market is None:
        return []
    held = repo.holdings(st.session, st.game)
    return [
        CompanyStanding(
            company,
            market["ceos"].get(company),
            sum(n for (c, holder), n in held.items() if c == company and is_investor(holder)),
            int(market["shares"].get(company, 0)),
        )
        for company in map(str, st.map.power_names)
    ]


@dataclass(frozen=True)
class CeoSet:
    """`templates/notes/ceo_set.txt.j2`: the Master's SET CEO."""

    note: ClassVar[str] = "ceo_set"
    company: str
    ceo: str | None


def set_ceo(st: GameState, company: PowerName, name: str | None) -> CeoSet:
    """The Master appoints (or, with None, removes) a company's CEO at once, for games
    that stall (docs/exchange.md, "CEOs and elections"); kept in the turn's market, so a
    rollback undoes it."""
    turn = st.turn
    if turn is None or turn.market is None:
        raise CommandError(f"{st.game.name} has no market yet: a CEO is set once the game has started")
    if name is not None:
        seat = investor_seat(st, name)
        if seat is None or seat.status is not SeatStatus.PLAYING or not seat.investor_name:
            raise CommandError(f"there is no playing investor {name.upper()}")
        name = seat.investor_name
    turn.market = {**turn.market, "ceos": {**turn.market["ceos"], str(company): name}}
    return CeoSet(str(company), name)
