"""Loading a game's domain state from the store: map, rules, current phase, seats."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from ..payola.rules import IncomeEvery, IncomeScheme, PayolaRules
from ..rules.calendar import Calendar, calendar_of
from ..rules.geography import Map
from ..rules.mapfile import MapError, load_variant
from ..rules.names import PowerName
from ..rules.position import Position
from ..rules.serial import position_from_json
from ..store import Session, repo
from ..store.models import Game, Observer, Seat, Submission, Turn

MASTER = "MASTER"
CONTROL_KEY = "control"  # the key of a turn's position document that holds the control


def payola_rules(game: Game, game_map: Map | None = None) -> PayolaRules:
    """The game's Payola rules: its flags and its TAX/CAP settings. The `RULE` lines of the
    game's map (`game_map`) take effect as if the Master had named them."""
    settings = game.settings or {}
    names = [*(game_map.rule_flags() if game_map is not None else ()), *game.rules]
    return PayolaRules.from_flags(
        names,
        tax=settings.get("tax"),
        center_taxes=settings.get("center_tax"),
        cap=settings.get("cap"),
        income_every=settings.get("income", IncomeEvery.YEAR),
        scheme=settings.get("scheme", IncomeScheme.DECREASING),
    )


def phase_title(session: Session, game: Game, maps_dir: Path | None) -> str | None:
    """A game's phase as its map names it (A.D. 1430 Adjustments; LIST of games), None
    before it starts; by the stored name if its map is no longer installed."""
    if game.phase is None:
        return None
    try:
        return GameState(session, game, maps_dir).calendar.title(game.phase)
    except MapError:
        return game.phase.title


find_game = repo.game_by_name
find_observer = repo.observer
list_games = repo.games
current_turn = repo.current_turn
turns = repo.turns


@dataclass
class GameState:
    """A game with the domain values derived from its rows (one transaction's view)."""

    session: Session
    game: Game
    maps_dir: Path | None = None  # installed maps (config.maps_path), before the shipped ones

    @cached_property
    def map(self) -> Map:
        return load_variant(self.game.map_name, self.maps_dir)

    @cached_property
    def calendar(self) -> Calendar:
        """How the game's map names its phases and years (A.D. 1430 Adjustments)."""
        return calendar_of(self.map)

    @cached_property
    def rules(self) -> PayolaRules:
        return payola_rules(self.game, self.map)

    @cached_property
    def turn(self) -> Turn | None:
        return current_turn(self.session, self.game)

    @cached_property
    def position(self) -> Position | None:
        turn = self.turn
        return position_from_json(self.map, turn.position) if turn else None

    def seat(self, power: PowerName) -> Seat | None:
        """The seat of a power, or (Exchange Payola) of an investor's account `@NAME`."""
        investor = power[1:] if power.startswith("@") else None
        for seat in self.game.seats:
            if seat.power == power or (investor and seat.investor_name == investor):
                return seat
        return None

    @property
    def seats(self) -> list[Seat]:
        return list(self.game.seats)

    def observers(self) -> list[Observer]:
        return repo.observers(self.session, self.game)

    def unplayed(self) -> frozenset[PowerName]:
        """Powers without a player of their own (rule 4.4): dummies, and resigned seats not
        yet taken over, whether another power's player controls them or not."""
        return frozenset(s.power for s in self.game.seats if s.power and s.status.is_unplayed)

    def dummies(self) -> frozenset[PowerName]:
        """Powers nobody plays: the unplayed powers nobody controls. A controlled power
        (CONTROL, a vassal state) is played by its controller like any other power."""
        # (`difference`: `frozenset - dict.keys()` is a set at run time, whatever typeshed says)
        return self.unplayed().difference(self.control())

    def control(self) -> dict[PowerName, PowerName]:
        """Each controlled power's controller (the Master's CONTROL, VASSAL_DUMMIES): kept
        with each phase's position, so a rollback restores it."""
        turn = self.turn
        return dict(turn.position.get(CONTROL_KEY, {})) if turn is not None else {}

    def controlled_by(self, power: PowerName) -> list[PowerName]:
        """The powers `power`'s player controls, in the map's order."""
        control = self.control()
        return [p for p in self.map.power_names if control.get(p) == power]

    def market(self) -> dict[str, Any] | None:
        """Exchange Payola's market snapshot in force (CEOs, worths, last prices): the
        current turn's, or the last turn's that has one (docs/exchange.md, `turn.market`)."""
        for turn in reversed(repo.turns(self.session, self.game)):
            if turn.market:
                return dict(turn.market)
        return None

    def acceptance_text(self, power: PowerName) -> str | None:
        row = repo.latest_acceptance(self.session, self.game, power)
        return row.text if row else None

    def submission(self, power: PowerName) -> Submission | None:
        turn = self.turn
        if turn is None:
            return None
        return repo.current_submission(self.session, turn, power)

    def submissions(self) -> dict[PowerName, Submission]:
        turn = self.turn
        if turn is None:
            return {}
        return repo.current_submissions(self.session, turn)
