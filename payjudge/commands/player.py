"""Player commands (after SIGNON): acceptance lists, transfers, account, press, settings, votes."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, ClassVar

from ..game import money, proposals
from ..game.acceptance import set_acceptance
from ..game.after import AfterStep
from ..game.context import CommandError, GameContext, PlayerContext, SignedContext
from ..game.exchange import holdings as exchange_holdings
from ..game.exchange import vote_ceo
from ..game.mailer import is_mail_address
from ..game.notes.master import DeadlineMoved
from ..game.notes.player import (
    AbsenceSet,
    AddressSet,
    BalanceReport,
    LedgerRow,
    MapSet,
    PasswordChanged,
    PressSent,
    ProposalAnswered,
    Proposed,
    VoteRecorded,
    WaitSet,
)
from ..game.notify import public_recipients
from ..game.orders import clear
from ..game.pictures import set_map, shared_pictures
from ..game.press import read_press, send_press
from ..game.security import MIN_LENGTH, hash_password
from ..game.state import MASTER
from ..game.timing import Timing, show_time
from ..game.transfer import transfer
from ..game.turns import wait_refused
from ..payola.exchange.accounts import account_label, investor_name, is_investor
from ..rules.flags import Flag
from ..rules.names import PowerName
from ..text import votes
from ..text.commands import Command
from ..text.numbers import MAX_NUMBER, is_digits, whole_number
from ..text.problems import LineError
from ..text.votes import MAX_DRAW, VoteKind, draw_size
from ..vocabulary import LedgerKind
from .base import PlayerHandler, SignedHandler, found, register, require, sub_args
from .orders import copy_to_master


def _number(text: str, maximum: int = MAX_NUMBER, *, what: str) -> int:
    try:
        return whole_number(text, maximum, what=what)
    except LineError as exc:
        raise CommandError(exc.message) from None


def _active(ctx: GameContext) -> None:
    require(ctx.game.state.is_running, f"{ctx.game.name} is {ctx.game.state}: nothing can be ordered now")


@register
class Clear(PlayerHandler):
    keyword = "CLEAR"
    syntax = "CLEAR"
    summary = "empty your offer sheet (or your orders) for this phase"

    def run(self, ctx: PlayerContext, cmd: Command) -> None:
        ctx.reply.result(
            cmd.line, clear(ctx.state, power=ctx.power, now=ctx.now, by_master=ctx.message.is_master)
        )
        copy_to_master(ctx, [cmd.line])


@register
class Accept(PlayerHandler):
    keyword = "ACCEPT"
    syntax = "ACCEPT <initials>"
    summary = (
        "your acceptance list (rule 4), e.g. ACCEPT FEG?: every power, yourself included,"
        " or one ? for the others"
    )

    def run(self, ctx: PlayerContext, cmd: Command) -> None:
        require(not ctx.game.state.is_over, f"{ctx.game.name} is over")
        require(len(cmd.args) >= 1, "write ACCEPT followed by power initials, e.g. ACCEPT FEG?")
        require(not is_investor(ctx.power), "write FOR <company> first: ACCEPT acts for a company you run")
        # a power without an initial is written by name, apart: ACCEPT B _INDIA ?
        ctx.reply.result(
            cmd.line, set_acceptance(ctx.state, power=ctx.power, written=" ".join(cmd.args), now=ctx.now)
        )


@register
class Transfer(PlayerHandler):
    keyword = "TRANSFER"
    syntax = "TRANSFER <amount> TO <power>"
    summary = "move money to another power's account at once (rule 2.3)"
    exchange = (
        (
            "TRANSFER <amount> TO <company>|<investor>",
            "pay a company or an investor at once (a CEO after FOR <company>: to companies only)",
        ),
    )

    def run(self, ctx: PlayerContext, cmd: Command) -> None:
        _active(ctx)
        args = [a.upper() for a in cmd.args]
        shaped = len(args) == 3 and args[1] == "TO"
        require(
            not (shaped and args[0].startswith("-") and is_digits(args[0][1:])),
            "the amount must be a whole number of AgP, at least 1",
        )
        require(
            shaped and is_digits(args[0]),
            "write TRANSFER <amount> TO <power>, e.g. TRANSFER 10 TO ENGLAND",
        )
        amount = _number(args[0], what="the amount")
        ctx.reply.result(
            cmd.line, transfer(ctx.state, ctx.mailer, power=ctx.power, to=args[2], amount=amount, now=ctx.now)
        )


@register
class Balance(PlayerHandler):
    keyword = "BALANCE"
    syntax = "BALANCE"
    summary = "your account: balance, the offer sheet on record, your acceptance list"
    exchange: ClassVar[tuple[tuple[str, str], ...]] = (
        ("BALANCE", "your cash, your shares, your orders on record and your account's activity"),
    )

    def run(self, ctx: PlayerContext, cmd: Command) -> None:
        # reported after the whole message, so it shows the sheet this message sends
        ctx.then(AfterStep.report_account(cmd.line, ctx.power))

    @staticmethod
    def report(ctx: GameContext, line: int | None, power: PowerName) -> None:
        """The step REPORT_ACCOUNT (`service/steps.py`)."""
        st = ctx.state
        sub = st.submission(power)
        entries = money.entries(ctx.session, ctx.game, power)
        own = st.map.power(power)
        # a player's power is one of the map's powers, or an Exchange investor's account
        assert own is not None or is_investor(power)
        result = BalanceReport(
            power=investor_name(power) if own is None else power,
            balance=sum(e.amount for e in entries),
            sheet=sub.text if sub else None,
            phase=ctx.game.phase,
            movement=bool(ctx.game.phase and ctx.game.phase.is_movement),
            accept=None if own is None else st.acceptance_text(power) or f"{own.initial}?",
            # Exchange Payola: the shares an investor holds, or a company's pool
            shares=exchange_holdings(st, power) if Flag.EXCHANGE in st.rules else {},
            entries=[
                LedgerRow(
                    phase=e.phase,
                    kind=e.kind,
                    amount=e.amount,
                    counterparty=(
                        None
                        if e.kind is LedgerKind.TRANSFER_IN and Flag.ANON_TRANSFER in st.rules
                        else account_label(e.counterparty)
                        if e.counterparty
                        else None
                    ),
                )
                for e in entries[-12:]
            ],
        )
        ctx.reply.result(line, result)


@register
class Status(Balance):
    keyword = "STATUS"
    exchange = ()  # BALANCE's, said once
    syntax = "STATUS"
    summary = "the same as BALANCE"


class _Press(SignedHandler):
    def run(self, ctx: SignedContext, cmd: Command) -> None:
        body = [text for _, text in cmd.body]
        while body and not body[-1].strip():
            body.pop()
        require(any(line.strip() for line in body), f"{cmd.keyword} has no text (end it with ENDPRESS)")
        request = read_press(cmd.keyword, list(cmd.args))
        sender = ctx.actor
        sent_to = send_press(
            ctx,
            sender=sender if sender != MASTER or ctx.acting_for is None else MASTER,
            request=request,
            body="\n".join(body),
            observer=ctx.observer,
        )
        ctx.reply.result(cmd.line, PressSent(to=sent_to, broadcast=request.recipients is None))


@register
class Press(_Press):
    keyword = "PRESS"
    syntax = "PRESS TO <powers> [GREY] [FAKE AS <power>] [CLAIM TO <powers>] … ENDPRESS"
    summary = "a message to some powers, as the game's press rules allow"


@register
class Broadcast(_Press):
    keyword = "BROADCAST"
    syntax = "BROADCAST [GREY] [FAKE AS <power>] [CLAIM TO <powers>] … ENDPRESS"
    summary = "a message to every player and observer"


@register
class SetWait(PlayerHandler):
    keyword = "SET WAIT"
    syntax = "SET WAIT"
    summary = "wait for this phase's deadline even if every power is ready (this phase only)"
    wait = True

    def run(self, ctx: PlayerContext, cmd: Command) -> None:
        _active(ctx)
        if self.wait:
            refused = wait_refused(ctx.state)
            require(refused is None, refused or "")
        ctx.seat.wait = self.wait
        ctx.reply.result(cmd.line, WaitSet(wait=self.wait, phase=ctx.position.phase.title))


@register
class SetNoWait(SetWait):
    keyword = "SET NOWAIT"
    syntax = "SET NOWAIT"
    summary = "let the phase be processed as soon as every power is ready"
    wait = False


def parse_when(text: str, zone: str, now: datetime) -> datetime:
    """`2026-12-24 18:00`, `2026-12-24` (midnight), `24 DEC 18:00`, in the game's zone."""
    from zoneinfo import ZoneInfo

    words = text.upper().split()
    tz = ZoneInfo(zone)
    local_now = now.astimezone(tz)
    formats = ["%Y-%m-%d %H:%M", "%Y-%m-%d", "%d %b %Y %H:%M", "%d %b %Y", "%d %b %H:%M", "%d %b"]
    for fmt in formats:
        try:
            parsed = datetime.strptime(" ".join(words), fmt).replace(tzinfo=tz)
        except ValueError:
            continue
        if "%Y" not in fmt:
            parsed = parsed.replace(year=local_now.year)
            if parsed < local_now - timedelta(days=1):
                parsed = parsed.replace(year=local_now.year + 1)
        return parsed
    raise CommandError(f"not a date: {text!r} (write e.g. 2026-12-24 18:00 or 24 DEC 18:00)")


