"""Each map's own calendar by mail (issue 28 item 3): a game on DPjudge's hundred, played to
its first adjustments, says A.D. 1425 Movement, A.D. 1430 Movement and A.D. 1430
Adjustments in every mail, subject, picture, SUMMARY, HISTORY and on the status page, pays
the year's income there, and takes ROLLBACK in the map's names; classical counts its B.C.
years down. The maps are read in place from DPjudge's folder."""

from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import replace
from pathlib import Path

import pytest

from payjudge.game import pictures
from payjudge.game.pictures import Pictures
from payjudge.game.public import game_page
from payjudge.game.state import GameState, find_game
from payjudge.rules.mapfile import load_variant
from payjudge.rules.position import Position
from payjudge.store import repo
from payjudge.vocabulary import LedgerKind

from .judge import Mail, TestJudge

DPJUDGE = Path(__file__).resolve().parents[3] / "shared" / "dpjudge-maps"
if not DPJUDGE.is_dir():
    DPJUDGE = Path("/work/shared/dpjudge-maps")
pytestmark = pytest.mark.skipif(
    not DPJUDGE.is_dir(), reason="DPjudge's map files (../shared/dpjudge-maps) are not here"
)
GM = "gm@pj.test"
MASTER = "SIGNON Mh1 masterpw\n"
# what a mail of a hundred game must never say: payjudge's own cycle, its years or codes
STANDARD = re.compile(r"Spring|Fall|Winter|SPRING|FALL|WINTER|\b[SFW]14[0-9][0-9][MRAX]\b|\b142[6-9]\b")


def _judge(database, tmp_path) -> TestJudge:
    judge = TestJudge(database)
    judge.config = replace(judge.config, maps_dir=str(DPJUDGE / "maps"), data_dir=tmp_path / "data")
    return judge


def _start(judge: TestJudge, name: str, map_name: str, powers: tuple[str, ...]) -> None:
    judge.send(GM, f"CREATE {name} masterpw\nRULE POWER_CHOICE\nMAP {map_name}\nSIGNOFF\n")
    for p in powers:
        judge.send(f"{p.lower()}@pj.test", f"JOIN {p.lower()}@{name} pw-{p.lower()}\n")


def _no_standard_names(mails: list[Mail]) -> None:
    for m in mails:
        assert not STANDARD.search(m.subject), m.subject
        assert not STANDARD.search(m.body), (m.subject, STANDARD.search(m.body), m.body)


def _subjects(mails: list[Mail], kind: str) -> set[str]:
    return {m.subject for m in mails if m.kind == kind}


def test_hundred_played_to_its_first_adjustments_in_its_own_calendar(database, tmp_path):
    judge = _judge(database, tmp_path)
    _start(judge, "h1", "hundred", ("ENGLAND", "FRANCE", "BURGUNDY"))
    started = judge.inbox("england@pj.test")
    assert any("The first phase is A.D. 1425 Movement." in m.body for m in started)
    assert any("First phase:            A.D. 1425 Movement" in m.body for m in started)

    judge.send("england@pj.test", "SIGNON Eh1 pw-england\n5 : A NMD - BRT\n")
    assert "Offer sheet of ENGLAND for A.D. 1425 Movement" in judge.last_reply("england@pj.test")
    judge.send("burgundy@pj.test", "SIGNON Bh1 pw-burgundy\n5 : A DIJ - CAN\n")
    judge.send(GM, MASTER + "PROCESS!\n")
    assert "in A.D. 1430 Movement" in judge.last_reply(GM)  # no retreats: five years on
    judge.send(GM, MASTER + "PROCESS!\n")
    assert "in A.D. 1430 Adjustments" in judge.last_reply(GM)
    judge.send("england@pj.test", "SIGNON Eh1 pw-england\nBUILD A NMD\n")
    assert "Orders of ENGLAND for A.D. 1430 Adjustments" in judge.last_reply("england@pj.test")
    judge.send(GM, MASTER + "PROCESS!\n")
    assert "the game is now active, in A.D. 1435 Movement" in judge.last_reply(GM)

    mails = list(judge.sent)
    _no_standard_names(mails)
    phases = ("A1425M", "A1430M", "A1430A")
    assert _subjects(mails, "results") == {f"Diplomacy results h1 {p}" for p in phases}
    assert _subjects(mails, "statement") == {f"Payola bribe results h1 {p}" for p in ("A1425M", "A1430M")}
    results = [m.body for m in mails if m.kind == "results" and "england@pj.test" in m.to]
    assert [r.splitlines()[0] for r in results] == [
        "A.D. 1425 Movement results for game h1",
        "A.D. 1430 Movement results for game h1",
        "A.D. 1430 Adjustments results for game h1",
    ]
    assert "The next phase is A.D. 1430 Adjustments." in results[1]
    assert "BUILD A NMD" in results[2] and "The next phase is A.D. 1435 Movement." in results[2]
    # the pictures are named and titled by the map's phases
    adjustments = [m for m in mails if m.kind == "results" and m.subject.endswith("A1430A")]
    assert adjustments and all(b"h1-A1430A.png" in m.raw for m in adjustments)

    # the year's income, paid on the map's adjustments (A.D. 1430), not before
    income = [m for m in mails if m.kind == "income"]
    assert {m.subject for m in income} == {"Payola income report h1 1430"}
    assert any("INCOME FOR ENGLAND FOR THE YEAR 1430" in m.body for m in income)
    with judge.db.transaction() as s:
        st = GameState(s, find_game(s, "h1"), judge.config.maps_path)
        paid = {e.phase for e in repo.ledger_entries(s, st.game) if e.kind is LedgerKind.INCOME}
        assert {st.calendar.title(p) for p in paid} == {"A.D. 1430 Adjustments"}
        assert st.calendar.title(st.game.phase) == "A.D. 1435 Movement"

    judge.sent.clear()
    judge.send("stranger@pj.test", "SUMMARY h1\nHISTORY h1\n")
    told = judge.last_reply("stranger@pj.test")
    assert "Game h1: active, A.D. 1435 Movement" in told
    assert "A.D. 1430 Adjustments results for game h1" in told
    judge.send("stranger@pj.test", "LIST\n")
    assert re.search(r"h1 +active +A\.D\. 1435 Movement", judge.last_reply("stranger@pj.test"))
    judge.send(GM, MASTER + "FOR ENGLAND\nBALANCE\n")
    assert "A.D. 1430 Adjustments   year-end income" in judge.last_reply(GM)
    _no_standard_names(judge.sent)

    with judge.db.transaction() as s:
        page = game_page(s, judge.config, "h1")
        assert page is not None and page.summary.phase == "A.D. 1435 Movement"
        assert [h.phase for h in page.history] == [
            "A.D. 1430 Adjustments",
            "A.D. 1430 Movement",
            "A.D. 1425 Movement",
        ]

    # ROLLBACK in the map's words and in DPjudge's abbreviation
    judge.sent.clear()
    judge.send(GM, MASTER + "ROLLBACK A.D. 1430 ADJUSTMENTS\n")
    assert "The game is back at the start of A.D. 1430 Adjustments" in judge.last_reply(GM)
    judge.send(GM, MASTER + "ROLLBACK A1425M\n")
    assert "The game is back at the start of A.D. 1425 Movement" in judge.last_reply(GM)
    assert _subjects(judge.sent, "notice") >= {"Diplomacy rollback h1 A1430A", "Diplomacy rollback h1 A1425M"}
    judge.send(GM, MASTER + "ROLLBACK A1427M\n")
    assert "not a phase of this map: 'A1427M'" in judge.last_reply(GM)
    _no_standard_names(judge.sent)
    assert judge.replay("h1").ok


