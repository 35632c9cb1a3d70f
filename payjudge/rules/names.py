"""Typed names for powers and provinces, so that mypy tells a name from any other text.

A power's name (`ENGLAND`) and a province's (`STP`) are plain strings at run time, but they
cross every layer — map, position, orders, offers, the auction's book, the statement, the
game's seats, the database — and a string from the wrong place (an adjective, a player's
spelling, an e-mail address, a unit's text) looks the same as a name until a lookup misses.
`NewType` costs nothing at run time and makes each producer say what it returns.

Raw text becomes a name only at the edges, after it was checked or canonicalised:

- the map reader (`mapread.py`, `mapfile.py`), which declares powers and provinces;
- the parsers of orders and sheets (`rules/parse.py`, `payola/offers.py`, `text/`), which
  resolve a player's spelling through the map;
- the JSON entry points (`jsonapi/`) and the store's adapters (`store/`), which read names
  that the judge wrote itself.

Inside, a function that takes a `PowerName` refuses a raw `str` (mypy), and the middle
never casts: if a name arrives as `str`, its producer's type is fixed instead.

`ProvinceName` is a province without its coast (`STP`). A place with a coast (`STP/SC`) is
no string but the `Location` value of `geography.py` (province and coast), so it needs no
`NewType` of its own.
"""

from __future__ import annotations

from typing import NewType

PowerName = NewType("PowerName", str)
ProvinceName = NewType("ProvinceName", str)
