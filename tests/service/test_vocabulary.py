"""The typed vocabulary (payjudge/vocabulary.py) down to the database: the store reads
states, statuses, kinds and phases as enums and `Phase`s and refuses other words;
migration 0003 moves the scheduler's preview marks out of `game.settings` and keeps
existing databases; no module compares a state, status or kind with a string."""

from __future__ import annotations

import ast
import json
import shutil
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import StatementError

from payjudge.game.state import find_game
from payjudge.rules.names import PowerName
from payjudge.rules.phase import Phase
from payjudge.store.db import Database, schema_revisions, upgrade
from payjudge.store.models import Game, LedgerEntry, Turn
from payjudge.store.types import VoteText
from payjudge.text.votes import Vote, VoteKind
from payjudge.vocabulary import (
    GameStatus,
    InboundState,
    LedgerKind,
    OutboxState,
    SeatKind,
    SeatStatus,
    SubmissionKind,
    TurnStatus,
)

from ..servers import drop_database, fresh_database
from .judge import TestJudge
from .test_game import GM, POWERS, addr, signon, snapshot, start_game

ROOT = Path(__file__).resolve().parents[2]
T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
HEAD = "0009_web_sessions"  # the newest migration


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_url(request):
    """A database with no schema yet, to migrate step by step."""
    if request.param == "sqlite":
        folder = Path(tempfile.mkdtemp(prefix="pj-mig-"))
        yield f"sqlite:///{folder / 'payjudge.sqlite'}"
        shutil.rmtree(folder, ignore_errors=True)
    else:
        url = fresh_database(request.getfixturevalue("pg_url"), "mig")
        yield url
        drop_database(url)


def _alembic(url: str, direction: str, revision: str) -> None:
    from alembic import command

    from payjudge.store.db import alembic_config

    getattr(command, direction)(alembic_config(url), revision)


def _fill_0002(url: str, *, state: str = "active") -> None:
    """A started game as payjudge wrote it at schema 0002: plain strings, and the preview
    marks in `settings`."""
    settings = {"seed_base": "ab", "tax": 3, "previewed": "S1901M", "cd_previewed": "F1900M"}
    db = Database(url)
    with db.engine.begin() as c:
        c.execute(
            text(
                "INSERT INTO game (id, name, variant, map_name, state, master_address, "
                "master_password, rules, settings, timing, phase, reminded, created_at, version) "
                "VALUES (1, 'old', 'payola', 'standard', :state, 'gm@x', 'h', '[]', :settings, "
                "'{}', 'S1901M', '[]', :t, 3)"
            ),
            {"state": state, "settings": json.dumps(settings), "t": T0},
        )
        for i, (power, status) in enumerate(
            [("FRANCE", "playing"), ("ITALY", "dummy"), (None, "open")], start=1
        ):
            c.execute(
                text(
                    "INSERT INTO seat (id, game_id, power, status, wait, absences, missed, "
                    "joined_at) VALUES (:i, 1, :p, :s, false, '[]', 0, :t)"
                ),
                {"i": i, "p": power, "s": status, "t": T0},
            )
        c.execute(
            text(
                "INSERT INTO turn (id, game_id, seq, phase, position, seed, status, opened_at) "
                "VALUES (1, 1, 1, 'S1901M', '{}', 7, 'open', :t)"
            ),
            {"t": T0},
        )
        c.execute(
            text(
                "INSERT INTO submission (id, game_id, turn_id, power, kind, text, current, "
                "submitted_at) VALUES (1, 1, 1, 'FRANCE', 'sheet', 'x', true, :t)"
            ),
            {"t": T0},
        )
        c.execute(
            text(
                "INSERT INTO ledger_entry (id, game_id, power, turn_seq, phase, kind, amount, "
                "memo, created_at) VALUES (1, 1, 'FRANCE', 0, 'S1901M', 'opening', 38, '', :t)"
            ),
            {"t": T0},
        )
        c.execute(
            text(
                "INSERT INTO inbound_message (id, source, raw, received_at, state, attempts, "
                "redacted) VALUES (1, 'smtp', :raw, :t, 'quarantined', 1, false)"
            ),
            {"raw": b"x", "t": T0},
        )
        c.execute(
            text(
                "INSERT INTO outbox (id, message_id, sender, recipients, subject, raw, kind, "
                "created_at, state, attempts, next_attempt_at) VALUES (1, '<m@x>', 'j@x', "
                "'[\"p@x\"]', 's', :raw, 'reply', :t, 'failed', 5, :t)"
            ),
            {"raw": b"x", "t": T0},
        )
    db.dispose()


