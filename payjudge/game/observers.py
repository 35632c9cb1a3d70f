"""Observers: who may watch a game, and how an address proves it is theirs (issue 26).

OBSERVE registers a name at the sender's address and mails back a code; the observer
exists for the judge only once `CONFIRM <name>@<game> <code>` comes back from that same
address. Until then nothing is sent to it (`repo.observers` lists the confirmed only) and
nothing is accepted from it (its SIGNON is refused), so a forged From gets one reply, as
any mail does, and no more. The code is a keyed digest of the game's secret seed base,
the name, the address and the moment of the OBSERVE: nothing to store, and `payjudge
replay`, which keeps the seed base and the clock, makes the same code again.

A game holds at most `observers_per_game` observers, counting those still to confirm
within `CONFIRM_WITHIN`. Names that read as a power (its name, adjective or full name),
the Master or the judge, once case, digits and punctuation are set aside (`FRANCE_`,
`Master-`, `JUDGE2`), are not given to observers or investors, so press signed by one
never looks like a power's.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from datetime import datetime, timedelta
from typing import Final

from ..store import repo
from ..store.models import Observer
from ..vocabulary import SeatKind
from .context import CommandError
from .security import hash_password
from .state import GameState

CONFIRM_WITHIN: Final = timedelta(days=2)
OBSERVER_NAME: Final = re.compile(r"^[A-Z][A-Z0-9_-]{1,19}$")
# roles the judge's own mail names, besides the powers
_ROLES: Final = frozenset(
    {
        "M",
        "MASTER",
        "GM",
        "GAMEMASTER",
        "ME",
        "NONE",
        "JUDGE",
        "PAYJUDGE",
        "ANONYMOUS",
        "EVERYONE",
        "OBSERVER",
    }
)


def _letters(word: str) -> str:
    return re.sub(r"[^A-Z]", "", word.upper())


def reserved_name(st: GameState, name: str, judge_name: str = "") -> bool:
    """Whether `name` reads as a power of the game's map, the Master or the judge."""
    key = _letters(name)
    if not key or key in _ROLES or (judge_name and key == _letters(judge_name)):
        return True
    return any(key in {_letters(p.name), _letters(p.adjective), _letters(p.written)} for p in st.map.powers)


def observer_code(st: GameState, obs: Observer) -> str:
    """The code mailed to an observer's address, to be sent back with CONFIRM."""
    key = str(st.game.settings.get("seed_base", st.game.id)).encode()
    text = f"observe:{st.game.name}:{obs.name}:{obs.address.lower()}:{obs.joined_at.isoformat()}"
    digest = hmac.new(key, text.encode(), hashlib.sha256).digest()
    return base64.b32encode(digest[:10]).decode().lower()  # 16 letters and digits, 80 bits


def observe(
    st: GameState, *, name: str, address: str, password: str, now: datetime, limit: int, judge_name: str = ""
) -> tuple[Observer, str]:
    """Register `name` at `address`, waiting for its confirmation; the observer and its code.

    An observer not yet confirmed may OBSERVE again from its address (a new code, the new
    password), and any address may take a name whose confirmation time ran out."""
    game = st.game
    if not OBSERVER_NAME.match(name):
        raise CommandError(
            f"{name!r} cannot be an observer's name: 2 to 20 letters, digits, _ or -, starting with a letter"
        )
    if reserved_name(st, name, judge_name):
        raise CommandError(
            f"{name} cannot be an observer's name in {game.name} (it reads as a power or a role)"
        )
    if any(s.kind is SeatKind.INVESTOR and s.investor_name == name for s in game.seats):
        raise CommandError(f"{name} is already taken in {game.name}")
    obs = repo.observer(st.session, game, name)
    pending_since = now - CONFIRM_WITHIN
    if obs is not None:
        if obs.confirmed_at is not None:
            raise CommandError(f"{name} already observes {game.name}")
        if obs.joined_at >= pending_since and obs.address.lower() != address.lower():
            raise CommandError(f"{name} is already taken in {game.name}")
    elif limit and repo.observer_places_taken(st.session, game, pending_since) >= limit:
        raise CommandError(f"{game.name} has {limit} observers, the most this judge allows")
    if obs is None:
        obs = Observer(game_id=game.id, name=name)
        st.session.add(obs)
    obs.address = address
    obs.password = hash_password(password)
    obs.joined_at = now
    return obs, observer_code(st, obs)


def confirm_observer(st: GameState, *, name: str, address: str, code: str, now: datetime) -> Observer:
    """The answer to the mailed code, from the address it was mailed to."""
    obs = repo.observer(st.session, st.game, name)
    game = st.game.name
    if obs is None or obs.address.lower() != address.lower():
        raise CommandError(f"no observer {name} of {game} waits for a confirmation from {address}")
    if obs.confirmed_at is not None:
        raise CommandError(f"{name} already observes {game}")
    if obs.joined_at < now - CONFIRM_WITHIN:
        raise CommandError(f"the code for {name} has expired: send OBSERVE {name.lower()}@{game} again")
    if not hmac.compare_digest(code.strip().lower(), observer_code(st, obs)):
        raise CommandError(f"that is not the code mailed for {name} in {game}")
    obs.confirmed_at = now
    return obs


def check_confirmed(obs: Observer) -> None:
    """An observer that has not confirmed its address is not accepted (SIGNON)."""
    if obs.confirmed_at is None:
        raise CommandError(
            f"{obs.name} has not confirmed its address yet: send the CONFIRM line the judge "
            f"mailed to {obs.address} from that address"
        )
