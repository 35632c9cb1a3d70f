"""Master commands (after SIGNON M<game>)."""

from __future__ import annotations

from typing import Any

from ..game import master_seats
from ..game.blind import set_omniscient
from ..game.context import CommandError, GameContext, MasterContext, SignedContext
from ..game.control import give_control, may_act_for, take_control
from ..game.exchange import ceo_of
from ..game.game_start import begin
from ..game.notes.master import (
    ActingFor,
    DeadlineMoved,
    OmniscientChanged,
    Previewed,
    Processed,
    RolledBack,
    SeatChanged,
    StateChanged,
    TimingChanged,
)
from ..game.notify import broadcast, power_address, public_recipients
from ..game.phases import preview_phase, process_phase, rollback, terminate
from ..game.timing import Timing, TimingError, show_time
from ..game.turns import late_powers
from ..payola.exchange.accounts import account_label, is_investor
from ..rules.flags import Flag
from ..text.commands import Command
from ..vocabulary import GameStatus, SeatStatus
from .base import MasterHandler, SignedHandler, found, register, require, sub_args
from .player import parse_when


def _running(ctx: GameContext) -> None:
    require(
        ctx.game.state.is_running and ctx.state.turn is not None,
        f"{ctx.game.name} is {ctx.game.state}: there is no phase to process",
    )


class _Process(MasterHandler):
    force = False

    def run(self, ctx: MasterContext, cmd: Command) -> None:
        _running(ctx)
        late = late_powers(ctx.state)
        if late and not self.force:
            raise CommandError(
                "not every power has its orders in ("
                + ", ".join(map(account_label, late))  # an investor by its name
                + "); use PROCESS! to process with civil-disorder defaults"
            )
        phase = ctx.turn.phase
        process_phase(ctx.state, ctx.mailer, ctx.now)
        ctx.reply.result(
            cmd.line, Processed(phase=phase, next=ctx.game.phase, late=late, state=ctx.game.state)
        )


@register
class Process(_Process):
    keyword = "PROCESS"
    syntax = "PROCESS"
    summary = "process the current phase now, if every power has its orders in"


@register
class ProcessNow(_Process):
    keyword = "PROCESS!"
    syntax = "PROCESS!"
    summary = "process now; late powers get civil-disorder defaults"
    force = True


@register
class Preview(MasterHandler):
    keyword = "PREVIEW"
    syntax = "PREVIEW"
    summary = "mail the would-be results to the Master only; nothing changes"

    def run(self, ctx: MasterContext, cmd: Command) -> None:
        _running(ctx)
        preview_phase(ctx.state, ctx.mailer)
        ctx.reply.result(cmd.line, Previewed(phase=ctx.turn.phase))


@register
class Rollback(MasterHandler):
    keyword = "ROLLBACK"
    syntax = "ROLLBACK [<phase>] [RESTORE]"
    summary = "return to the start of the current or the named phase, money included"

    def run(self, ctx: MasterContext, cmd: Command) -> None:
        require(ctx.state.turn is not None, "the game has not started")
        args = [a.upper() for a in cmd.args]
        restore = "RESTORE" in args
        args = [a for a in args if a != "RESTORE"]
        target = " ".join(args) or None
        turn = rollback(ctx.state, ctx.mailer, ctx.now, target, restore)
        ctx.reply.result(cmd.line, RolledBack(phase=turn.phase, restore=restore))


@register
class SetDeadline(SignedHandler):
    keyword = "SET DEADLINE"
    syntax = "SET DEADLINE <date and time>"
    summary = (
        "change the deadline of the current phase (e.g. SET DEADLINE 2026-12-24 18:00); "
        "under PLAYER_DEADLINES a player may extend it"
    )

    def run(self, ctx: SignedContext, cmd: Command) -> None:
        master = ctx.message.is_master
        require(
            master or (Flag.PLAYER_DEADLINES in ctx.state.rules and not ctx.observer),
            "SET DEADLINE is for the Master only (players may extend the deadline only "
            "under PLAYER_DEADLINES)",
        )
        _running(ctx)
        game = ctx.game
        timing = Timing.from_json(game.timing)
        when = parse_when(" ".join(sub_args(cmd)), timing.zone, ctx.now)
        require(when > ctx.now, "that time has already passed")
        require(
            master or game.deadline is None or when > game.deadline,
            "only the Master may shorten the deadline: a player may only extend it",
        )
        game.deadline = when
        game.reminded = []
        game.late_noticed_at = None
        shown = show_time(when, timing.zone)
        ctx.reply.result(cmd.line, DeadlineMoved(deadline=shown))
        subject = f"Diplomacy deadline changed {game.name}"
        if master:
            broadcast(ctx.state, ctx.mailer, subject, "deadline.txt.j2", deadline=shown, phase=game.phase)
            return
        # a player extended it: HIDE_EXTENDERS tells only the Master who
        view: dict[str, Any] = {
            "kind": "notice",
            "game": game,
            "game_name": game.name,
            "deadline": shown,
            "phase": game.phase,
        }
        others = [a for a in public_recipients(ctx.state) if a != game.master_address]
        extender = None if Flag.HIDE_EXTENDERS in ctx.state.rules else ctx.actor
        ctx.mailer.send([game.master_address], subject, "deadline.txt.j2", extender=ctx.actor, **view)
        ctx.mailer.send(others, subject, "deadline.txt.j2", extender=extender or "A player", **view)


