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

`ProvinceName` is a province without its coast (`STP`): `Province.name`, a power's home
centres, the map's supply centres and who owns which centre (`Position.centers`), the
province names that leave `rules/` for the income, the reports and the store. A place
with a coast (`STP/SC`) is no string but the `Location` value of `geography.py`, so it
needs no `NewType` of its own. `Location.province` and the adjudicator's lookup tables
(`Map.provinces`, adjacency) are still keyed by `str`: a lookup accepts any text (the
parsers ask with what the player wrote), and what it hands out is typed.
"""

from __future__ import annotations

from typing import NewType

PowerName = NewType("PowerName", str)
ProvinceName = NewType("ProvinceName", str)
