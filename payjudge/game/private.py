"""What a signed-in party sees of its game on the web pages (docs/web.md).

A power sees what the judge tells it by mail and nothing more: the public page's board,
phase and deadline; its own balance and ledger (its statement history); the offer sheet
(or orders) and acceptance list on record for the open phase, as the judge stored them.
The Master sees every power's. An observer sees the public page. No view here names
another power's money, sheet, list or address to a power.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..config import Config
from ..payola.exchange.accounts import account_label
from ..rules.flags import Flag
from ..rules.names import PowerName
from ..rules.serial import position_from_json
from ..store import Session, repo
from ..store.models import Game
from ..vocabulary import TurnStatus
from . import money, webreceipt
from .blind import sight_board
from .exchange.market import holdings
from .exchange.votes import ceo_of
from .pictures import Pictures, shared_pictures
from .public import Page, game_page, picture
from .state import GameState, turns
from .turns import told_waiting
from .webpress import PressItem, party_press
from .websend import party_address
from .websession import Party


@dataclass(frozen=True)
class Entry:
    """One line of a ledger: when, what, how much."""

    phase: str
    kind: str
    amount: int
    memo: str


@dataclass(frozen=True)
class Desk:
    """One power's papers: its money and what it has on record for the open phase."""

    power: PowerName
    balance: int
    ledger: tuple[Entry, ...]  # oldest first
    sheet: str | None  # the sheet or orders on record for the open phase
    acceptance: str | None  # the acceptance list on record
    # Exchange Payola: the shares it holds (a company: its pool), by company
    holdings: tuple[tuple[str, int], ...] = ()
    label: str = ""  # its name as the mail names it (an investor's, not its account's)


@dataclass(frozen=True)
class PrivatePage:
    """A party's page: the public page, and the desks it may read (its own; the
    Master's: every power's; an observer's: none). In a BLIND game, which has no public
    picture, `own_seq` is the last played phase, whose picture the party may see as its
    results mail showed it (`own_picture`)."""

    party: Party
    public: Page
    desks: tuple[Desk, ...]
    own_seq: int | None = None
    receipt: bool = True  # the reply to a message sent from the page is mailed too
    # who the phase waits for, as SUMMARY tells anyone (None: the rules keep it quiet)
    late: tuple[str, ...] | None = None  # not yet ordered (LIST_UNORDERED)
    waiting: tuple[str, ...] | None = None  # asked to wait for the deadline (LIST_WAITERS)
    press: tuple[PressItem, ...] = ()  # what it wrote and read, newest first
    receipt_fixed: bool = False  # ALWAYS_CONFIRM: it always is


def _desk(s: Session, st: GameState, power: PowerName) -> Desk:
    entries = tuple(
        Entry(e.phase.title, e.kind.value, e.amount, e.memo) for e in money.entries(s, st.game, power)
    )
    sub = st.submission(power)
    held = tuple(holdings(st, power).items()) if Flag.EXCHANGE in st.rules else ()
    return Desk(
        power,
        money.balance(s, st.game, power),
        entries,
        sub.text if sub else None,
        st.acceptance_text(power),
        held,
        account_label(power),
    )


def _readable(st: GameState, party: Party) -> list[PowerName]:
    """Whose papers the party reads: the Master every power's; a power its own and its
    vassals' (CONTROL); an investor its account and, while it is CEO, its companies'."""
    if party.is_master:
        return [seat.power for seat in st.seats if seat.power]
    if party.power is None:
        return []
    if party.investor is not None:
        ceo = party.investor.upper()
        return [party.power, *(p for p in st.map.power_names if ceo_of(st, p) == ceo)]
    return [party.power, *st.controlled_by(party.power)]


def private_page(s: Session, config: Config, party: Party) -> PrivatePage | None:
    """The page `party` may see of its game; None when the game is gone."""
    game: Game | None = repo.game_by_name(s, party.game)
    page = game_page(s, config, party.game)
    if game is None or page is None:
        return None
    st = GameState(s, game, config.maps_path)
    powers = _readable(st, party)
    own = None
    if not page.pictures and (party.is_master or party.power is not None):
        played = [t.seq for t in turns(s, game) if t.status is TurnStatus.PROCESSED and t.report]
        own = played[-1] if played else None
    desks = tuple(_desk(s, st, p) for p in powers)
    told = told_waiting(st)
    return PrivatePage(
        party,
        page,
        desks,
        own,
        receipt=webreceipt.receipt_on(game, party.name),
        receipt_fixed=webreceipt.always_mailed(game),
        # named as SUMMARY's mail names them
        late=None if told.late is None else tuple(account_label(p) for p in told.late),
        waiting=None if told.waiting is None else tuple(told.waiting),
        press=party_press(s, game, party.name, party_address(s, config, game, party)),
    )


def own_picture(s: Session, config: Config, party: Party, seq: int) -> bytes | None:
    """The picture of a played phase of a BLIND game as `party`'s results mail showed it:
    drawn from what the power saw (`blind.sight_board`), the whole board for the Master.
    A game with a public picture: the public one. None for anything else."""
    game = repo.game_by_name(s, party.game)
    if game is None:
        return None
    if shared_pictures(game):
        return picture(s, config, party.game, seq)
    turn = next((t for t in turns(s, game) if t.seq == seq), None)
    if turn is None or turn.status is not TurnStatus.PROCESSED or not turn.report:
        return None
    st = GameState(s, game, config.maps_path)
    position, report = position_from_json(st.map, turn.position), dict(turn.report)
    if not party.is_master:
        if party.power is None:
            return None
        position, report = sight_board(position, report, party.power)
    return Pictures.of(config).png(st.map, position, report)
