"""Press between powers, within the game's press rules (seed 003 §1.2).

`read_press` reads the words after PRESS or BROADCAST (recipients, GREY, FAKE AS, CLAIM TO);
`send_press` checks them against the game's flags and mails the message: players see the
sender and addressees the press shows, the Master's copy always says who really wrote it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from ..rules.flags import Flag
from ..rules.names import PowerName
from ..rules.proximity import remote, touching
from ..store import repo
from ..store.models import Press
from ..vocabulary import GameStatus, MailKind, SeatStatus
from .context import CommandError, GameContext
from .notify import power_address
from .state import MASTER, GameState
from .turns import has_orders, late_powers, required_powers

ANONYMOUS = "Anonymous"
_OPTION_WORDS = ("GREY", "FAKE", "CLAIM")


@dataclass(frozen=True)
class PressRequest:
    """What a PRESS or BROADCAST line asks for."""

    recipients: str | None  # as written ("FG", "FRANCE GERMANY"); None: a broadcast
    grey: bool = False  # sent without its sender (WHITE_GREY)
    fake_as: str | None = None  # signed as this power (FAKE_PRESS)
    claim_to: str | None = None  # shown as addressed to these (FAKE_PRESS)


def read_press(keyword: str, args: list[str]) -> PressRequest:
    """`PRESS TO <powers> [GREY] [FAKE AS <power>] [CLAIM TO <powers>]`, or
    `BROADCAST [GREY] [FAKE AS <power>] [CLAIM TO <powers>]`."""
    words = [a.upper() for a in args]
    recipients = None
    if keyword == "PRESS":
        if len(words) < 2 or words[0] != "TO" or words[1] in _OPTION_WORDS:
            raise CommandError(
                "write PRESS TO <powers> (initials like FG, or names), then the text, then ENDPRESS"
            )
        end = next((i for i, w in enumerate(words) if i > 0 and w in _OPTION_WORDS), len(words))
        recipients, words = " ".join(words[1:end]), words[end:]
    grey, fake_as, claim_to = False, None, None
    while words:
        word = words.pop(0)
        if word == "GREY" and not grey:
            grey = True
        elif word == "FAKE" and fake_as is None and len(words) >= 2 and words[0] == "AS":
            fake_as = words[1]
            words = words[2:]
        elif word == "CLAIM" and claim_to is None and len(words) >= 2 and words[0] == "TO":
            end = next((i for i, w in enumerate(words) if w in _OPTION_WORDS), len(words))
            claim_to, words = " ".join(words[1:end]), words[end:]
            if not claim_to:
                raise CommandError("write CLAIM TO <powers>")
        else:
            raise CommandError(
                f"{keyword} options are GREY, FAKE AS <power> and CLAIM TO <powers> (not {word})"
            )
    return PressRequest(recipients, grey, fake_as, claim_to)


def resolve_recipients(ctx: GameContext, text: str) -> list[str]:
    """`FG`, `FRANCE`, `FRANCE,GERMANY`, `M` (the Master) -> power names or MASTER."""
    m = ctx.state.map
    words = [w for w in text.replace(",", " ").split() if w]
    out: list[str] = []
    for word in words:
        p = m.power(word)
        if p is not None:
            out.append(p.name)
            continue
        if word in ("M", "MASTER"):
            out.append(MASTER)
            continue
        names: list[str] = []
        for c in word:
            letter_power = None if c == "M" else m.power(c)
            if c != "M" and letter_power is None:
                break
            names.append(MASTER if letter_power is None else letter_power.name)
        else:
            out.extend(names)
            continue
        raise CommandError(f"unknown recipient {word!r} (use initials like FG, or power names)")
    return list(dict.fromkeys(out))


def _refuse(condition: bool, message: str) -> None:
    if condition:
        raise CommandError(message)


def _power_names(st: GameState) -> dict[str, PowerName]:
    """Each power's name as the map names it: press addressees and senders are power
    names, MASTER or an observer's name, and only the first are powers."""
    return {p: p for p in st.map.power_names}