@register
class SetTiming(MasterHandler):
    keyword = "SET TIMING"
    syntax = "SET TIMING <timing>"
    summary = "change the game's TIMING (used from the next deadline on)"

    def run(self, ctx: MasterContext, cmd: Command) -> None:
        try:
            timing = Timing.parse(" ".join(sub_args(cmd)))
        except TimingError as exc:
            raise CommandError(str(exc)) from None
        ctx.game.timing = timing.to_json()
        ctx.reply.result(cmd.line, TimingChanged(timing=timing.describe()))


@register
class Activate(MasterHandler):
    keyword = "ACTIVATE"
    syntax = "ACTIVATE"
    summary = "start a forming game (open seats become dummies), or resume a paused one"

    def run(self, ctx: MasterContext, cmd: Command) -> None:
        game = ctx.game
        if game.state is GameStatus.FORMING:
            require(any(s.status is SeatStatus.PLAYING for s in game.seats), "nobody has joined yet")
            begin(ctx.state, ctx.mailer, ctx.reply, ctx.now)
        elif game.state in (GameStatus.PAUSED, GameStatus.WAITING):
            game.state = GameStatus.ACTIVE
            timing = Timing.from_json(game.timing)
            if Flag.NO_DEADLINE in ctx.state.rules:
                game.deadline = None
            elif game.deadline is None or game.deadline <= ctx.now:
                game.deadline = timing.deadline(ctx.position.phase.type, ctx.now)
            shown = show_time(game.deadline, timing.zone)
            ctx.reply.result(cmd.line, StateChanged(state=GameStatus.ACTIVE, deadline=shown))
            broadcast(
                ctx.state,
                ctx.mailer,
                f"Diplomacy game {game.name} resumed",
                "state.txt.j2",
                state=GameStatus.ACTIVE,
                deadline=show_time(game.deadline, timing.zone),
            )
        else:
            raise CommandError(f"{game.name} is {game.state}: it cannot be activated")


@register
class Pause(MasterHandler):
    keyword = "PAUSE"
    syntax = "PAUSE"
    summary = "stop the clock: no deadline passes until ACTIVATE"

    def run(self, ctx: MasterContext, cmd: Command) -> None:
        require(ctx.game.state is GameStatus.ACTIVE, f"{ctx.game.name} is {ctx.game.state}")
        ctx.game.state = GameStatus.PAUSED
        ctx.reply.result(cmd.line, StateChanged(state=GameStatus.PAUSED, deadline=None))
        broadcast(
            ctx.state,
            ctx.mailer,
            f"Diplomacy game {ctx.game.name} paused",
            "state.txt.j2",
            state=GameStatus.PAUSED,
            deadline=None,
        )


@register
class Terminate(MasterHandler):
    keyword = "TERMINATE"
    syntax = "TERMINATE"
    summary = "end the game now, without a result; everything secret is published"

    def run(self, ctx: MasterContext, cmd: Command) -> None:
        require(not ctx.game.state.is_over, f"{ctx.game.name} is already over")
        terminate(ctx.state, ctx.mailer, ctx.now)
        ctx.reply.result(cmd.line, StateChanged(state=GameStatus.TERMINATED, deadline=None))


class _SeatChange(MasterHandler):
    """DUMMY, REVIVE and EJECT: one power named, one change of its seat by `master_seats`."""

    def change(self, ctx: MasterContext, power: str) -> master_seats.SeatChanged:
        raise NotImplementedError

    def run(self, ctx: MasterContext, cmd: Command) -> None:
        require(len(cmd.args) == 1, f"write {self.syntax}")
        changed = self.change(ctx, cmd.args[0])
        ctx.reply.result(cmd.line, SeatChanged(power=changed.power, status=changed.status))


@register
class Dummy(_SeatChange):
    keyword = "DUMMY"
    syntax = "DUMMY <power>"
    summary = "make a power unplayed (a dummy; rule 4.4)"

    def change(self, ctx: MasterContext, power: str) -> master_seats.SeatChanged:
        return master_seats.dummy(ctx.state, ctx.mailer, power)


