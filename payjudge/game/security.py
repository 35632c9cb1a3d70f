"""Passwords: argon2id hashes, constant-time checks; a password is never stored or echoed."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections import OrderedDict

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

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

