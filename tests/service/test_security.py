"""Passwords are argon2id hashes; a good check is remembered, a bad one never is."""

import pytest

from payjudge.game.security import _VERIFIED, check_password, hash_password, password_token


@pytest.mark.real_hashing
def test_hashes_use_owasp_argon2id_settings():
    """The judge's own settings (the rest of the suite hashes lightly, tests/conftest.py):
    argon2id, 19 MiB, 2 passes, one lane; a stored token costs the same search."""
    assert hash_password("s3cret").startswith("$argon2id$v=19$m=19456,t=2,p=1$")
    from payjudge.game import security

    assert (security._hasher.memory_cost, security._hasher.time_cost) == (19456, 2)
    assert password_token("salt", "s3cret").startswith("redacted-")


@pytest.mark.real_hashing
def test_hash_and_check():
    stored = hash_password("s3cret")
    assert stored.startswith("$argon2id$") and "s3cret" not in stored
    assert check_password(stored, "s3cret")
    assert check_password(stored, "s3cret")  # from the cache now
    assert not check_password(stored, "S3CRET")  # case matters (DPjudge folded it)
    assert not check_password(stored, "")
    assert not check_password(None, "s3cret")
    assert not check_password("not a hash", "s3cret")
    other = hash_password("s3cret")  # the same password, a new salt
    assert other != stored and check_password(other, "s3cret")
    assert all(b"s3cret" not in key for key in _VERIFIED)
