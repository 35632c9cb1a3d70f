"""Loading a game's domain state from the store: map, rules, current phase, seats."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..payola.rules import PayolaRules
from ..rules.geography import Map
from ..rules.mapfile import load_variant
from ..rules.position import Position
from ..rules.serial import position_from_json
from ..store.models import Acceptance, Game, Observer, Seat, Submission, Turn

MASTER = "MASTER"
ACTIVE_STATES = ("active",)
OPEN_STATES = ("forming", "active", "paused", "waiting")


def payola_rules(game: Game) -> PayolaRules:
    """The game's Payola rules: its flags and its TAX/CAP settings."""
    settings = game.settings or {}
    return PayolaRules.from_flags(game.rules, tax=settings.get("tax"),
                                  center_taxes=settings.get("center_tax"), cap=settings.get("cap"))


def find_game(s: Session, name: str, *, lock: bool = False) -> Game | None:
    q = select(Game).where(Game.name == name.lower())
    if lock:
        q = q.with_for_update()
    return s.scalar(q)


def current_turn(s: Session, game: Game) -> Turn | None:
    return s.scalar(select(Turn).where(Turn.game_id == game.id, Turn.status == "open")
                    .order_by(Turn.seq.desc()).limit(1))


def turns(s: Session, game: Game, *, include_rolled_back: bool = False) -> list[Turn]:
    q = select(Turn).where(Turn.game_id == game.id)
    if not include_rolled_back:
        q = q.where(Turn.status != "rolled_back")
    return list(s.scalars(q.order_by(Turn.seq)))


@dataclass
class GameState:
    """A game with the domain values derived from its rows (one transaction's view)."""

    session: Session
    game: Game

    @cached_property
    def map(self) -> Map:
        return load_variant(self.game.map_name)

    @cached_property
    def rules(self) -> PayolaRules:
        return payola_rules(self.game)

    @cached_property
    def turn(self) -> Turn | None:
        return current_turn(self.session, self.game)

    @cached_property
    def position(self) -> Position | None:
        turn = self.turn
        return position_from_json(self.map, turn.position) if turn else None

    def seat(self, power: str) -> Seat | None:
        for seat in self.game.seats:
            if seat.power == power:
                return seat
        return None

    @property
    def seats(self) -> list[Seat]:
        return list(self.game.seats)

    def observers(self) -> list[Observer]:
        return list(self.session.scalars(select(Observer).where(Observer.game_id == self.game.id)))

    def dummies(self) -> frozenset[str]:
        """Powers nobody plays (rule 4.4): dummies, and resigned seats not yet taken over."""
        return frozenset(s.power for s in self.game.seats
                         if s.power and s.status in ("dummy", "resigned"))

    def acceptance_text(self, power: str) -> str | None:
        row = self.session.scalar(select(Acceptance).where(
            Acceptance.game_id == self.game.id, Acceptance.power == power)
            .order_by(Acceptance.id.desc()).limit(1))
        return row.text if row else None

    def submission(self, power: str) -> Submission | None:
        turn = self.turn
        if turn is None:
            return None
        return self.session.scalar(select(Submission).where(
            Submission.turn_id == turn.id, Submission.power == power, Submission.current.is_(True))
            .order_by(Submission.id.desc()).limit(1))

    def submissions(self) -> dict[str, Submission]:
        turn = self.turn
        if turn is None:
            return {}
        rows = self.session.scalars(select(Submission).where(
            Submission.turn_id == turn.id, Submission.current.is_(True)).order_by(Submission.id))
        return {r.power: r for r in rows}

    def player_addresses(self) -> list[str]:
        return [s.address for s in self.game.seats if s.address and s.status == "playing"]
