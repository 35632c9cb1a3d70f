"""The two kinds of account of Exchange Payola: a company (keyed by its power's name,
`FRANCE`) and an investor (`@` and its name, `@ALICE`). `@` cannot occur in a power's
name, so one column of the ledgers holds both without collision."""

from __future__ import annotations

from typing import Final

INVESTOR_MARK: Final = "@"


def investor_key(name: str) -> str:
    """The ledger key of the investor called `name`."""
    return INVESTOR_MARK + name.upper()


def is_investor(key: str) -> bool:
    return key.startswith(INVESTOR_MARK)


def investor_name(key: str) -> str:
    """`@ALICE` -> `ALICE`; raises ValueError for a company's key."""
    if not is_investor(key):
        raise ValueError(f"{key!r} is a company's account, not an investor's")
    return key[len(INVESTOR_MARK) :]


def account_label(key: str) -> str:
    """How mail names an account: a company by its name, an investor by its own (`ALICE`)."""
    return investor_name(key) if is_investor(key) else key
