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
from ..store import repo
from ..store.models import Press
from ..vocabulary import MailKind, SeatStatus
from .context import CommandError, GameContext
from .notify import power_address
from .press_rules import check_press, press_case
from .state import MASTER, GameState

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
        recipients, words = _read_recipients(words)
    return PressRequest(recipients, *_read_options(keyword, words))


def _read_recipients(words: list[str]) -> tuple[str, list[str]]:
    """`TO <powers>` up to the first option word; the words after them."""
    if len(words) < 2 or words[0] != "TO" or words[1] in _OPTION_WORDS:
        raise CommandError(
            "write PRESS TO <powers> (initials like FG, or names), then the text, then ENDPRESS"
        )
    end = next((i for i, w in enumerate(words) if i > 0 and w in _OPTION_WORDS), len(words))
    return " ".join(words[1:end]), words[end:]


def _followed_by(words: list[str], word: str) -> bool:
    return len(words) >= 2 and words[0] == word


def _read_options(keyword: str, words: list[str]) -> tuple[bool, str | None, str | None]:
    """GREY, FAKE AS <power> and CLAIM TO <powers>, each at most once, in any order."""
    grey, fake_as, claim_to = False, None, None
    while words:
        word = words.pop(0)
        if word == "GREY" and not grey:
            grey = True
        elif word == "FAKE" and fake_as is None and _followed_by(words, "AS"):
            fake_as, words = words[1], words[2:]
        elif word == "CLAIM" and claim_to is None and _followed_by(words, "TO"):
            end = next((i for i, w in enumerate(words) if w in _OPTION_WORDS), len(words))
            claim_to, words = " ".join(words[1:end]), words[end:]
            if not claim_to:
                raise CommandError("write CLAIM TO <powers>")
        else:
            raise CommandError(
                f"{keyword} options are GREY, FAKE AS <power> and CLAIM TO <powers> (not {word})"
            )
    return grey, fake_as, claim_to


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
    """Refuse press the game's flags forbid (the Master's press is never checked): the
    table of flag -> check in `press_rules`."""
    faked = request.fake_as is not None or request.claim_to is not None
    case = press_case(ctx, sender, observer, request.grey, faked, request.recipients is None, targets)
    check_press(case)


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


def _targets(ctx: GameContext, sender: str, request: PressRequest) -> list[str]:
    """The addressees: for a broadcast every other power with a player's address."""
    if request.recipients is None:
        return [s.power for s in ctx.state.seats if s.power and s.power != sender and s.address]
    targets = [t for t in resolve_recipients(ctx, request.recipients) if t != sender]
    _refuse(not targets, "nobody to send the press to")
    return targets


def _check_author(
    ctx: GameContext, sender: str, observer: bool, request: PressRequest, targets: list[str]
) -> None:
    """The Master's press always shows the Master; a player's or an observer's is checked
    against the game's press rules."""
    if sender == MASTER:
        _refuse(
            request.grey or request.fake_as is not None or request.claim_to is not None,
            "the Master's press always shows the Master: GREY, FAKE and CLAIM are for players",
        )
        return
    _check(ctx, sender, observer, request, targets)
    _refuse(observer and request.fake_as is not None, "an observer's press always shows the observer")


def _shown_from(
    ctx: GameContext, sender: str, request: PressRequest, observer: bool, players: list[PowerName]
) -> str:
    """The sender the readers see: the real one, the FAKE AS power, or Anonymous (grey)."""
    rules = ctx.state.rules
    is_master = sender == MASTER
    broadcast = request.recipients is None
    shown_from = "the Master" if is_master else sender.title()
    if request.fake_as is not None:
        fake = ctx.state.map.power(request.fake_as)
        if fake is None:
            raise CommandError(f"FAKE AS needs a power of the game, not {request.fake_as}")
        shown_from = fake.name.title()
    grey = request.grey or Flag.GREY_PRESS in rules or (broadcast and Flag.YELLOW_PRESS in rules)
    if not is_master and (broadcast or players) and grey:
        shown_from = ANONYMOUS
    if observer:  # never to be taken for a power's
        shown_from = f"{shown_from} (observer)"
    return shown_from


def titles(names: list[str]) -> str:
    return ", ".join("the Master" if t == MASTER else t.title() for t in names)


def _master_copy(ctx: GameContext, sender: str, broadcast: bool, targets: list[str]) -> bool:
    """Whether the Master reads a player's press: sent to it, a broadcast (unless
    PRESS_MASTER), or private press under EAVESDROP."""
    rules = ctx.state.rules
    return sender != MASTER and (
        MASTER in targets
        or (broadcast and Flag.PRESS_MASTER not in rules)
        or (not broadcast and Flag.EAVESDROP in rules)
    )