def _check(ctx: GameContext, sender: str, observer: bool, request: PressRequest, targets: list[str]) -> None:
    """Refuse press the game's flags forbid (the Master's press is never checked)."""
    st, game, rules = ctx.state, ctx.state.game, ctx.state.rules
    name = game.name
    broadcast = request.recipients is None
    names = _power_names(st)
    players = [names[t] for t in targets if t != MASTER]
    if not observer and sender not in names:
        # an Exchange investor: press between investors is not built yet (docs/exchange.md)
        raise CommandError("in an Exchange game press is not built yet: write to the others directly")
    me = None if observer else names[sender]  # a player's press: the sender is a power
    private = not broadcast and bool(players)
    to_players = broadcast or private
    power = not observer
    running = game.state.is_running and st.position is not None
    overdue = running and game.deadline is not None and ctx.now > game.deadline
    late = late_powers(st) if overdue else []
    _refuse(
        game.state in (GameStatus.FORMING, GameStatus.COMPLETED) and private,
        "before and after the game only broadcasts and press to the Master are allowed",
    )
    _refuse(Flag.NO_PRESS in rules and to_players, f"{name} has no press between players (rule NO_PRESS)")
    _refuse(
        observer and Flag.MUTE_OBSERVERS in rules and to_players,
        f"in {name} observers may write only to the Master (rule MUTE_OBSERVERS)",
    )
    if Flag.BACKSEAT_PRESS in rules:
        _refuse(power and to_players, f"in {name} powers may write only to the Master (rule BACKSEAT_PRESS)")
        _refuse(observer and private, f"in {name} observers may only broadcast (rule BACKSEAT_PRESS)")
    # beside TOUCH_PRESS or REMOTE_PRESS, PUBLIC_PRESS adds broadcasts to the private press
    # those rules allow (seed 003 §1.2); alone, it allows broadcasts only
    near_rules = Flag.TOUCH_PRESS in rules or Flag.REMOTE_PRESS in rules
    _refuse(
        Flag.PUBLIC_PRESS in rules and private and not near_rules,
        f"{name} allows only broadcast press (rule PUBLIC_PRESS)",
    )
    for flag, near, what in (
        (Flag.TOUCH_PRESS, True, "has no unit next to yours"),
        (Flag.REMOTE_PRESS, False, "is near your units or centres"),
    ):
        if flag not in rules or me is None or not running:
            continue
        _refuse(
            broadcast and Flag.PUBLIC_PRESS not in rules,
            f"{name} allows no broadcasts (rule {flag.value} without PUBLIC_PRESS)",
        )
        pos = st.position
        assert pos is not None
        for target in [] if broadcast else players:
            allowed = touching(pos, me, target) if near else remote(pos, me, target)
            _refuse(not allowed, f"{target.title()} {what} (rule {flag.value})")
    if power and running and Flag.FTF_PRESS in rules:
        # a running game with a position always has a phase
        assert game.phase is not None
        _refuse(
            to_players and not game.phase.is_movement,
            f"in {name} players may write to each other only in movement phases (rule FTF_PRESS)",
        )
        _refuse(
            private and bool(late),
            f"in {name} no private press once the deadline has passed (rule FTF_PRESS)",
        )
    if me is not None and running and Flag.MUST_ORDER in rules:
        _refuse(
            to_players and me in required_powers(st) and not has_orders(st, me),
            "send your orders for this phase before writing to players (rule MUST_ORDER)",
        )
    _refuse(
        power and private and sender in late and Flag.LATE_SEND not in rules,
        "your orders are late: until they are in you may write only to the Master or "
        "broadcast (rule LATE_SEND would allow it)",
    )
    if private and Flag.NO_LATE_RECEIVE in rules:
        for target in players:
            _refuse(
                target in late,
                f"{target.title()} is late with its orders and may not be "
                "sent private press (rule NO_LATE_RECEIVE)",
            )
    _refuse(
        request.grey and not ({Flag.WHITE_GREY, Flag.GREY_PRESS} & set(rules.flags)),
        f"{name} has no grey press (rule WHITE_GREY)",
    )
    _refuse(
        (request.fake_as is not None or request.claim_to is not None) and Flag.FAKE_PRESS not in rules,
        f"{name} has no fake press (rule FAKE_PRESS)",
    )


def _within_broadcast_limit(ctx: GameContext, sender: str) -> None:
    """At most `broadcasts_per_hour` broadcasts by one author in a game (the Master, a
    power or an observer): a broadcast is mailed to everyone, so it is the judge's
    largest mail for one message, and a signed-on message is never held back."""
    limit = ctx.config.broadcasts_per_hour
    if (
        limit
        and repo.broadcasts_since(ctx.session, ctx.state.game, sender, ctx.now - timedelta(hours=1)) >= limit
    ):
        raise CommandError(
            f"you have sent {limit} broadcasts in {ctx.state.game.name} within the hour, the most "
            "this judge allows: send this one later"
        )


