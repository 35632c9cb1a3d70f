"""Rebuild a game's history from the messages it received, and compare it with the record.

The stored raw messages of a game are played again, in the order they were processed, into
a fresh database, with the clock set to each message's processing and to each moment the game
processed a phase by its deadline path, phases later rolled back included (so deadline
processing happens as it did; a phase a message processed is processed again by that
message, with no tick beside it). The game keeps its secret
seed base, so every random draw is the same; the result is compared phase by phase
(positions, public reports, balances). Used by `payjudge replay` to audit a game or to
recover one, and by the tests to show that mail is the whole truth of a game. Stored mail
has its passwords replaced by tokens once processed (`text.redaction`): equal passwords by
equal tokens, so the replay signs on, and fails to, exactly as the original did.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import datetime

from ..config import Config
from ..game import money, websend
from ..game.state import find_game, turns
from ..memory import FixedClock
from ..store import repo
from ..store.db import Database
from ..store.mailbox import SqlInbound
from ..store.models import Game
from ..text.commands import split_commands, split_identity
from ..text.message import read_message
from ..vocabulary import InboundState
from .deadlines import tick_all
from .processor import process_pending


@dataclass
class ReplayReport:
    messages: int = 0
    phases: int = 0
    identical: int = 0
    differences: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.differences


def game_of(raw: bytes) -> str | None:
    """The game a message is about, read from its opener."""
    try:
        mail = read_message(raw)
    except Exception:
        return None
    script = split_commands([(line.number, line.text) for line in mail.lines])
    if not script.commands:
        return None
    first = script.commands[0]
    if not first.args:
        return None
    word = first.args[0]
    if first.keyword in ("CREATE", "SUMMARY", "HISTORY", "LIST"):
        return word.lower()
    if first.keyword in ("JOIN", "OBSERVE", "CONFIRM") and "@" in word:
        return word.partition("@")[2].lower()
    if first.keyword == "JOIN":
        return word.lower()
    ident = split_identity(word)
    return ident[1] if ident else None


def replay(source: Database, target: Database, name: str, config: Config) -> ReplayReport:
    report = ReplayReport()
    # phases are processed exactly at the moments the record shows, so no settle delay;
    # each message is played at the moment it was processed (a rate-limited one waited)
    config = replace(config, settle_seconds=0, rate_limit_per_hour=10**9)
    with source.transaction() as s:
        game = find_game(s, name)
        if game is None:
            raise ValueError(f"no game {name!r}")
        seed_base = game.settings.get("seed_base")
        messages = [
            _Message(m.processed_at or m.received_at, m.raw, m.envelope_from, m.source, m.source_key)
            for m in repo.inbound_messages(s)
            if m.state is InboundState.DONE and game_of(m.raw) == name
        ]
        # a message from a web page signs on by its session, which the fresh database
        # does not have: it is played with a key that says whom it spoke for
        messages = [_web_signed(s, m) for m in messages]
        moments = _tick_moments(s, game, {m.when for m in messages})
        original = _record(s, game)
    clock = FixedClock(messages[0].when if messages else datetime.now().astimezone())
    report.messages = _play(target, config, clock, name, seed_base, messages, moments)
    with target.transaction() as s:
        game = find_game(s, name)
        rebuilt = _record(s, game) if game is not None else []
    _compare(report, original, rebuilt)
    return report


def _play(
    target: Database,
    config: Config,
    clock: FixedClock,
    name: str,
    seed_base: str | None,
    messages: list[_Message],
    moments: list[datetime],
) -> int:
    """Play the messages and the deadline ticks into `target` in the order they happened
    (at one moment, the message first); the number of messages played."""
    inbound = SqlInbound(target, clock)
    played = 0
    events = [(m.when, 0, m) for m in messages] + [(when, 1, None) for when in moments]
    for when, _kind, message in sorted(events, key=lambda e: (e[0], e[1])):
        clock.current = when
        if message is None:
            tick_all(target, config, when)
            continue
        web = message.source == websend.SOURCE and message.source_key is not None
        inbound.store_inbound(
            message.raw,
            source=websend.SOURCE if web else "replay",
            source_key=message.source_key if web else None,
            envelope_from=message.envelope_from,
        )
        process_pending(target, config, clock, limit=10_000)
        played += 1
        with target.transaction() as s:
            g = find_game(s, name)
            if g is not None and seed_base and g.settings.get("seed_base") != seed_base:
                g.settings = {**g.settings, "seed_base": seed_base}
    return played


@dataclass(frozen=True)
class _Message:
    """A stored message as the replay plays it."""

    when: datetime  # when it was processed
    raw: bytes
    envelope_from: str | None
    source: str
    source_key: str | None


def _web_signed(s, m: _Message) -> _Message:
    if m.source != websend.SOURCE:
        return m
    return replace(m, source_key=websend.replayed_key(s, m.source_key, m.when))


def _compare(report: ReplayReport, original: list[dict], rebuilt: list[dict]) -> None:
    """Phase by phase, the replayed record against the original."""
    report.phases = len(original)
    for i, entry in enumerate(original):
        if i >= len(rebuilt):
            report.differences.append(f"{entry['phase']}: missing from the replay")
            continue
        if rebuilt[i] == entry:
            report.identical += 1
        else:
            keys = [k for k in entry if entry[k] != rebuilt[i].get(k)]
            report.differences.append(f"{entry['phase']}: differs in {', '.join(keys)}")


def _tick_moments(s, game: Game, by_mail: set[datetime]) -> list[datetime]:
    """The moments the deadline path processed a phase of the game, each as often as it did.

    A processing shows as the next turn's opening as well as its own `processed_at`: a
    ROLLBACK clears the rolled-back phase's `processed_at` but keeps the turns it undid
    (rolled back), so their openings are the only record of the first processing. A phase
    processed by a message (PROCESS!, the last order in) is processed again by that
    message: a tick at that very moment could run a phase that became ready then but that
    the game ran only at a later tick, after more mail."""
    all_turns = repo.turns(s, game, include_rolled_back=True)
    processed = Counter(t.processed_at for t in all_turns if t.processed_at)
    opened = Counter(t.opened_at for t in all_turns[1:])
    counts = {when: max(processed[when], opened[when]) for when in processed.keys() | opened.keys()}
    return sorted(when for when, n in counts.items() if when not in by_mail for _ in range(n))


def _record(s, game: Game) -> list[dict]:
    """What must come out the same: each phase's position, report, and the balances."""
    out = []
    for t in turns(s, game):
        out.append({"phase": t.phase, "position": t.position, "report": t.report, "status": t.status})
    out.append(
        {"phase": "balances", "position": money.balances(s, game), "report": None, "status": game.state}
    )
    return out