def test_upgrade_from_0002_keeps_the_data_and_reads_it_typed(empty_url):
    upgrade(empty_url, "0002")
    _fill_0002(empty_url)
    before, after = upgrade(empty_url)
    assert (before, after) == ("0002", HEAD)
    assert schema_revisions(empty_url) == (HEAD, HEAD)
    db = Database(empty_url)
    try:
        with db.reading() as s:
            game = s.get(Game, 1)
            assert game.state is GameStatus.ACTIVE
            assert game.phase == Phase.parse("S1901M")
            # the scheduler's marks are columns now, and gone from the settings
            assert game.previewed_phase == Phase.parse("S1901M")
            assert game.cd_previewed_phase == Phase.parse("F1900M")
            assert game.settings == {"seed_base": "ab", "tax": 3}
            assert [seat.status for seat in game.seats] == [
                SeatStatus.PLAYING,
                SeatStatus.DUMMY,
                SeatStatus.OPEN,
            ]
            # 0004 (Exchange Payola): every seat that existed is a power's
            assert {seat.kind for seat in game.seats} == {SeatKind.POWER}
            turn = s.get(Turn, 1)
            assert turn.status is TurnStatus.OPEN and turn.phase.is_movement
            assert s.get(LedgerEntry, 1).kind is LedgerKind.OPENING
            from payjudge.store.models import InboundMessage, OutboxMail, Submission

            assert s.get(Submission, 1).kind is SubmissionKind.SHEET
            assert s.get(InboundMessage, 1).state is InboundState.QUARANTINED
            assert s.get(OutboxMail, 1).state is OutboxState.FAILED
    finally:
        db.dispose()
    # and back: the marks return to the settings
    _alembic(empty_url, "downgrade", "0002")
    db = Database(empty_url)
    try:
        with db.engine.connect() as c:
            settings = c.execute(text("SELECT settings FROM game WHERE id = 1")).scalar_one()
            settings = json.loads(settings) if isinstance(settings, str) else settings
            assert settings == {"seed_base": "ab", "tax": 3, "previewed": "S1901M", "cd_previewed": "F1900M"}
    finally:
        db.dispose()
    upgrade(empty_url)


# seat.vote as players wrote it before 0007, and as `Vote` values after
OLD_VOTES = {
    "DRAW": Vote.draw(),
    "3WAY": Vote.draw(3),
    "SOLO": Vote(VoteKind.SOLO),
    "CONCEDE FRANCE": Vote.concede(PowerName("FRANCE")),
    "PROPOSE DRAW": Vote.propose(),
    "PROPOSE CONCEDE ITALY": Vote.propose(concede_to=PowerName("ITALY")),
    "YES": Vote(VoteKind.YES),
    "END": Vote(VoteKind.END),
}


def _fill_votes(url: str, votes: list[str | None]) -> None:
    """Seats 1.. of game 1 with these standing votes, as schema 0006 stored them."""
    db = Database(url)
    with db.engine.begin() as c:
        c.execute(text("DELETE FROM seat"))
        for i, vote in enumerate(votes, start=1):
            c.execute(
                text(
                    "INSERT INTO seat (id, game_id, power, kind, status, wait, absences, missed, "
                    "vote, joined_at) VALUES (:i, 1, :p, 'power', 'playing', false, '[]', 0, :v, :t)"
                ),
                {"i": i, "p": f"P{i}", "v": vote, "t": T0},
            )
    db.dispose()


def _stored_votes(url: str) -> list[str | None]:
    db = Database(url)
    try:
        with db.engine.connect() as c:
            return list(c.execute(text("SELECT vote FROM seat ORDER BY id")).scalars())
    finally:
        db.dispose()


def test_0007_stores_votes_typed_and_back(empty_url):
    """Migration 0007 rewrites the players' words (`3WAY`, `CONCEDE FRANCE`) into the
    `Vote` column form, the store reads them as `Vote` values, and the downgrade writes
    the words back."""
    upgrade(empty_url, "0002")
    _fill_0002(empty_url)
    upgrade(empty_url, "0006_observer_consent")
    old = [*OLD_VOTES, None]
    _fill_votes(empty_url, old)
    assert upgrade(empty_url) == ("0006_observer_consent", HEAD)
    assert _stored_votes(empty_url) == [v.stored for v in OLD_VOTES.values()] + [None]
    assert _stored_votes(empty_url)[:4] == ["draw", "draw:3", "solo", "concede:FRANCE"]
    db = Database(empty_url)
    try:
        with db.reading() as s:
            assert [seat.vote for seat in s.get(Game, 1).seats] == [*OLD_VOTES.values(), None]
    finally:
        db.dispose()
    _alembic(empty_url, "downgrade", "0006_observer_consent")
    assert _stored_votes(empty_url) == old
    upgrade(empty_url)


