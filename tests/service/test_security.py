"""Passwords are argon2id hashes; a good check is remembered, a bad one never is."""

from payjudge.game.security import _VERIFIED, check_password, hash_password


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
