"""Passwords: argon2id hashes, constant-time checks; a password is never stored or echoed.

Also the throttle on password guessing (failed sign-ons counted per seat, whatever the
From) and the tokens that stand for passwords in stored mail once it is processed.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from argon2.low_level import Type, hash_secret_raw

from ..config import Config
from ..store import Session, repo
from ..vocabulary import MailKind
from .mailer import Mailer

MIN_LENGTH = 4  # for every password chosen (and PRIVATE words)

# OWASP's minimum argon2id settings (19 MiB, 2 passes): about 20 ms a check here.
_hasher = PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1)

# A player signs on with every message; checking the same password against the same hash
# again proves nothing new, so successes are remembered in this process, keyed by an HMAC
# under a secret that never leaves memory (the cache holds no password and no hash). A
# changed password has a new hash, which the cache has never seen.
_KEY = secrets.token_bytes(32)
_VERIFIED: OrderedDict[bytes, None] = OrderedDict()
_LOCK = threading.Lock()
_CACHE_SIZE = 4096


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def check_password(stored: str | None, password: str) -> bool:
    if not stored or not password:
        return False
    key = hmac.new(_KEY, stored.encode() + b"\0" + password.encode(), hashlib.sha256).digest()
    with _LOCK:
        if key in _VERIFIED:
            _VERIFIED.move_to_end(key)
            return True
    try:
        ok = _hasher.verify(stored, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False
    if ok:
        with _LOCK:
            _VERIFIED[key] = None
            while len(_VERIFIED) > _CACHE_SIZE:
                _VERIFIED.popitem(last=False)
    return ok


# -- guessing -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class FailedSignon:
    """A sign-on refused for a wrong password: recorded after the message is rolled back."""

    game_id: int
    game: str
    who: str  # the power, MASTER, or the observer's name
    owner: str | None  # the seat's registered address, told when the lock engages
    trusted: bool  # the message came from that address


def signon_window(config: Config) -> timedelta:
    """How far back failed sign-ons count."""
    return timedelta(minutes=config.signon_window_minutes)


def locked_until(
    s: Session, config: Config, game_id: int, who: str, *, trusted: bool, now: datetime
) -> datetime | None:
    """When sign-ons for `who` are allowed again, if too many failed within the window.
    Failures from the registered address and from anywhere else are counted apart: a
    stranger's guesses, whatever From they forge, lock strangers out, never the owner
    writing from the address the judge knows (unless the stranger knows and forges it)."""
    window = signon_window(config)
    times = repo.signon_failure_times(s, game_id, who, trusted=trusted, since=now - window)
    if len(times) < config.signon_failure_limit:
        return None
    return times[-config.signon_failure_limit] + window


def record_failure(
    s: Session,
    config: Config,
    mailer: Mailer,
    failure: FailedSignon,
    *,
    sender: str,
    inbound_id: int | None,
    now: datetime,
    zone: str = "UTC",
) -> None:
    """Count a failed sign-on (once per message); the failure that engages the lock is
    reported to the registered owner."""
    if not repo.add_signon_failure(
        s,
        game_id=failure.game_id,
        who=failure.who,
        trusted=failure.trusted,
        sender=sender,
        inbound_id=inbound_id,
        at=now,
    ):
        return
    window = signon_window(config)
    times = repo.signon_failure_times(
        s, failure.game_id, failure.who, trusted=failure.trusted, since=now - window
    )
    if len(times) == config.signon_failure_limit and failure.owner:
        from .timing import show_time

        mailer.send(
            [failure.owner],
            f"Diplomacy sign-on attempts {failure.game}",
            "signon_locked.txt.j2",
            kind=MailKind.SECURITY,
            game_name=failure.game,
            who=failure.who,
            count=len(times),
            minutes=config.signon_window_minutes,
            until=show_time(times[0] + window, zone),
            trusted=failure.trusted,
            last_sender=sender,
        )


# -- stored mail ----------------------------------------------------------------------------
_TOKENS: OrderedDict[bytes, str] = OrderedDict()


def password_token(salt: str, word: str) -> str:
    """What stands for a password in stored mail: the same word gives the same token (so a
    replay of the mail signs on, or fails to, exactly as the original did), and finding
    the word from its token costs an argon2id search, as from the hashes the judge keeps.
    A word too short to be any password gives `***`, too short as well."""
    if len(word) < MIN_LENGTH:
        return "***"
    key = hmac.new(_KEY, salt.encode() + b"\0" + word.encode(), hashlib.sha256).digest()
    with _LOCK:
        if key in _TOKENS:
            _TOKENS.move_to_end(key)
            return _TOKENS[key]
    raw = hash_secret_raw(
        word.encode(),
        hashlib.sha256(salt.encode()).digest(),
        time_cost=_hasher.time_cost,
        memory_cost=_hasher.memory_cost,
        parallelism=_hasher.parallelism,
        hash_len=15,
        type=Type.ID,
    )
    token = "redacted-" + base64.b32encode(raw).decode().lower()
    with _LOCK:
        _TOKENS[key] = token
        while len(_TOKENS) > _CACHE_SIZE:
            _TOKENS.popitem(last=False)
    return token


def redaction_salt(s: Session) -> str:
    # written once by the migration that made the setting, so read once per process
    return repo.judge_constant(s, "redaction_salt") or "payjudge"