@register
class SetAbsence(PlayerHandler):
    keyword = "SET ABSENCE"
    syntax = "SET ABSENCE <from> TO <to>"
    summary = "a period (at most 14 days) in which no deadline may fall"

    def run(self, ctx: PlayerContext, cmd: Command) -> None:
        require(Flag.NO_ABSENCES not in ctx.state.rules, f"{ctx.game.name} does not allow absences")
        text = " ".join(sub_args(cmd))
        start_text, sep, end_text = text.upper().partition(" TO ")
        require(bool(sep), "write SET ABSENCE <from> TO <to>, e.g. SET ABSENCE 2026-12-24 TO 2026-12-27")
        zone = Timing.from_json(ctx.game.timing).zone
        start = parse_when(start_text, zone, ctx.now)
        end = parse_when(end_text, zone, ctx.now)
        require(end > start, "the absence must end after it starts")
        require(end - start <= timedelta(days=14), "an absence may last at most 14 days")
        require(end > ctx.now, "that absence is already over")
        seat = ctx.seat
        seat.absences = [*seat.absences, [start.isoformat(), end.isoformat()]]
        ctx.reply.result(cmd.line, AbsenceSet(start=show_time(start, zone), end=show_time(end, zone)))
        deadline = ctx.game.deadline
        shown = None
        if deadline is not None and start <= deadline < end:
            # the current deadline falls in the absence: it moves to the absence's end
            ctx.game.deadline = end
            ctx.game.reminded = []
            shown = show_time(end, zone)
            ctx.reply.result(cmd.line, DeadlineMoved(deadline=shown))
        _announce_absence(ctx, start=show_time(start, zone), end=show_time(end, zone), deadline=shown)


