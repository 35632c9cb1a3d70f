"""Openers: the first command of a message."""

from __future__ import annotations

from typing import ClassVar

from ..game import investors, lifecycle, observers
from ..game.after import AfterStep
from ..game.blind import NOBODY, is_blind, is_omniscient
from ..game.context import CommandError, Context
from ..game.exchange import company_standings, investor_seat
from ..game.game_start import begin
from ..game.gamerules import listed_rules, rules_table, status_counts
from ..game.notes.entry import (
    GameCreated,
    Joined,
    ObserverConfirmed,
    Observing,
    RuleAlways,
    SignedOn,
    TookOver,
)
from ..game.notes.reports import (
    CommandHelp,
    GameHistory,
    GameList,
    GameRow,
    GameSummary,
    HelpEntry,
    InvestorRow,
    MapList,
    MapRow,
    PowerRow,
    RulesHelp,
)
from ..game.notify import broadcast, render_history
from ..game.security import MIN_LENGTH, FailedSignon, check_password, locked_until, signon_window
from ..game.state import MASTER, GameState, find_game, find_observer, list_games, phase_title, turns
from ..game.timing import Timing, show_time
from ..game.turns import told_waiting
from ..payola.exchange.accounts import investor_key, investor_name, is_investor
from ..rules.flag_registry import REGISTRY as FLAG_REGISTRY
from ..rules.flags import Flag
from ..rules.names import PowerName
from ..text.commands import GAME_NAME, Command, split_identity
from ..text.phase_range import phase_range, within
from ..vocabulary import GameStatus, SeatKind, SeatStatus
from .base import REGISTRY, OpenerHandler, found, register, require


def _game(ctx: Context, name: str, *, lock: bool = True, signing_on: bool = False) -> GameState:
    # a sign-on's game comes with its recent failed sign-ons counted (`_check`)
    since = ctx.now - signon_window(ctx.config) if signing_on else None
    game = find_game(ctx.session, name, lock=lock, failures_since=since)
    if game is None:
        raise CommandError(f"there is no game named {name!r}")
    ctx.state = GameState(ctx.session, game, ctx.config.maps_path)
    ctx.reply.game = game.name
    return ctx.state


def blind_viewer(ctx: Context, signed_in: str | None, st: GameState) -> str | None:
    """Whom a BLIND game's SUMMARY and HISTORY are shown to: MASTER for the Master and the
    omniscient (everything), the power signed on to this game (its own share), or NOBODY
    (an observer or a stranger: no share at all). None when the game is not BLIND."""
    if not is_blind(st.rules.flags):
        return None
    if signed_in != st.game.name or ctx.actor is None:
        return NOBODY
    if ctx.is_master or (ctx.observer and is_omniscient(st.game, ctx.actor)):
        return MASTER
    return NOBODY if ctx.observer else ctx.actor


def _new_password(word: str) -> str:
    require(len(word) >= MIN_LENGTH, f"a password needs at least {MIN_LENGTH} characters")
    return word


def _game_name(word: str) -> str:
    name = word.lower()
    require(
        bool(GAME_NAME.match(name)),
        f"{word!r} is not a valid game name (letters, digits, - and _, at most 32)",
    )
    return name