def test_classical_counts_its_bc_years_down_by_mail(database, tmp_path):
    judge = _judge(database, tmp_path)
    _start(judge, "c1", "classical", ("CARTHAGE", "EGYPT", "MACEDON", "ROME", "SYRIA"))
    assert "The first phase is B.C. 273 Movement." in judge.inbox("rome@pj.test")[-1].body
    seen = []
    for _ in range(3):
        judge.send(GM, "SIGNON Mc1 masterpw\nPROCESS!\n")
        seen.append(re.search(r"in (B\.C\. [0-9]+ \w+)\.", judge.last_reply(GM)).group(1))
    assert seen == ["B.C. 272 Movement", "B.C. 271 Movement", "B.C. 270 Movement"]
    _no_standard_names([m for m in judge.sent if "c1" in m.subject or m.kind != "reply"])


def test_pictures_are_titled_as_the_map_names_the_phase(monkeypatch):
    """The picture's title (drawn on it) is the map's name of the phase; the standard
    map's is the one it always had."""
    drawn: list[str] = []
    monkeypatch.setattr(pictures, "png", lambda text, zoom=1.0: drawn.append(text) or b"PNG")
    monkeypatch.setattr(pictures, "_MEMORY", OrderedDict())  # drawn here, not found drawn before
    for name, title in (("hundred", "A.D. 1425 Movement"), ("standard", "Spring 1901 Movement")):
        game_map = load_variant(name, DPJUDGE / "maps")
        Pictures(None, None).png(game_map, Position.initial(game_map), None)  # the schematic picture
        assert f">{title}<" in drawn[-1]


def test_an_exchange_game_on_hundred_ends_by_end_in_the_maps_years(database, tmp_path):
    """Exchange Payola on hundred: the float is A.D. 1425 Exchange, the year's exchange
    A.D. 1430 Exchange, and `END 1430` (a year of the map) ends the game there."""
    judge = _judge(database, tmp_path)
    judge.send(
        GM, "CREATE hx masterpw\nRULE EXCHANGE\nMAP hundred\nINVESTORS 3\nCAPITAL 70\nEND 1430\nSIGNOFF\n"
    )
    for name in ("alice", "bob", "carol"):
        judge.send(f"{name}@pj.test", f"JOIN {name}@hx pw-{name}\n")
    welcome = [m.body for m in judge.inbox("alice@pj.test")]
    assert any("First phase:            A.D. 1425 Exchange (the float)" in b for b in welcome)
    judge.send("alice@pj.test", "SIGNON alice@hx pw-alice\nBUY 6 ENGLAND AT 5\n")
    assert "Exchange order for A.D. 1425 Exchange: buy up to 6 ENGLAND" in judge.last_reply("alice@pj.test")
    shown = []
    for _ in range(5):
        judge.send(GM, "SIGNON Mhx masterpw\nPROCESS!\n")
        shown.append(re.search(r"\n  (A\.D\. [0-9]+ \w+) has been processed", judge.last_reply(GM)).group(1))
    assert shown == [
        "A.D. 1425 Exchange",
        "A.D. 1425 Movement",
        "A.D. 1430 Movement",
        "A.D. 1430 Adjustments",
        "A.D. 1430 Exchange",
    ]
    mails = list(judge.sent)
    _no_standard_names(mails)
    assert {"Exchange results hx A1425X", "Exchange results hx A1430X"} <= _subjects(mails, "results")
    assert any("That was the last exchange phase (END 1430): the game ends now." in m.body for m in mails)
    assert any("The game has played its last year, 1430 (END 1430)." in m.body for m in mails)
    with judge.db.transaction() as s:
        game = find_game(s, "hx")
        assert game.state == "completed" and game.result["year"] == 1430
