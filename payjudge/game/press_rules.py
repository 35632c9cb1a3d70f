"""The press rules of a game's flags, as a table of flag -> check (seed 003 §1.2).

`check_press` refuses a player's or an observer's press that the game's flags forbid; the
Master's press is never checked. What a rule looks at (broadcast or private, the sender's
power, who is late) is worked out once into a `PressCase`; each rule is one small function
of that case, and `RULES` says which flags make it apply and in which order the checks run
(the first refusal is the one reported).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..payola.rules import PayolaRules
from ..rules.flags import Flag
from ..rules.names import PowerName
from ..rules.position import Position
from ..rules.proximity import remote, touching
from ..vocabulary import GameStatus
from .context import CommandError, GameContext
from .state import MASTER
from .turns import has_orders, late_powers, required_powers


@dataclass(frozen=True)
class PressCase:
    """What the press rules look at, for one message."""

    ctx: GameContext
    game_name: str
    rules: PayolaRules
    sender: str
    me: PowerName | None  # the sender's power; None for an observer
    observer: bool
    broadcast: bool
    players: list[PowerName]  # the powers among the addressees (the Master left out)
    grey: bool
    faked: bool  # FAKE AS or CLAIM TO
    running: bool  # the game runs and has a position
    late: list[PowerName]  # the powers late with their orders, once the deadline has passed

    @property
    def private(self) -> bool:
        return not self.broadcast and bool(self.players)

    @property
    def to_players(self) -> bool:
        return self.broadcast or self.private

    @property
    def power(self) -> bool:
        return not self.observer

    @property
    def position(self) -> Position:
        pos = self.ctx.state.position
        assert pos is not None  # only asked while the game runs
        return pos


Check = Callable[[PressCase], None]


def _refuse(condition: bool, message: str) -> None:
    if condition:
        raise CommandError(message)


def _forming_or_over(case: PressCase) -> None:
    status = case.ctx.state.game.state
    _refuse(
        status in (GameStatus.FORMING, GameStatus.COMPLETED) and case.private,
        "before and after the game only broadcasts and press to the Master are allowed",
    )


def _no_press(case: PressCase) -> None:
    _refuse(case.to_players, f"{case.game_name} has no press between players (rule NO_PRESS)")


def _mute_observers(case: PressCase) -> None:
    _refuse(
        case.observer and case.to_players,
        f"in {case.game_name} observers may write only to the Master (rule MUTE_OBSERVERS)",
    )


def _backseat(case: PressCase) -> None:
    name = case.game_name
    _refuse(
        case.power and case.to_players, f"in {name} powers may write only to the Master (rule BACKSEAT_PRESS)"
    )
    _refuse(case.observer and case.private, f"in {name} observers may only broadcast (rule BACKSEAT_PRESS)")


def _public_only(case: PressCase) -> None:
    _refuse(case.private, f"{case.game_name} allows only broadcast press (rule PUBLIC_PRESS)")


def _near(flag: Flag, allowed: Callable[[Position, PowerName, PowerName], bool], what: str) -> Check:
    """TOUCH_PRESS and REMOTE_PRESS: private press only to the powers near (or far from)
    one's own, and broadcasts only beside PUBLIC_PRESS; a player's press in a running game."""

    def check(case: PressCase) -> None:
        if case.me is None or not case.running:
            return
        _refuse(
            case.broadcast and Flag.PUBLIC_PRESS not in case.rules,
            f"{case.game_name} allows no broadcasts (rule {flag.value} without PUBLIC_PRESS)",
        )
        for target in [] if case.broadcast else case.players:
            _refuse(
                not allowed(case.position, case.me, target), f"{target.title()} {what} (rule {flag.value})"
            )

    return check


def _face_to_face(case: PressCase) -> None:
    if not (case.power and case.running):
        return
    phase = case.ctx.state.game.phase
    assert phase is not None  # a running game with a position always has a phase
    name = case.game_name
    _refuse(
        case.to_players and not phase.is_movement,
        f"in {name} players may write to each other only in movement phases (rule FTF_PRESS)",
    )
    _refuse(
        case.private and bool(case.late),
        f"in {name} no private press once the deadline has passed (rule FTF_PRESS)",
    )


def _must_order(case: PressCase) -> None:
    if case.me is None or not case.running:
        return
    st = case.ctx.state
    _refuse(
        case.to_players and case.me in required_powers(st) and not has_orders(st, case.me),
        "send your orders for this phase before writing to players (rule MUST_ORDER)",
    )


def _late_send(case: PressCase) -> None:
    _refuse(
        case.power and case.private and case.sender in case.late,
        "your orders are late: until they are in you may write only to the Master or "
        "broadcast (rule LATE_SEND would allow it)",
    )


def _no_late_receive(case: PressCase) -> None:
    if not case.private:
        return
    for target in case.players:
        _refuse(
            target in case.late,
            f"{target.title()} is late with its orders and may not be "
            "sent private press (rule NO_LATE_RECEIVE)",
        )


def _grey(case: PressCase) -> None:
    _refuse(case.grey, f"{case.game_name} has no grey press (rule WHITE_GREY)")


def _fake(case: PressCase) -> None:
    _refuse(case.faked, f"{case.game_name} has no fake press (rule FAKE_PRESS)")


@dataclass(frozen=True)
class PressRule:
    """A check, and when it applies: the game has every flag of `when` and none of `unless`."""

    check: Check
    when: frozenset[Flag] = frozenset()
    unless: frozenset[Flag] = frozenset()

    def applies(self, rules: PayolaRules) -> bool:
        # `in rules`, not `rules.flags`: a flag every Payola game plays by counts too
        return all(f in rules for f in self.when) and not any(f in rules for f in self.unless)


RULES: tuple[PressRule, ...] = (
    PressRule(_forming_or_over),
    PressRule(_no_press, when=frozenset({Flag.NO_PRESS})),
    PressRule(_mute_observers, when=frozenset({Flag.MUTE_OBSERVERS})),
    PressRule(_backseat, when=frozenset({Flag.BACKSEAT_PRESS})),
    # beside TOUCH_PRESS or REMOTE_PRESS, PUBLIC_PRESS adds broadcasts to the private press
    # those rules allow (seed 003 §1.2); alone, it allows broadcasts only
    PressRule(
        _public_only,
        when=frozenset({Flag.PUBLIC_PRESS}),
        unless=frozenset({Flag.TOUCH_PRESS, Flag.REMOTE_PRESS}),
    ),
    PressRule(
        _near(Flag.TOUCH_PRESS, touching, "has no unit next to yours"), when=frozenset({Flag.TOUCH_PRESS})
    ),
    PressRule(
        _near(Flag.REMOTE_PRESS, remote, "is near your units or centres"), when=frozenset({Flag.REMOTE_PRESS})
    ),
    PressRule(_face_to_face, when=frozenset({Flag.FTF_PRESS})),
    PressRule(_must_order, when=frozenset({Flag.MUST_ORDER})),
    PressRule(_late_send, unless=frozenset({Flag.LATE_SEND})),
    PressRule(_no_late_receive, when=frozenset({Flag.NO_LATE_RECEIVE})),
    PressRule(_grey, unless=frozenset({Flag.WHITE_GREY, Flag.GREY_PRESS})),
    PressRule(_fake, unless=frozenset({Flag.FAKE_PRESS})),
)


def press_case(
    ctx: GameContext,
    sender: str,
    observer: bool,
    grey: bool,
    faked: bool,
    broadcast: bool,
    targets: list[str],
) -> PressCase:
    """The facts of one message that the rules look at."""
    st, game = ctx.state, ctx.state.game
    names: dict[str, PowerName] = {p: p for p in st.map.power_names}
    if not observer and sender not in names:
        # an Exchange investor: press between investors is not built yet (docs/exchange.md)
        raise CommandError("in an Exchange game press is not built yet: write to the others directly")
    running = game.state.is_running and st.position is not None
    overdue = running and game.deadline is not None and ctx.now > game.deadline
    return PressCase(
        ctx=ctx,
        game_name=game.name,
        rules=st.rules,
        sender=sender,
        me=None if observer else names[sender],
        observer=observer,
        broadcast=broadcast,
        players=[names[t] for t in targets if t != MASTER],
        grey=grey,
        faked=faked,
        running=running,
        late=late_powers(st) if overdue else [],
    )


def check_press(case: PressCase) -> None:
    """Refuse the press if a rule of the game forbids it: the first refusal in table order."""
    for rule in RULES:
        if rule.applies(case.rules):
            rule.check(case)