@register
class Revive(_SeatChange):
    keyword = "REVIVE"
    syntax = "REVIVE <power>"
    summary = "open a dummy power for a new player, who joins it with TAKEOVER"

    def change(self, ctx: MasterContext, power: str) -> master_seats.SeatChanged:
        return master_seats.revive(ctx.state, ctx.mailer, power)


@register
class Eject(_SeatChange):
    keyword = "EJECT"
    syntax = "EJECT <power>"
    summary = "remove a power's player; the power is open for TAKEOVER"

    def change(self, ctx: MasterContext, power: str) -> master_seats.SeatChanged:
        return master_seats.eject(ctx.state, ctx.mailer, power, now=ctx.now)


@register
class For(SignedHandler):
    keyword = "FOR"
    syntax = "FOR <power>"
    summary = "the player commands below act for that power (the Master: any; a player: one it controls)"
    exchange = (
        (
            "FOR <company>  or  FOR ME",
            "a CEO: the commands below act for its company (orders, sheet, DIVIDEND, WORTH, its own shares);"
            " FOR ME: for yourself",
        ),
    )

    def run(self, ctx: SignedContext, cmd: Command) -> None:
        require(len(cmd.args) == 1, "write FOR <power>")
        investing = is_investor(ctx.actor)
        if investing and cmd.args[0].upper() == "ME":
            ctx.message.acting_for = None
            ctx.reply.result(cmd.line, ActingFor(power=None))
            return
        p = found(ctx.state.map.power(cmd.args[0]), f"there is no power {cmd.args[0]}")
        if not ctx.message.is_master:
            require(not ctx.observer, "an observer acts for no power")
            ceo = ceo_of(ctx.state, p.name) if investing else None
            require(
                may_act_for(ctx.state, ctx.actor, p.name),
                (f"you are not the CEO of {p.name} (its CEO is {ceo})" if ceo else f"{p.name} has no CEO")
                if investing
                else f"{ctx.actor} does not control {p.name} (the Master gives control with CONTROL)",
            )
            ctx.message.acting_for = p.name
            ctx.reply.result(cmd.line, ActingFor(power=p.name))
            return
        ctx.message.acting_for = p.name
        ctx.reply.result(cmd.line, ActingFor(power=p.name))
        # the power's player sees what the Master did for it (email.md: the reply goes to
        # the power's registered address too), or, for a controlled power, its controller
        to = power_address(ctx.state, p.name)
        ctx.reply.acting_for.append((cmd.line, p.name, to[0] if to else None))


@register
class Control(MasterHandler):
    keyword = "CONTROL"
    syntax = "CONTROL <power> BY <power>"
    summary = "give a power nobody plays to another power's player, who orders for it with FOR"

    def run(self, ctx: MasterContext, cmd: Command) -> None:
        args = [a.upper() for a in cmd.args]
        require(len(args) == 3 and args[1] == "BY", "write CONTROL <power> BY <power>")
        power = found(ctx.state.map.power(args[0]), f"there is no power {args[0]}")
        by = found(ctx.state.map.power(args[2]), f"there is no power {args[2]}")
        ctx.reply.result(cmd.line, give_control(ctx.state, ctx.mailer, power.name, by.name))


@register
class Uncontrol(MasterHandler):
    keyword = "UNCONTROL"
    syntax = "UNCONTROL <power>"
    summary = "take a controlled power back from its controller (it is a plain dummy again)"

    def run(self, ctx: MasterContext, cmd: Command) -> None:
        require(len(cmd.args) == 1, "write UNCONTROL <power>")
        power = found(ctx.state.map.power(cmd.args[0]), f"there is no power {cmd.args[0]}")
        ctx.reply.result(cmd.line, take_control(ctx.state, ctx.mailer, power.name))


@register
class Omniscient(MasterHandler):
    keyword = "OMNISCIENT"
    syntax = "OMNISCIENT <observer> [OFF]"
    summary = "BLIND: the observer gets every power's results, as the Master does (OFF: no longer)"

    def run(self, ctx: MasterContext, cmd: Command) -> None:
        require(len(cmd.args) in (1, 2), f"write {self.syntax}")
        on = len(cmd.args) == 1
        require(on or cmd.args[1].upper() == "OFF", f"write {self.syntax}")
        try:
            name = set_omniscient(
                ctx.game, ctx.state.rules.flags, [o.name for o in ctx.state.observers()], cmd.args[0], on
            )
        except ValueError as e:
            raise CommandError(str(e)) from e
        ctx.reply.result(cmd.line, OmniscientChanged(observer=name, on=on))
