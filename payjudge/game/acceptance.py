"""ACCEPT (rule 4): a power's acceptance list, kept until it sends another."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import ClassVar

from ..payola.acceptance import AcceptanceError, parse_acceptance
from ..rules.names import PowerName
from ..store.models import Acceptance
from .context import CommandError
from .state import GameState


@dataclass(frozen=True)
class Accepted:
    """`templates/notes/accepted.txt.j2`."""

    note: ClassVar[str] = "accepted"
    power: PowerName
    text: str  # the list as the judge reads it (`FEG?`)


def set_acceptance(st: GameState, *, power: PowerName, written: str, now: datetime) -> Accepted:
    game = st.game
    try:
        acc = parse_acceptance(written, st.map, power, complete=False)
    except AcceptanceError as exc:
        raise CommandError(str(exc)) from None
    text = acc.text(st.map)
    st.session.add(Acceptance(game_id=game.id, power=power, text=text, set_at=now))
    return Accepted(power, text)
