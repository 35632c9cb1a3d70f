"""Press between powers, within the game's press rules."""

from __future__ import annotations

from ..rules.flags import Flag
from ..store.models import Press
from ..vocabulary import GameStatus, SeatStatus
from .context import CommandError, GameContext
from .state import MASTER


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
        letters = list(word)
        powers = [m.power(c) if c != "M" else None for c in letters]
        if all(c == "M" or p is not None for c, p in zip(letters, powers)):
            out.extend(MASTER if c == "M" else p.name for c, p in zip(letters, powers))
            continue
        raise CommandError(f"unknown recipient {word!r} (use initials like FG, or power names)")
    return list(dict.fromkeys(out))


def send_press(ctx: GameContext, *, sender: str, recipients: str | None, body: str) -> list[str]:
    st = ctx.state
    game = st.game
    rules = st.rules
    is_master = sender == MASTER
    if recipients is None:
        targets = [s.power for s in st.seats if s.power and s.power != sender and s.address]
    else:
        targets = [t for t in resolve_recipients(ctx, recipients) if t != sender]
        if not targets:
            raise CommandError("nobody to send the press to")
    if not is_master:
        if game.state in (GameStatus.FORMING, GameStatus.COMPLETED) and recipients is not None and targets != [MASTER]:
            raise CommandError("before and after the game only broadcasts and press to the Master are allowed")
        if Flag.NO_PRESS in rules and targets != [MASTER]:
            raise CommandError(f"{game.name} has no press between players (rule NO_PRESS)")
        if Flag.PUBLIC_PRESS in rules and recipients is not None and targets != [MASTER]:
            raise CommandError(f"{game.name} allows only broadcast press (rule PUBLIC_PRESS)")
    ctx.session.add(Press(game_id=game.id, phase=game.phase, sender=sender,
                          recipients=[] if recipients is None else targets,
                          broadcast=recipients is None, body=body, created_at=ctx.now))
    addresses = []
    for target in targets:
        if target == MASTER:
            addresses.append(game.master_address)
            continue
        seat = st.seat(target)
        if seat and seat.address and seat.status is SeatStatus.PLAYING:
            addresses.append(seat.address)
    if recipients is None:
        addresses += [o.address for o in st.observers()]
        if not is_master:
            addresses.append(game.master_address)
    heading = "the Master" if is_master else sender.title()
    to_names = "everyone" if recipients is None else ", ".join(
        "the Master" if t == MASTER else t.title() for t in targets)
    ctx.mailer.send(addresses, f"Diplomacy press from {heading} in {game.name}", "press.txt.j2",
                    kind="press", game=game, game_name=game.name, sender=heading,
                    recipients=to_names, body=body, phase=game.phase)
    return targets