@register
class Create(OpenerHandler):
    keyword = "CREATE"
    syntax = "CREATE <game> <password> [<variant>]  … setting lines … SIGNOFF"
    summary = (
        "create a game; you become its Master (settings: RULE, TIMING, MAP, PRIVATE, TAX, CAP,"
        " INCOME EVERY YEAR|MOVEMENT, INCOME INCREASING: rule 6.6)"
    )
    secret_args = (1,)
    exchange = (
        (
            "CREATE <game> <password>  RULE EXCHANGE  … settings …  SIGNOFF",
            "create an Exchange game: players are investors, the powers are companies",
        ),
    )

    def run(self, ctx: Context, cmd: Command) -> None:
        require(len(cmd.args) in (2, 3), "write CREATE <game> <password> [payola] (a password is one word)")
        name = _game_name(cmd.args[0])
        variant = cmd.args[2].lower() if len(cmd.args) == 3 else "payola"
        # the word is not shown: it may be the second half of a password
        require(variant == "payola", "this judge runs Payola games only: CREATE <game> <password> [payola]")
        _new_password(cmd.args[1])
        allowed = ctx.config.create_allowed
        require(
            "*" in allowed or ctx.sender in allowed or f"*@{ctx.sender.rpartition('@')[2]}" in allowed,
            f"{ctx.sender} may not create games on this judge",
        )
        lifecycle.check_create_rate(
            ctx.session,
            sender=ctx.sender,
            now=ctx.now,
            per_sender=ctx.config.create_per_sender_per_hour,
            overall=ctx.config.create_per_hour,
        )
        spec, problems = lifecycle.parse_settings(list(cmd.body), maps_dir=ctx.config.maps_path)
        for problem in problems:
            ctx.reply.add(problem.at(problem.line or cmd.line, problem.text))
        if spec is None:
            return
        game = lifecycle.create_game(
            ctx.session,
            name=name,
            password=cmd.args[1],
            master=ctx.sender,
            variant=variant,
            spec=spec,
            now=ctx.now,
            maps_dir=ctx.config.maps_path,
        )
        ctx.state = GameState(ctx.session, game, ctx.config.maps_path)
        ctx.actor = MASTER
        ctx.reply.game = name
        exchange = Flag.EXCHANGE in ctx.state.rules
        result = GameCreated(
            game=name,
            rules=listed_rules(list(spec.rules), master=True),
            timing=spec.timing.describe(),
            map=spec.map_name,
            seats=len(game.seats),  # Exchange: the investors' seats (INVESTORS)
            exchange=exchange,
            private=bool(spec.private),
            example=ctx.state.map.power_names[0].lower(),
        )
        ctx.reply.result(cmd.line, result)
        for flag in spec.always:
            ctx.reply.result(cmd.line, RuleAlways(name=flag.value, summary=FLAG_REGISTRY[flag].summary))


@register
class Join(OpenerHandler):
    keyword = "JOIN"
    syntax = "JOIN <game> <password> [<privacy word>]  or  JOIN <power>@<game> <password>"
    summary = "join a forming game (the second form picks a power, under rule POWER_CHOICE)"
    secret_args = (1, 2)
    exchange: ClassVar[tuple[tuple[str, str], ...]] = (
        (
            "JOIN <name>@<game> <password>",
            "join as the investor <name> (2 to 12 letters, digits or _, starting with a letter;"
            " not a power's name)",
        ),
    )

    def run(self, ctx: Context, cmd: Command) -> None:
        require(len(cmd.args) in (2, 3), "write JOIN <game> <password>")
        target = cmd.args[0]
        power = None
        if "@" in target:
            power, _, target = target.partition("@")
        st = _game(ctx, _game_name(target))
        _new_password(cmd.args[1])
        seat = lifecycle.join(
            st,
            address=ctx.sender,
            password=cmd.args[1],
            power=power,
            privacy=cmd.args[2] if len(cmd.args) == 3 else None,
            now=ctx.now,
        )
        left = len(lifecycle.open_seats(st.game))
        ctx.reply.result(
            cmd.line, Joined(game=st.game.name, power=seat.power or seat.investor_name, left=left)
        )
        if Flag.SILENT_JOIN not in st.rules:
            broadcast(st, ctx.mailer, f"Diplomacy player joined {st.game.name}", "joined.txt.j2", left=left)
        if left == 0 and Flag.START_MASTER not in st.rules:
            begin(st, ctx.mailer, ctx.reply, ctx.now)


@register
class Observe(OpenerHandler):
    keyword = "OBSERVE"
    syntax = "OBSERVE <name>@<game> <password>"
    summary = "watch a game: results and broadcasts once your address has answered the mailed code (CONFIRM)"
    secret_args = (1,)

    def run(self, ctx: Context, cmd: Command) -> None:
        require(len(cmd.args) == 2 and "@" in cmd.args[0], "write OBSERVE <name>@<game> <password>")
        name, _, game = cmd.args[0].partition("@")
        st = _game(ctx, _game_name(game))
        _new_password(cmd.args[1])
        require(not st.game.state.is_over, f"{st.game.name} is over")
        obs, code = observers.observe(
            st,
            name=name.upper(),
            address=ctx.sender,
            password=cmd.args[1],
            now=ctx.now,
            limit=ctx.config.observers_per_game,
            judge_name=ctx.config.judge_name,
        )
        result = Observing(
            game=st.game.name,
            name=obs.name,
            identity=f"{obs.name.lower()}@{st.game.name}",
            code=code,
            address=obs.address,
            days=observers.CONFIRM_WITHIN.days,
        )
        ctx.reply.result(cmd.line, result)


