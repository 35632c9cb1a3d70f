"""Passwords: argon2id hashes, constant-time checks; a password is never stored or echoed."""

from __future__ import annotations

import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

# OWASP's minimum argon2id settings (19 MiB, 2 passes): strong enough for a game
# password and cheap enough (a few ms) to check on every message.
_hasher = PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1)


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def check_password(stored: str | None, password: str) -> bool:
    if not stored or not password:
        return False
    try:
        return _hasher.verify(stored, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def new_password() -> str:
    """A password the judge makes up (REVIVE, a dummy taken over)."""
    return secrets.token_urlsafe(9)
