"""Signing in on the web pages: the game's own credentials, the mail path's throttle.

A party signs in with a game, who it is (a power's name or initial, `M` for the Master,
an observer's name) and its password, checked against the same argon2 hash as a mail
SIGNON. Failures are counted in the same table as failed mail sign-ons
(`security.record_failure`), as a stranger's (never "from the registered address": a web
request has no From), so guessing by mail and by web is one budget, and the lock engaged
by either refuses both.

A sign-in opens a session bound to that game and that party. The browser holds a random
token; the store keeps only its SHA-256, with a CSRF token for the forms, an expiry, and a
digest of the password hash the party signed in with, so that a password changed by mail
ends every session opened with the old one. Signing out ends the session at once.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from ..config import Config
from ..payola.exchange.accounts import investor_key, investor_name, is_investor
from ..rules.flags import Flag
from ..rules.names import PowerName
from ..store import Session, repo, webrepo
from ..store.models import Game, WebSession
from ..vocabulary import SeatStatus
from .exchange.votes import investor_seat
from .mailer import Mailer
from .security import FailedSignon, check_password, locked_until, record_failure
from .state import MASTER, GameState, find_observer
from .timing import Timing, show_time

SESSION_HOURS = 12  # a session ends this long after sign-in, whatever is done with it
WEB_SENDER = "(web sign-in)"  # the `sender` of a failure recorded from the web


@dataclass(frozen=True)
class Party:
    """Who a session is: the game and the party (a power, MASTER, an observer's name)."""

    game: str
    name: str  # the power's name, MASTER, or the observer's name
    is_master: bool = False
    is_observer: bool = False

    @property
    def power(self) -> PowerName | None:
        """The power's name, or (Exchange Payola) the investor's account `@NAME`."""
        return None if self.is_master or self.is_observer else PowerName(self.name)

    @property
    def investor(self) -> str | None:
        """The investor's name, when the party is an Exchange game's investor."""
        return investor_name(self.name) if is_investor(self.name) else None


@dataclass(frozen=True)
class Opened:
    """A session opened: the token for the cookie (shown once, never stored) and the CSRF
    token for the forms."""

    party: Party
    token: str
    csrf: str
    expires_at: datetime


@dataclass(frozen=True)
class Refused:
    """A sign-in refused, with what to tell the browser (as much as a mail reply says)."""

    reason: str


@dataclass(frozen=True)
class Current:
    """A live session, as a request finds it."""

    party: Party
    csrf: str
    game_id: int
    session_id: int


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class _Credential:
    who: str
    stored: str | None  # the password hash
    owner: str | None  # the registered address (told when the lock engages)
    is_master: bool = False
    is_observer: bool = False


def _credential(s: Session, st: GameState, word: str) -> _Credential | None:
    """The party `word` names in the game, with its password hash; None when there is none
    (or the seat is not played: its player has resigned or it is a dummy)."""
    if word.upper() in ("M", "MASTER"):
        return _Credential(MASTER, st.game.master_password, st.game.master_address, is_master=True)
    power = st.map.power(word.upper())
    if Flag.EXCHANGE in st.rules:
        return _investor(s, st, word, power is not None)
    if power is not None:
        seat = st.seat(power.name)
        if seat is None or seat.status is not SeatStatus.PLAYING:
            return None
        return _Credential(power.name, seat.password, seat.address)
    return _observer(s, st, word)


def _investor(s: Session, st: GameState, word: str, a_company: bool) -> _Credential | None:
    """An Exchange game's investor, named as by mail (`SIGNON <name>@<game>`), or as its
    account `@NAME` (a session's party); companies have no seats (their CEO signs in as
    itself), so a company's name is nobody."""
    seat = investor_seat(st, investor_name(word) if is_investor(word) else word)
    if seat is None or seat.investor_name is None:
        return None if a_company else _observer(s, st, word)
    if seat.status is not SeatStatus.PLAYING:
        return None
    return _Credential(investor_key(seat.investor_name), seat.password, seat.address)


def _observer(s: Session, st: GameState, word: str) -> _Credential | None:
    obs = find_observer(s, st.game, word)
    if obs is None or obs.confirmed_at is None:
        return None
    return _Credential(obs.name, obs.password, obs.address, is_observer=True)


def sign_in(
    s: Session, config: Config, game_name: str, word: str, password: str, *, now: datetime
) -> Opened | Refused:
    """Check the credentials as a mail SIGNON does, and open a session on success."""
    bad = Refused(f"invalid power or password for {game_name}")
    game = repo.game_by_name(s, game_name)
    if game is None or not word:
        return bad
    st = GameState(s, game, config.maps_path)
    cred = _credential(s, st, word)
    who = cred.who if cred is not None else word.upper()[:32]
    until = locked_until(s, config, game.id, who, trusted=False, now=now)
    if until is not None:
        zone = Timing.from_json(game.timing).zone
        return Refused(
            f"too many failed sign-ons as {who} in {game.name}: "
            f"they are refused until {show_time(until, zone)}"
        )
    if cred is None or not check_password(cred.stored, password):
        failure = FailedSignon(game.id, game.name, who, cred.owner if cred else None, False)
        mailer = Mailer(s, config, now)
        record_failure(s, config, mailer, failure, sender=WEB_SENDER, inbound_id=None, now=now)
        return bad
    token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    expires = now + timedelta(hours=SESSION_HOURS)
    s.add(
        WebSession(
            token_hash=_digest(token),
            csrf=csrf,
            game_id=game.id,
            party=cred.who,
            credential=_digest(cred.stored or ""),
            created_at=now,
            expires_at=expires,
        )
    )
    party = Party(game.name, cred.who, cred.is_master, cred.is_observer)
    return Opened(party, token, csrf, expires)


def current(s: Session, config: Config, token: str, *, now: datetime) -> Current | None:
    """The live session of `token`: not ended, not expired, and its party's password the
    one it signed in with. None otherwise."""
    if not token or len(token) > 100:
        return None
    row = webrepo.session_by_token(s, _digest(token))
    if row is None or row.ended_at is not None or row.expires_at <= now:
        return None
    game = s.get(Game, row.game_id)
    if game is None:
        return None
    st = GameState(s, game, config.maps_path)
    cred = _credential(s, st, row.party)
    if cred is None or _digest(cred.stored or "") != row.credential:
        return None  # the password changed, or the seat was given up
    party = Party(game.name, cred.who, cred.is_master, cred.is_observer)
    return Current(party, row.csrf, game.id, row.id)


def party_is_live(s: Session, config: Config, game: Game, who: str) -> bool:
    """Whether `who` is still a party of the game that may sign in (its seat played)."""
    return _credential(s, GameState(s, game, config.maps_path), who) is not None


def sign_out(s: Session, token: str, *, now: datetime) -> None:
    """End the session of `token` (nothing when there is none)."""
    row = webrepo.session_by_token(s, _digest(token))
    if row is not None and row.ended_at is None:
        row.ended_at = now