@register
class Confirm(OpenerHandler):
    keyword = "CONFIRM"
    syntax = "CONFIRM <name>@<game> <code>"
    summary = "confirm an observer's address with the code the judge mailed to it after OBSERVE"

    def run(self, ctx: Context, cmd: Command) -> None:
        require(len(cmd.args) == 2 and "@" in cmd.args[0], "write CONFIRM <name>@<game> <code>")
        name, _, game = cmd.args[0].partition("@")
        st = _game(ctx, _game_name(game))
        obs = observers.confirm_observer(
            st, name=name.upper(), address=ctx.sender, code=cmd.args[1], now=ctx.now
        )
        ctx.reply.result(cmd.line, ObserverConfirmed(game=st.game.name, name=obs.name))


def authenticate(ctx: Context, word: str, password: str) -> None:
    """SIGNON-style identity: a power initial or name, M or master, or an observer.

    Wrong passwords are counted per seat (`security.locked_until`): past the limit, the
    seat's sign-ons are refused without looking at the password until the window passes."""
    who, game_name = found(
        split_identity(word), f"{word!r}: write the power's initial and the game, e.g. Fpay7"
    )
    st = _game(ctx, game_name, signing_on=True)
    bad = f"invalid power or password for {st.game.name}"
    if who in ("M", "MASTER"):
        _check(ctx, st, MASTER, st.game.master_password, st.game.master_address, password)
        ctx.actor = MASTER
        return
    power = st.map.power(who)
    if Flag.EXCHANGE in st.rules:
        if power is not None:
            raise CommandError(
                f"in an Exchange game sign on as yourself (SIGNON <name>@{st.game.name} …) "
                f"and write FOR {power.name} to act for the company you run"
            )
        seat = investor_seat(st, who)
        if seat is not None:
            if seat.status is not SeatStatus.PLAYING:
                raise CommandError(bad)
            account = PowerName(investor_key(who))
            _check(ctx, st, account, seat.password, seat.address, password)
            ctx.actor = ctx.signed_power = account
            if seat.address and seat.address != ctx.sender:
                ctx.reply.extra_recipients.append(seat.address)
            return
    if power is not None:
        seat = st.seat(power.name)
        if seat is None or seat.status is not SeatStatus.PLAYING:
            raise CommandError(bad)
        _check(ctx, st, power.name, seat.password, seat.address, password)
        ctx.actor = ctx.signed_power = power.name
        if seat.address and seat.address != ctx.sender:
            ctx.reply.extra_recipients.append(seat.address)
        return
    obs = find_observer(ctx.session, st.game, who)
    if obs is None:
        raise CommandError(bad)
    _check(ctx, st, obs.name, obs.password, obs.address, password)
    observers.check_confirmed(obs)
    ctx.actor = obs.name
    ctx.observer = True


def _check(
    ctx: Context, st: GameState, who: str, stored: str | None, owner: str | None, password: str
) -> None:
    if ctx.web_party is not None and ctx.web_party == (st.game.name, who):
        return  # the web's message for a live session of this party (game/websend.py)
    trusted = bool(owner) and ctx.sender == owner
    until = (
        None  # no failed sign-on to any seat lately: none to look for
        if st.game.failed_signons == 0
        else locked_until(ctx.session, ctx.config, st.game.id, who, trusted=trusted, now=ctx.now)
    )
    if until is not None:
        zone = Timing.from_json(st.game.timing).zone
        raise CommandError(
            f"too many failed sign-ons as {who} in {st.game.name}: "
            f"they are refused until {show_time(until, zone)}"
        )
    if not check_password(stored, password):
        ctx.signon_failure = FailedSignon(st.game.id, st.game.name, who, owner, trusted)
        raise CommandError(f"invalid power or password for {st.game.name}")


@register
class Signon(OpenerHandler):
    keyword = "SIGNON"
    syntax = "SIGNON <P><game> <password>"
    summary = "sign on as the power with initial P (M: the Master); the commands below act for it"
    secret_args = (1,)
    exchange = (("SIGNON <name>@<game> <password>", "sign on as the investor <name>"),)

    def run(self, ctx: Context, cmd: Command) -> None:
        require(len(cmd.args) == 2, "write SIGNON <P><game> <password>, e.g. SIGNON Fpay7 secret")
        authenticate(ctx, cmd.args[0], cmd.args[1])
        who = ctx.actor or ""
        result = SignedOn(
            who=investor_name(who) if is_investor(who) else who,
            game=ctx.game.name,
            phase=ctx.game.phase,
            state=ctx.game.state,
        )
        ctx.reply.result(cmd.line, result)