def _announce_absence(ctx: PlayerContext, *, start: str, end: str, deadline: str | None) -> None:
    """Everyone is told of an absence and of who asked for it (as DPjudge does);
    HIDE_ABSENTEES leaves out who, SILENT_ABSENCES tells only the Master (the others learn
    just that the deadline moved). The Master always learns who."""
    game, rules = ctx.game, ctx.state.rules
    subject = f"Diplomacy absence {game.name}"
    view: dict[str, Any] = {
        "kind": "notice",
        "game": game,
        "game_name": game.name,
        "start": start,
        "end": end,
        "deadline": deadline,
        "phase": game.phase,
    }
    master = [game.master_address]
    others = [a for a in public_recipients(ctx.state) if a not in master]
    ctx.mailer.send(master, subject, "absence.txt.j2", power=ctx.power, **view)
    if Flag.SILENT_ABSENCES in rules:
        if deadline is not None:
            ctx.mailer.send(
                others, f"Diplomacy deadline changed {game.name}", "deadline.txt.j2", moved=True, **view
            )
        return
    hidden = Flag.HIDE_ABSENTEES in rules
    ctx.mailer.send(others, subject, "absence.txt.j2", power=None if hidden else ctx.power, **view)


@register
class SetAddress(PlayerHandler):
    keyword = "SET ADDRESS"
    syntax = "SET ADDRESS <address>"
    summary = "where the judge sends your power's mail"

    def run(self, ctx: PlayerContext, cmd: Command) -> None:
        args = sub_args(cmd)
        require(len(args) <= 1, "write SET ADDRESS followed by one mail address")
        address = args[0].lower() if args else ctx.sender
        require(
            is_mail_address(address),
            f"{address!r} is not one mail address (write e.g. SET ADDRESS name@example.org)",
        )
        seat = ctx.seat
        old = seat.address
        seat.address = address
        if old and old != address:
            ctx.reply.extra_recipients.append(old)
        ctx.reply.extra_recipients.append(address)
        ctx.reply.result(cmd.line, AddressSet(address=address))