def send_press(
    ctx: GameContext, *, sender: str, request: PressRequest, body: str, observer: bool = False
) -> list[str]:
    """Check and mail one message; the addressees it really went to."""
    st = ctx.state
    game = st.game
    rules = st.rules
    is_master = sender == MASTER
    broadcast = request.recipients is None
    targets: list[str]
    if request.recipients is None:
        targets = [s.power for s in st.seats if s.power and s.power != sender and s.address]
    else:
        targets = [t for t in resolve_recipients(ctx, request.recipients) if t != sender]
        if not targets:
            raise CommandError("nobody to send the press to")
    if is_master:
        _refuse(
            request.grey or request.fake_as is not None or request.claim_to is not None,
            "the Master's press always shows the Master: GREY, FAKE and CLAIM are for players",
        )
    else:
        _check(ctx, sender, observer, request, targets)
        _refuse(observer and request.fake_as is not None, "an observer's press always shows the observer")
    if broadcast:
        _within_broadcast_limit(ctx, sender)
    shown_from = "the Master" if is_master else sender.title()
    if request.fake_as is not None:
        fake = ctx.state.map.power(request.fake_as)
        if fake is None:
            raise CommandError(f"FAKE AS needs a power of the game, not {request.fake_as}")
        shown_from = fake.name.title()
    players = [_power_names(st)[t] for t in targets if t != MASTER]
    if (
        not is_master
        and (broadcast or players)
        and (request.grey or Flag.GREY_PRESS in rules or (broadcast and Flag.YELLOW_PRESS in rules))
    ):
        shown_from = ANONYMOUS
    if observer:  # never to be taken for a power's
        shown_from = f"{shown_from} (observer)"
    to_names = (
        "everyone" if broadcast else ", ".join("the Master" if t == MASTER else t.title() for t in targets)
    )
    shown_to = to_names
    if request.claim_to is not None:
        shown_to = ", ".join(
            "the Master" if t == MASTER else t.title() for t in resolve_recipients(ctx, request.claim_to)
        )

    readers, unread = _readers(st, players)
    _refuse(
        is_master and bool(unread),
        f"nobody plays or controls {', '.join(unread)}: nobody would read press to "
        + ("it" if len(unread) == 1 else "them"),
    )
    master_copy = not is_master and (
        MASTER in targets
        or (broadcast and Flag.PRESS_MASTER not in rules)
        or (not broadcast and Flag.EAVESDROP in rules)
    )
    me = None if is_master or observer else _power_names(st).get(sender)
    own = {a.lower() for a in power_address(st, me)} if me is not None else set()
    _refuse(
        bool(own)
        and not (broadcast or master_copy or unread)
        and all(a in own for addresses in readers.values() for a in addresses),
        f"you control {to_names}: press to "
        + ("it" if len(players) == 1 else "them")
        + " would reach only you",
    )
    ctx.session.add(
        Press(
            game_id=game.id,
            phase=game.phase,
            sender=sender,
            recipients=[] if broadcast else targets,
            broadcast=broadcast,
            body=body,
            created_at=ctx.now,
        )
    )
    if broadcast:
        readers.setdefault((), []).extend(
            o.address for o in st.observers() if not (observer and o.name == sender)
        )
    subject = f"Diplomacy press from {shown_from} in {game.name}"
    for controlled, addresses in readers.items():
        ctx.mailer.send(
            addresses,
            subject,
            "press.txt.j2",
            kind=MailKind.PRESS,
            game=game,
            game_name=game.name,
            sender=shown_from,
            recipients=shown_to,
            body=body,
            phase=game.phase,
            controlled=[p.title() for p in controlled],
            unplayed=[],
        )
    if master_copy or unread:
        real_from = sender.title() if not observer else f"{sender.title()} (observer)"
        heading = real_from if shown_from == real_from else f"{real_from} (shown as {shown_from})"
        heading_to = to_names if shown_to == to_names else f"{to_names} (shown as {shown_to})"
        ctx.mailer.send(
            [game.master_address],
            f"Diplomacy press from {real_from} in {game.name}",
            "press.txt.j2",
            kind=MailKind.PRESS,
            game=game,
            game_name=game.name,
            sender=heading,
            recipients=heading_to,
            body=body,
            phase=game.phase,
            controlled=[],
            unplayed=[p.title() for p in unread],
        )
    return targets


def _readers(
    st: GameState, powers: list[PowerName]
) -> tuple[dict[tuple[PowerName, ...], list[str]], list[PowerName]]:
    """Who reads press addressed to `powers`: each power's player, or for a power nobody
    plays, the player of the power that controls it (CONTROL, a vassal state), told whom
    it was for. Returned as the addresses by the powers they read it for beside their own,
    and the powers nobody plays or controls, whose press only the Master reads."""
    for_whom: dict[str, list[PowerName]] = {}
    unread: list[PowerName] = []
    for power in powers:
        seat = st.seat(power)
        plays = seat is not None and seat.status is SeatStatus.PLAYING
        addresses = power_address(st, power)
        if not addresses:
            unread.append(power)
        for address in addresses:
            for_whom.setdefault(address.lower(), [])
            if not plays:
                for_whom[address.lower()].append(power)
    readers: dict[tuple[PowerName, ...], list[str]] = {}
    for address, controlled in for_whom.items():
        readers.setdefault(tuple(controlled), []).append(address)
    return readers, unread