@register
class Resign(OpenerHandler):
    keyword = "RESIGN"
    syntax = "RESIGN <P><game> <password>  or  RESIGN <name>@<game> <password>"
    summary = "give up your power or (Exchange) your investor's seat; applied after the rest of the message"
    secret_args = (1,)
    exchange = (
        (
            "RESIGN <name>@<game> <password>",
            "leave your investor's seat: its cash, shares and standing votes wait for whoever takes it over",
        ),
    )

    def run(self, ctx: Context, cmd: Command) -> None:
        require(len(cmd.args) == 2, "write RESIGN <P><game> <password>")
        authenticate(ctx, cmd.args[0], cmd.args[1])
        player = ctx.player()
        if player is None or ctx.is_master:
            raise CommandError("only a power can resign")
        ctx.then(AfterStep.apply_resign(cmd.line, player.power))


@register
class Takeover(OpenerHandler):
    keyword = "TAKEOVER"
    syntax = "TAKEOVER <P><game> <password>  or  TAKEOVER <name>@<game> <password>"
    summary = "take over a resigned power (Exchange: an investor's seat); the password becomes its new one"
    secret_args = (1,)
    exchange = (
        ("TAKEOVER <name>@<game> <password>", "take over a resigned investor's seat, its cash and shares"),
    )

    def run(self, ctx: Context, cmd: Command) -> None:
        require(len(cmd.args) == 2, "write TAKEOVER <P><game> <password>")
        who, game_name = found(
            split_identity(cmd.args[0]), "write TAKEOVER <P><game> <password>, e.g. TAKEOVER Fpay7 secret"
        )
        st = _game(ctx, game_name)
        investing = Flag.EXCHANGE in st.rules  # an investor's seat: TAKEOVER alice@ex1
        seat = investors.seat_to_take_over(st, who) if investing else lifecycle.seat_by_power(st, who)
        _new_password(cmd.args[1])
        lifecycle.takeover(st, seat, address=ctx.sender, password=cmd.args[1], now=ctx.now)
        ctx.actor = ctx.signed_power = investors.account(seat) if investing else seat.power
        timing = Timing.from_json(st.game.timing)
        result = TookOver(
            power=lifecycle.seat_label(seat),
            game=st.game.name,
            deadline=show_time(st.game.deadline, timing.zone),
        )
        ctx.reply.result(cmd.line, result)
        broadcast(
            st,
            ctx.mailer,
            f"Diplomacy takeover {st.game.name}",
            "takeover.txt.j2",
            power=lifecycle.seat_label(seat),
            deadline=show_time(st.game.deadline, timing.zone),
        )


@register
class List(OpenerHandler):
    keyword = "LIST"
    syntax = "LIST [<game>]  or  LIST MAPS"
    summary = "the games open for joining, one game's state, or the maps a game can be played on"

    def run(self, ctx: Context, cmd: Command) -> None:
        if [a.upper() for a in cmd.args] == ["MAPS"]:
            maps = lifecycle.available_maps(ctx.config.maps_path)
            map_list = MapList(
                maps=[
                    MapRow(
                        name=m.name,
                        powers=list(m.powers),
                        centres=m.centres,
                        victory=m.victory,
                        first_phase=m.first_phase.title(),
                    )
                    for m in maps
                ],
            )
            ctx.reply.result(cmd.line, map_list)
            return
        if cmd.args:
            Summary().run(ctx, cmd)
            return
        games = list_games(ctx.session, [state for state in GameStatus if state.is_open], seats=True)
        game_list = GameList(
            games=[
                GameRow(
                    name=g.name,
                    state=g.state,
                    phase=phase_title(ctx.session, g, ctx.config.maps_path),
                    open=sum(1 for s in g.seats if s.status is SeatStatus.OPEN),
                    private=bool(g.settings.get("private")),
                )
                for g in games
            ],
        )
        ctx.reply.result(cmd.line, game_list)


def _summary_powers(st: GameState, viewer: str | None) -> list[PowerRow]:
    """SUMMARY's line for each power: its seat's status, its centres and units, and who
    controls it."""
    pos = st.position
    hide_dummies = Flag.HIDE_DUMMIES in st.rules
    # who controls whom is public (vassal states follow from the board), except under
    # HIDE_DUMMIES, which hides any controller (seed 003 §1.6)
    control = {} if hide_dummies else st.control()
    powers: list[PowerRow] = []
    for p in st.map.powers:
        seat = st.seat(p.name)
        status = seat.status if seat else SeatStatus.OPEN
        if hide_dummies and status is SeatStatus.DUMMY:
            status = SeatStatus.PLAYING  # HIDE_DUMMIES: a dummy looks played
        # BLIND: a power's counts are its own; only the Master sees every power's
        hidden = viewer is not None and viewer not in (MASTER, p.name)
        powers.append(
            PowerRow(
                name=p.name,
                status=status,
                centers=None if hidden else len(pos.centers.get(p.name, ())) if pos else 0,
                units=None if hidden else len(pos.units.get(p.name, ())) if pos else 0,
                controller=control.get(p.name),
            )
        )
    return powers