@register
class SetMap(PlayerHandler):
    keyword = "SET MAP"
    syntax = "SET MAP ON|OFF"
    summary = "whether your results mail carries the map picture of the phase (ON by default)"

    def run(self, ctx: PlayerContext, cmd: Command) -> None:
        args = [a.upper() for a in sub_args(cmd)]
        require(args in (["ON"], ["OFF"]), "write SET MAP ON or SET MAP OFF")
        set_map(ctx.game, ctx.power, args == ["ON"])
        ctx.reply.result(cmd.line, MapSet(on=args == ["ON"], shared=shared_pictures(ctx.game)))


@register
class SetPassword(PlayerHandler):
    keyword = "SET PASSWORD"
    syntax = "SET PASSWORD <new password>"
    summary = "change your power's password (it is never shown back)"
    secret_args = (0,)

    def echo(self, cmd: Command) -> str:
        return "SET PASSWORD ********"

    def run(self, ctx: PlayerContext, cmd: Command) -> None:
        args = sub_args(cmd)
        require(
            len(args) == 1 and len(args[0]) >= MIN_LENGTH,
            f"write SET PASSWORD <new password> (one word, at least {MIN_LENGTH} characters)",
        )
        ctx.seat.password = hash_password(args[0])
        ctx.reply.result(cmd.line, PasswordChanged())


def _investor_vote(ctx: PlayerContext, cmd: Command) -> None:
    """An Exchange game's VOTE: investors vote for CEOs (VOTE CEO) and on ending the game
    (VOTE END, VOTE CONTINUE); draws and concessions do not exist."""
    word = cmd.args[0].upper()
    require(
        word in ("CEO", "END", "CONTINUE"),
        "in an Exchange game investors vote VOTE END or VOTE CONTINUE, or VOTE CEO <company> <investor>",
    )
    require(is_investor(ctx.power), "write FOR ME first: a company does not vote, its stockholders do")
    if word != "CEO":
        require(len(cmd.args) == 1, f"write VOTE {word}")
        ctx.seat.vote = votes.Vote(VoteKind.END) if word == "END" else None
        ctx.reply.result(cmd.line, VoteRecorded(vote=word))
        ctx.then(AfterStep.settle_votes(cmd.line))
        return
    ctx.reply.result(cmd.line, vote_ceo(ctx.state, investor_name(ctx.power), cmd.text, now=ctx.now))