def _refuse_unread(ctx: GameContext, sender: str, unread: list[PowerName]) -> None:
    _refuse(
        sender == MASTER and bool(unread),
        f"nobody plays or controls {', '.join(unread)}: nobody would read press to "
        + ("it" if len(unread) == 1 else "them"),
    )


def _refuse_only_self(
    ctx: GameContext,
    me: PowerName | None,
    readers: dict[tuple[PowerName, ...], list[str]],
    reaches_others: bool,
    to_names: str,
    players: list[PowerName],
) -> None:
    """Press to powers only the sender's own player reads (CONTROL) would reach nobody else."""
    own = {a.lower() for a in power_address(ctx.state, me)} if me is not None else set()
    _refuse(
        bool(own)
        and not reaches_others
        and all(a in own for addresses in readers.values() for a in addresses),
        f"you control {to_names}: press to "
        + ("it" if len(players) == 1 else "them")
        + " would reach only you",
    )


def _record(ctx: GameContext, sender: str, broadcast: bool, targets: list[str], body: str) -> None:
    game = ctx.state.game
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


@dataclass(frozen=True)
class _Letter:
    """One press message as it is mailed: who it shows as sender and addressees."""

    sender: str
    observer: bool
    body: str
    shown_from: str
    shown_to: str
    to_names: str

    def mail(
        self,
        ctx: GameContext,
        addresses: list[str],
        subject: str,
        shown: tuple[str, str],
        controlled: list[str],
        unplayed: list[str],
    ) -> None:
        game = ctx.state.game
        ctx.mailer.send(
            addresses,
            subject,
            "press.txt.j2",
            kind=MailKind.PRESS,
            game=game,
            game_name=game.name,
            sender=shown[0],
            recipients=shown[1],
            body=self.body,
            phase=game.phase,
            controlled=controlled,
            unplayed=unplayed,
        )

    def to_readers(self, ctx: GameContext, readers: dict[tuple[PowerName, ...], list[str]]) -> None:
        subject = f"Diplomacy press from {self.shown_from} in {ctx.state.game.name}"
        for controlled, addresses in readers.items():
            self.mail(
                ctx,
                addresses,
                subject,
                (self.shown_from, self.shown_to),
                controlled=[p.title() for p in controlled],
                unplayed=[],
            )

    def to_master(self, ctx: GameContext, unread: list[PowerName]) -> None:
        """The Master's copy always says who really wrote it, and to whom."""
        game = ctx.state.game
        real_from = f"{self.sender.title()} (observer)" if self.observer else self.sender.title()
        heading = real_from if self.shown_from == real_from else f"{real_from} (shown as {self.shown_from})"
        to_names = self.to_names
        heading_to = to_names if self.shown_to == to_names else f"{to_names} (shown as {self.shown_to})"
        self.mail(
            ctx,
            [game.master_address],
            f"Diplomacy press from {real_from} in {game.name}",
            (heading, heading_to),
            controlled=[],
            unplayed=[p.title() for p in unread],
        )


def send_press(
    ctx: GameContext, *, sender: str, request: PressRequest, body: str, observer: bool = False
) -> list[str]:
    """Check and mail one message; the addressees it really went to."""
    st = ctx.state
    broadcast = request.recipients is None
    targets = _targets(ctx, sender, request)
    _check_author(ctx, sender, observer, request, targets)
    if broadcast:
        _within_broadcast_limit(ctx, sender)
    players = [_power_names(st)[t] for t in targets if t != MASTER]
    shown_from = _shown_from(ctx, sender, request, observer, players)
    to_names = "everyone" if broadcast else titles(targets)
    shown_to = to_names if request.claim_to is None else titles(resolve_recipients(ctx, request.claim_to))
    readers, unread = _readers(st, players)
    _refuse_unread(ctx, sender, unread)
    master_copy = _master_copy(ctx, sender, broadcast, targets)
    me = None if sender == MASTER or observer else _power_names(st).get(sender)
    _refuse_only_self(ctx, me, readers, broadcast or master_copy or bool(unread), to_names, players)
    _record(ctx, sender, broadcast, targets, body)
    if broadcast:
        readers.setdefault((), []).extend(
            o.address for o in st.observers() if not (observer and o.name == sender)
        )
    letter = _Letter(sender, observer, body, shown_from, shown_to, to_names)
    letter.to_readers(ctx, readers)
    if master_copy or unread:
        letter.to_master(ctx, unread)
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