@register
class Summary(OpenerHandler):
    keyword = "SUMMARY"
    syntax = "SUMMARY <game>"
    summary = "a game's public state: phase, deadline, powers, centres"
    exchange = (
        ("SUMMARY <game>", "also each company's CEO and shares held by investors, and the investors"),
    )

    def run(self, ctx: Context, cmd: Command) -> None:
        require(len(cmd.args) >= 1, f"write {cmd.keyword} <game>")
        signed_in = ctx.state.game.name if ctx.state is not None else None
        st = _game(ctx, cmd.args[0], lock=False)
        g = st.game
        viewer = blind_viewer(ctx, signed_in, st)
        pos = st.position
        timing = Timing.from_json(g.timing)
        powers = _summary_powers(st, viewer)
        told = told_waiting(st)  # (the web page tells a party the same)
        summary = GameSummary(
            game=g.name,
            state=g.state,
            phase=st.calendar.title(pos.phase) if pos else None,
            deadline=show_time(g.deadline, timing.zone) if g.deadline else None,
            rules=listed_rules(list(g.rules)),
            timing=timing.describe(),
            powers=powers,
            open=sum(1 for s in g.seats if s.status is SeatStatus.OPEN),
            late=told.late or [],
            waiting=told.waiting or [],
            result=g.result,
            companies=company_standings(st) if Flag.EXCHANGE in st.rules else [],
            investors=[
                InvestorRow(name=s.investor_name, status=s.status)
                for s in st.seats
                if s.kind is SeatKind.INVESTOR and s.investor_name
            ],
        )
        ctx.reply.result(cmd.line, summary)


@register
class History(OpenerHandler):
    keyword = "HISTORY"
    syntax = "HISTORY <game> [FROM <phase>] [TO <phase>]"
    summary = (
        "every public result of a game so far; FROM and TO keep those of the phases between "
        "(named S1901M, or as the game's map names them)"
    )

    def run(self, ctx: Context, cmd: Command) -> None:
        require(len(cmd.args) >= 1, "write HISTORY <game>")
        signed_in = ctx.state.game.name if ctx.state is not None else None
        st = _game(ctx, cmd.args[0], lock=False)
        try:  # the phases as the game's map names them
            first, last = phase_range(cmd.args[1:], st.calendar)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        played = [t for t in turns(ctx.session, st.game) if t.report and within(t.phase, first, last)]
        viewer = blind_viewer(ctx, signed_in, st)
        master = viewer == MASTER or (signed_in == st.game.name and ctx.is_master)
        results = render_history(st, played, viewer=None if viewer == MASTER else viewer, master=master)
        ctx.reply.result(cmd.line, GameHistory(game=st.game.name, results=results))


@register
class Help(OpenerHandler):
    keyword = "HELP"
    syntax = "HELP [RULES]"
    summary = "this command reference; HELP RULES: every rule flag and what it does here"

    def run(self, ctx: Context, cmd: Command) -> None:
        if cmd.args:
            require([a.upper() for a in cmd.args] == ["RULES"], "write HELP, or HELP RULES")
            ctx.reply.result(cmd.line, RulesHelp(sections=rules_table(), counts=status_counts()))
            return
        groups: dict[str, list[HelpEntry]] = {}
        exchange: dict[str, list[HelpEntry]] = {}  # the Exchange section, by role as the rest
        for handler in sorted(REGISTRY.values(), key=lambda h: h.keyword):
            if not handler.exchange_only:
                groups.setdefault(handler.who, []).append(HelpEntry(handler.syntax, handler.summary))
            forms = handler.exchange or (
                ((handler.syntax, handler.summary),) if handler.exchange_only else ()
            )
            for syntax, summary in forms:
                exchange.setdefault(handler.who, []).append(HelpEntry(syntax, summary))
        settings = [HelpEntry(syntax, summary) for syntax, summary in lifecycle.EXCHANGE_HELP]
        ctx.reply.result(cmd.line, CommandHelp(groups=groups, exchange=exchange, exchange_settings=settings))