@register
class Vote(PlayerHandler):
    keyword = "VOTE"
    syntax = "VOTE DRAW | SOLO | CONCEDE <power> | <n>WAY | YES | NO"
    summary = "your standing vote on ending the game"
    exchange = (
        (
            "VOTE CEO <company> <investor>|NONE",
            "your standing vote for a company's CEO, counted at each exchange phase with your shares",
        ),
        (
            "VOTE END | CONTINUE",
            "your standing vote on ending the game: it ends when every investor votes END",
        ),
    )

    def run(self, ctx: PlayerContext, cmd: Command) -> None:
        _active(ctx)
        args = [a.upper() for a in cmd.args]
        require(len(args) >= 1, VOTE_USAGE)
        if Flag.EXCHANGE in ctx.state.rules:
            _investor_vote(ctx, cmd)
            return
        if args[0] in ("YES", "NO"):
            require(len(args) == 1, "write VOTE YES or VOTE NO")
            what = proposals.answer(ctx.state, ctx.mailer, ctx.seat, args[0] == "YES")
            ctx.reply.result(cmd.line, ProposalAnswered(what=what, yes=args[0] == "YES"))
            ctx.then(AfterStep.settle_votes(cmd.line))
            return
        require(
            Flag.PROPOSE_DIAS not in ctx.state.rules,
            f"{ctx.game.name} uses the rule PROPOSE_DIAS: write PROPOSE DRAW or "
            "PROPOSE CONCEDE <power>, and answer a proposal with VOTE YES or VOTE NO",
        )
        vote = _standing_vote(ctx, args)
        ctx.seat.vote = vote
        ctx.reply.result(cmd.line, VoteRecorded(vote=str(vote)))
        ctx.then(AfterStep.settle_votes(cmd.line))


VOTE_USAGE = "write VOTE DRAW, VOTE SOLO, VOTE CONCEDE <power> or VOTE <n>WAY"


def _standing_vote(ctx: PlayerContext, args: list[str]) -> votes.Vote:
    """VOTE's words read once into a `Vote`: a concession, a draw (of at most n powers
    after VOTE nWAY), or SOLO."""
    word = args[0]
    if word == "CONCEDE":
        require(len(args) == 2, "write VOTE CONCEDE <power>")
        p = found(ctx.state.map.power(args[1]), f"cannot concede to {args[1]}")
        require(p.name != ctx.power, f"cannot concede to {args[1]}")
        return votes.Vote.concede(p.name)
    digits = draw_size(word)
    if word == "DRAW" or digits is not None:
        require(
            Flag.NO_DRAW not in ctx.state.rules,
            f"{ctx.game.name} uses the rule NO_DRAW: it ends only in a victory or a concession",
        )
        if digits is None:
            return votes.Vote.draw()
        size = _number(digits, MAX_DRAW, what="the number of powers in the draw")
        require(size >= 1, "write VOTE <n>WAY with n at least 1, e.g. VOTE 3WAY")
        return votes.Vote.draw(size)
    if word == "SOLO":
        return votes.Vote(VoteKind.SOLO)
    raise CommandError(VOTE_USAGE)


@register
class Propose(PlayerHandler):
    keyword = "PROPOSE"
    syntax = "PROPOSE DRAW | CONCEDE <power>"
    summary = "under PROPOSE_DIAS: propose a draw of every survivor or a concession"

    def run(self, ctx: PlayerContext, cmd: Command) -> None:
        _active(ctx)
        args = [a.upper() for a in cmd.args]
        if args[:1] == ["CONCEDE"] and len(args) == 2:
            p = found(ctx.state.map.power(args[1]), f"cannot concede to {args[1]}")
            proposal = votes.Vote.propose(concede_to=p.name)
        else:
            require(args == ["DRAW"], "write PROPOSE DRAW or PROPOSE CONCEDE <power>")
            proposal = votes.Vote.propose()
        what = proposals.propose(ctx.state, ctx.mailer, ctx.seat, proposal)
        ctx.reply.result(cmd.line, Proposed(what=what))
        ctx.then(AfterStep.settle_votes(cmd.line))