def test_0007_stops_at_a_vote_it_does_not_know(empty_url):
    upgrade(empty_url, "0002")
    _fill_0002(empty_url)
    upgrade(empty_url, "0006_observer_consent")
    _fill_votes(empty_url, ["DRAW", "MAYBE"])
    with pytest.raises(RuntimeError, match=r"seat\.vote holds 'MAYBE'"):
        upgrade(empty_url)
    assert schema_revisions(empty_url)[0] == "0006_observer_consent"


def test_a_vote_is_refused_as_text_and_round_trips():
    for vote in OLD_VOTES.values():
        assert Vote.from_stored(vote.stored) == vote
        assert str(vote) in OLD_VOTES
    with pytest.raises(ValueError):
        Vote(VoteKind.CONCEDE)  # a concession names its power
    with pytest.raises(ValueError):
        Vote(VoteKind.SOLO, size=3)
    with pytest.raises(TypeError, match="is not a Vote"):
        VoteText().process_bind_param("3WAY", None)  # type: ignore[arg-type]


def test_upgrade_stops_at_a_word_the_judge_does_not_know(empty_url):
    upgrade(empty_url, "0002")
    _fill_0002(empty_url, state="hibernating")
    with pytest.raises(RuntimeError, match=r"game\.state holds 'hibernating'"):
        upgrade(empty_url)
    assert schema_revisions(empty_url)[0] == "0002"


def test_the_store_refuses_a_state_that_is_no_word(database):
    with (
        pytest.raises(StatementError, match="'hibernating' is not a valid GameStatus"),
        database.transaction() as s,
    ):
        s.add(
            Game(
                name="g",
                variant="payola",
                map_name="standard",
                state="hibernating",
                master_address="gm@x",
                master_password="h",
                created_at=T0,
            )
        )
    with pytest.raises(StatementError, match="not a phase"), database.transaction() as s:
        s.add(
            Game(
                name="g",
                variant="payola",
                map_name="standard",
                state=GameStatus.FORMING,
                phase="S1901X",
                master_address="gm@x",
                master_password="h",
                created_at=T0,
            )
        )


def test_a_preview_is_mailed_once_a_phase_and_the_mark_is_a_column(database):
    """RULE PREVIEW: at the deadline the Master gets a preview, once; the mark that says so
    is `game.previewed_phase`, no longer a key of `settings`."""
    judge = TestJudge(database)
    start_game(judge, "PREVIEW")
    pos = snapshot(judge)[0]
    for power in POWERS:
        judge.send(addr(power), f"{signon(power)}\n0 : {pos.units[power][0]} H\n")
    judge.inbox(GM)
    assert [a for a in judge.tick(days=5) if "preview sent" in a]
    assert [m.subject for m in judge.inbox(GM) if m.subject.startswith("PREVIEW")]
    assert not judge.tick(hours=1)
    assert not [m for m in judge.inbox(GM) if m.subject.startswith("PREVIEW")]
    with database.reading() as s:
        game = find_game(s, "pay7")
        assert game.previewed_phase == Phase.parse("S1901M") == game.phase
        assert "previewed" not in game.settings


# -- no state, status or kind is compared with a string ----------------------------------------
WORDS = ("state", "status", "kind")
# the lexer of written orders compares its token kinds ("LOC", "?", "(", …): that is the
# text parser at work, below any record of the judge
PARSERS = {"payjudge/rules/parse.py", "payjudge/rules/tokens.py"}


def _is_word(node: ast.AST) -> bool:
    """`x.state`, `x.status`, `x.kind`: a record's word (a local `kind` in a text parser
    is not)."""
    return isinstance(node, ast.Attribute) and node.attr in WORDS


def _strings(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_strings(e) for e in node.elts)
    return False


def _string_comparisons(source: str, name: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_is_word(a) for a in sides) and any(_strings(b) for b in sides):
                found.append(f"{name}:{node.lineno}")
        elif (
            isinstance(node, ast.Assign)
            and _strings(node.value)
            and any(isinstance(t, ast.Attribute) and t.attr in WORDS for t in node.targets)
        ):
            # `game.state = "active"`: a record's word set from a string
            found.append(f"{name}:{node.lineno}")
    return found


def test_no_module_compares_a_state_status_or_kind_with_a_string():
    found = [
        hit
        for path in sorted((ROOT / "payjudge").rglob("*.py"))
        if (name := str(path.relative_to(ROOT))) not in PARSERS
        for hit in _string_comparisons(path.read_text(), name)
    ]
    assert not found, found


def test_the_scan_sees_a_string_comparison():
    sample = (
        "def f(game, seat, e, kind):\n"
        "    if game.state == 'active' or seat.status in ('dummy', GameStatus.ACTIVE):\n"
        "        e.kind = 'rollback'\n"
        "    return e.state != 'done' or game.state is GameStatus.ACTIVE or kind == 'A'\n"
    )
    assert sorted(_string_comparisons(sample, "x.py")) == ["x.py:2", "x.py:2", "x.py:3", "x.py:4"]
