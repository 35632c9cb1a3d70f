"""The judge's promises, checked by the simulator after every message and every phase.

Each check returns problems as text (empty: the promise held); the game driver turns them
into failures naming the seed and the step. They read the store through the service's own
session, never through the mail the judge wrote.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping

from payjudge.game import money
from payjudge.game.state import GameState
from payjudge.store import Session
from payjudge.store.models import Game
from payjudge.vocabulary import LedgerKind

from .letters import Marker

MARKER = re.compile(r"SIM(\d+)-([A-Z0-9_@]+)-([A-Z0-9_@]+)-(\d+)")
# kinds that bring money into the game or take it out; every other kind moves money between
# accounts, so its entries of one phase add up to zero (docs/exchange.md, "The money invariant")
IN_OR_OUT = frozenset(
    {
        LedgerKind.OPENING,
        LedgerKind.INCOME,
        LedgerKind.BRIBES,
        LedgerKind.CAPITAL,
        LedgerKind.ROLLBACK,
        LedgerKind.FORFEIT,
        LedgerKind.ADJUSTMENT,
    }
)
# what a template or a message shows when a Python value leaks into a mail
_LEAKED_VALUE = re.compile(
    r".{0,40}(\bNone\b(?! [a-z])|Traceback \(most recent call last\)|KeyError|\{'[a-z_]+': ).{0,40}"
)
ZEROSUM_RATE = 10  # rule 6.7: AgP per centre at the start, and per neutral centre first captured


def ledger(s: Session, game: Game, *, zerosum: bool, hoarding: bool, maps_dir=None) -> list[str]:
    """Money: no balance below zero; transfers, dividends and trades add up to zero within
    their phase; a rollback entry reverses one entry exactly, once; bribes are payments.
    Zero Sum (rule 6.7): at a year's first movement phase the world holds 10 AgP for each
    owned centre, plus what was paid this year and not yet deposited, plus forfeits."""
    problems: list[str] = []
    entries = money.entries(s, game)
    by_id = {e.id: e for e in entries}
    for power, amount in money.balances(s, game).items():
        if amount < 0:
            problems.append(f"balance of {power} is {amount} AgP")
    moves: dict[int, int] = defaultdict(int)
    reversed_ids: set[int] = set()
    for e in entries:
        if e.kind not in IN_OR_OUT:
            moves[e.turn_seq] += e.amount
        if e.kind is LedgerKind.BRIBES and e.amount > 0:
            problems.append(f"a bribe entry pays {power_of(e)} {e.amount} AgP")
        if e.kind is LedgerKind.ROLLBACK:
            original = by_id.get(e.reverses) if e.reverses is not None else None
            if original is None or original.amount != -e.amount or original.power != e.power:
                problems.append(f"rollback entry {e.id} does not reverse its entry {e.reverses}")
            elif e.reverses in reversed_ids:
                problems.append(f"entry {e.reverses} is reversed twice")
            reversed_ids.add(e.reverses)  # type: ignore[arg-type]
    for seq, total in sorted(moves.items()):
        if total:
            problems.append(f"money moved between accounts in turn {seq} adds up to {total}, not 0")
    if zerosum and hoarding:
        problems += _zerosum(s, game, entries, by_id, maps_dir)
    return problems


def power_of(e) -> str:
    return str(e.power)


def _zerosum(s: Session, game: Game, entries, by_id, maps_dir) -> list[str]:
    st = GameState(s, game, maps_dir)
    pos = st.position
    if pos is None or not pos.phase.is_movement or game.phase is None:
        return []
    turns_this_year = [t for t in _turns(s, game) if t.phase.year == pos.phase.year]
    if turns_this_year and turns_this_year[0].phase != pos.phase:
        return []  # only at the year's first movement phase, right after the deposit
    world = sum(money.balances(s, game).values())
    # forfeits (rule 2.4) leave the world on purpose; effective kinds see through rollbacks
    forfeited = 0
    for e in entries:
        kind = by_id[e.reverses].kind if e.kind is LedgerKind.ROLLBACK and e.reverses in by_id else e.kind
        if kind is LedgerKind.FORFEIT:
            forfeited -= e.amount
    owned = sum(len(cs) for cs in pos.centers.values())
    expected = ZEROSUM_RATE * owned
    if world + forfeited != expected:
        return [
            f"Zero Sum at {pos.phase}: the world holds {world} AgP (+{forfeited} forfeited), "
            f"but {owned} owned centres make {expected} (rule 6.7)"
        ]
    return []


def _turns(s: Session, game: Game):
    from payjudge.game.state import turns

    return turns(s, game)


def privacy(
    mails: Iterable,
    *,
    seed: int,
    allowed: Mapping[str, frozenset[str]],
    master: str,
    observers: frozenset[str],
    passwords: Iterable[str],
    private_words: Mapping[str, tuple[str, ...]],
) -> list[str]:
    """No mail to one party carries another's secrets: each marker only to its owner, its
    addressee, their controllers and the Master (`allowed`: party → addresses); each
    power's statements and lists likewise; no password in any mail; observers get only
    public kinds."""
    problems: list[str] = []
    secrets = [p for p in passwords if p]
    for mail in mails:
        if mail.kind == "game_end":
            continue  # rules 3.6 and 4.5: everything is published at the end
        to = set(mail.to)
        text = f"{mail.subject}\n{mail.body}"
        for found in MARKER.finditer(text):
            if int(found.group(1)) != seed:
                problems.append(f"mail '{mail.subject}' to {sorted(to)} carries another game's marker")
                continue
            owner, addressee = found.group(2), found.group(3)
            may = {master} | allowed.get(owner, frozenset()) | allowed.get(addressee, frozenset())
            if not to <= may:
                problems.append(
                    f"{mail.kind} '{mail.subject}' to {sorted(to - may)} carries {found.group(0)} "
                    f"({owner}'s secret)"
                )
        for party, words in private_words.items():
            may = {master} | allowed.get(party, frozenset())
            if not to <= may and any(w in mail.body for w in words):
                problems.append(f"{mail.kind} '{mail.subject}' to {sorted(to - may)} shows {party}'s account")
        for pw in secrets:
            if pw in text:
                problems.append(f"password: {mail.kind} '{mail.subject}' to {sorted(to)} quotes a password")
        if _LEAKED_VALUE.search(mail.body):
            shown = _LEAKED_VALUE.search(mail.body)
            problems.append(f"program value: {mail.kind} '{mail.subject}' shows {shown.group(0).strip()!r}")
        if to & observers and mail.kind not in ("results", "notice", "press", "reply", "game_end"):
            problems.append(f"observer got a {mail.kind} mail '{mail.subject}'")
    return problems


def private_words_of(power: str) -> tuple[str, ...]:
    return (
        f"Account statement of {power}",
        f"INCOME FOR {power}",
        f"ACCOUNT ACTIVITY FOR {power}",
        f"acceptance list of {power} is",
    )


def markers_in(text: str) -> list[Marker]:
    return [Marker(int(m.group(1)), m.group(2), m.group(3), int(m.group(4))) for m in MARKER.finditer(text)]


_SECTION = re.compile(r"^\S.* \(([A-Z][A-Z0-9_+]*)\):$")
_UNIT = re.compile(
    r"^\s+(?:BUILD |REMOVE |DISBAND |ARRIVES |DEPARTS |FOUND |LOST )?(?:([AF])|Army|Fleet) ([A-Z0-9_]+)"
)


def blind_sight(
    text: str, viewer: str, visible: Mapping[str, frozenset[str]], own_after: frozenset[str] = frozenset()
) -> list[str]:
    """BLIND (rule 6.3): a power's results name no foreign unit it saw neither before nor
    after the phase (`visible`: owner → the provinces where the viewer saw its units), and
    show none of its own builds as made that is not on the board after it (`own_after`)."""
    problems = []
    owner = None
    for line in text.splitlines():
        head = _SECTION.match(line)
        if head:
            owner = head.group(1)
            continue
        if not line.strip():
            owner = None
            continue
        unit = _UNIT.match(line)
        if owner is None or unit is None:
            continue
        if owner == viewer:
            built = line.strip().startswith("BUILD ") and "(" not in line
            if built and own_after and unit.group(2).split("/")[0] not in own_after:
                problems.append(
                    f"{viewer}'s results show its build as made, but no unit is there: {line.strip()}"
                )
            continue
        province = unit.group(2).split("/")[0]
        if province not in visible.get(owner, frozenset()):
            problems.append(
                f"{viewer}'s results show {owner}'s unit at {province}, which it never saw: {line.strip()}"
            )
    return problems
