"""An Exchange Payola game played by mail through a whole year (issue 12, "Done when"):
three investors join, the float W1900X, Spring and Fall 1901 with CEOs' company sheets and
investors' private bribes, the winter, Winter 1901 Exchange with a dividend, trades and a
contested election that changes FRANCE's CEO, then Spring 1902 run by the new CEO.

After every phase: the money invariant (every entry kind but income, bribes and the
opening ones sums to zero within its phase; no balance negative), the share invariant
(each company's pool and holdings make its SHARES; none negative). Privacy: no investor's
mail holds another's orders, votes, sheet comments or statements; observers get only
public mail."""

from __future__ import annotations

import shutil
import tempfile
from collections import defaultdict
from pathlib import Path

from payjudge.game import money
from payjudge.game.state import GameState, find_game
from payjudge.service.replay import replay
from payjudge.store import repo
from payjudge.store.db import Database, upgrade

from .judge import Mail, TestJudge

GM = "gm@pj.test"
OBSERVER = "kibitz@pj.test"
INVESTORS = ("ALICE", "BOB", "CAROL")
SHARES = 10
# entry kinds that change the sum of all balances (docs/exchange.md, "The money invariant")
MONEY_IN_OUT = {"income", "bribes", "opening", "capital", "rollback"}


def addr(name: str) -> str:
    return f"{name.lower()}@pj.test"


def send(judge: TestJudge, name: str, body: str) -> str:
    judge.send(addr(name), f"SIGNON {name.lower()}@ex1 pw-{name.lower()}\n{body}\n")
    reply = judge.last_reply(addr(name))
    return reply


def ok(judge: TestJudge, name: str, body: str) -> str:
    reply = send(judge, name, body)
    assert "ERRORS" not in reply, reply
    return reply


def phase_of(judge: TestJudge) -> str:
    with judge.db.transaction() as s:
        return str(find_game(s, "ex1").phase)


def market(judge: TestJudge) -> dict:
    with judge.db.transaction() as s:
        return GameState(s, find_game(s, "ex1")).market() or {}


def holdings(judge: TestJudge) -> dict[tuple[str, str], int]:
    with judge.db.transaction() as s:
        return {k: n for k, n in repo.holdings(s, find_game(s, "ex1")).items() if n}


def balances(judge: TestJudge) -> dict[str, int]:
    with judge.db.transaction() as s:
        return {str(k): v for k, v in money.balances(s, find_game(s, "ex1")).items()}


def bribes(judge: TestJudge, phase: str) -> int:
    with judge.db.transaction() as s:
        entries = repo.ledger_entries(s, find_game(s, "ex1"))
        return sum(e.amount for e in entries if str(e.kind) == "bribes" and str(e.phase) == phase)


def check_invariants(judge: TestJudge) -> None:
    with judge.db.transaction() as s:
        game = find_game(s, "ex1")
        by_turn: dict[int, int] = defaultdict(int)
        for e in repo.ledger_entries(s, game):
            if str(e.kind) not in MONEY_IN_OUT:
                by_turn[e.turn_seq] += e.amount
        assert all(total == 0 for total in by_turn.values()), dict(by_turn)
        assert all(v >= 0 for v in money.balances(s, game).values())
        held: dict[str, int] = defaultdict(int)
        for (company, _holder), n in repo.holdings(s, game).items():
            assert n >= 0
            held[company] += n
        assert set(held.values()) == {SHARES}, dict(held)


def advance(judge: TestJudge, expected: str) -> None:
    """Let the deadline path take the phase (everyone required has sent: processed early)."""
    judge.tick(minutes=1)
    assert phase_of(judge) == expected, f"now {phase_of(judge)}, expected {expected}"
    check_invariants(judge)


def master(judge: TestJudge, body: str) -> str:
    judge.send(GM, f"SIGNON Mex1 masterpw\n{body}\n")
    return judge.last_reply(GM)


def test_an_exchange_game_through_a_year_by_mail(database):
    judge = TestJudge(database)
    judge.send(GM, "CREATE ex1 masterpw\nRULE EXCHANGE\nINVESTORS 3\nCAPITAL 70\nSHARES 10\nSIGNOFF\n")
    assert "has been created" in judge.last_reply(GM)
    judge.observe(OBSERVER, "kibitz@ex1", "watchpw")
    for name in INVESTORS:
        judge.send(addr(name), f"JOIN {name.lower()}@ex1 pw-{name.lower()}\n")
    assert phase_of(judge) == "W1900X"
    check_invariants(judge)
    total = sum(balances(judge).values())
    assert total == 350 + 3 * 70

    # the float: every pool offers its 10 shares at 1 AgP
    ok(judge, "ALICE", "BUY 6 FRANCE AT 5\nBUY 3 ITALY AT 2\nVOTE CEO FRANCE ALICE")
    ok(judge, "BOB", "BUY 4 FRANCE AT 3\nBUY 5 GERMANY AT 2\nVOTE CEO GERMANY BOB")
    ok(judge, "CAROL", "BUY 5 GERMANY AT 3\nBUY 3 FRANCE AT 2")
    advance(judge, "S1901M")
    assert sum(balances(judge).values()) == total  # an exchange phase moves money, never makes it
    held = holdings(judge)
    # FRANCE: 13 asked for 10; at 3 exactly 10 are asked (ALICE 6, BOB 4): the price is 3
    assert held[("FRANCE", "@ALICE")] == 6 and held[("FRANCE", "@BOB")] == 4
    assert ("FRANCE", "@CAROL") not in held
    assert held[("GERMANY", "@BOB")] == 5 and held[("GERMANY", "@CAROL")] == 5
    ceos = market(judge)["ceos"]
    # FRANCE by ALICE's vote; ITALY to its only stockholder; GERMANY by BOB's 5 votes
    assert (ceos["FRANCE"], ceos["ITALY"], ceos["GERMANY"], ceos["ENGLAND"]) == (
        "ALICE",
        "ALICE",
        "BOB",
        None,
    )
    cash = balances(judge)
    assert cash["@ALICE"] == 70 - 6 * 3 - 3 * 1 and cash["FRANCE"] == 48 + 30

    # Spring 1901: the CEOs' company sheets, an investor's private bribe
    ok(
        judge,
        "ALICE",
        "FOR FRANCE\n% secret-of-ALICE\n2 : A PAR - BUR\n1 : F BRE - MAO\nFOR ITALY\n0 : A VEN H",
    )
    ok(judge, "BOB", "FOR GERMANY\n% secret-of-BOB\n3 : A MUN - RUH\n0 : F KIE - DEN")
    ok(judge, "CAROL", "% secret-of-CAROL\n4 : A MUN - BUR")
    before = balances(judge)
    advance(judge, "F1901M")
    after = balances(judge)
    # CAROL's 4 beat GERMANY's 3 for A MUN, and collided with FRANCE's A PAR - BUR
    assert after["@CAROL"] == before["@CAROL"] - 4
    # the money left the game as bribes, and only as bribes (booked in the ledger)
    assert sum(before.values()) - sum(after.values()) == -bribes(judge, "S1901M") > 0
    assert "you are not the CEO of FRANCE (its CEO is ALICE)" in send(judge, "CAROL", "FOR FRANCE")

    # Fall 1901: FRANCE takes POR and SPA
    ok(
        judge,
        "ALICE",
        "FOR FRANCE\n1 : A PAR - PIC\n1 : F MAO - POR\n1 : A MAR - SPA\nFOR ITALY\n0 : A VEN H",
    )
    ok(judge, "BOB", "FOR GERMANY\n0 : A MUN H\n0 : F DEN H")
    advance(judge, "W1901A")
    master(judge, "PROCESS!")  # the builds: civil-disorder defaults
    assert phase_of(judge) == "W1901X"
    check_invariants(judge)
    with database.transaction() as s:
        income = [e for e in repo.ledger_entries(s, find_game(s, "ex1")) if str(e.kind) == "income"]
        assert {str(e.power) for e in income} >= {"FRANCE", "GERMANY", "ITALY"}

    # Winter 1901 Exchange: FRANCE pays 2 a share; ALICE sells 2 to CAROL; CAROL and BOB
    # vote CAROL, who then holds 2 and has BOB's 4: 6 share-votes against ALICE's 4
    ok(judge, "ALICE", "SELL 2 FRANCE AT 4\nFOR FRANCE\nDIVIDEND 2\nWORTH PAR 19\nWORTH BRE 10")
    ok(judge, "BOB", "VOTE CEO FRANCE CAROL\nPASS")
    ok(judge, "CAROL", "BUY 2 FRANCE AT 6\nVOTE CEO FRANCE CAROL")
    before = balances(judge)
    judge.inbox(addr("BOB"))
    advance(judge, "S1902M")
    after = balances(judge)
    assert sum(after.values()) == sum(before.values())
    assert after["@BOB"] == before["@BOB"] + 4 * 2  # the dividend on BOB's 4 shares
    held = holdings(judge)
    assert held[("FRANCE", "@ALICE")] == 4 and held[("FRANCE", "@CAROL")] == 2
    assert "Shares held: FRANCE 4, ITALY 3" in ok(judge, "ALICE", "BALANCE")
    assert market(judge)["ceos"]["FRANCE"] == "CAROL"
    assert market(judge)["worths"]["PAR"] == 19
    bob = judge.inbox(addr("BOB"), clear=False)
    report = [m for m in bob if m.subject == "Annual stockholder report for FRANCE 1901"]
    assert len(report) == 1 and "CAROL" in report[0].body  # the new CEO, told to stockholders
    assert not [m for m in bob if m.subject == "Annual stockholder report for ITALY 1901"]

    # Spring 1902: the new CEO acts for FRANCE, the old one no longer can
    assert "you are not the CEO of FRANCE (its CEO is CAROL)" in send(judge, "ALICE", "FOR FRANCE")
    ok(judge, "CAROL", "FOR FRANCE\n% secret-of-CAROL\n1 : A PIC H")
    check_privacy(judge.sent)

    # the mail is the whole truth: replaying it rebuilds every phase and the money
    folder = Path(tempfile.mkdtemp())
    try:
        url = f"sqlite:///{folder / 'replay.sqlite'}"
        upgrade(url)
        target = Database(url)
        replayed = replay(database, target, "ex1", judge.config)
        assert replayed.ok, replayed.differences
        assert replayed.identical == replayed.phases >= 5
        target.dispose()
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    # ROLLBACK of the exchange phase restores money, shares and CEOs
    master(judge, "ROLLBACK W1901X")
    assert phase_of(judge) == "W1901X"
    assert balances(judge) == before and market(judge)["ceos"]["FRANCE"] == "ALICE"
    assert holdings(judge)[("FRANCE", "@ALICE")] == 6
    check_invariants(judge)


def check_privacy(mails: list[Mail]) -> None:
    """No investor reads another's secrets; observers read nothing private."""
    secrets = {
        "ALICE": ["secret-of-ALICE", "SELL 2 FRANCE AT 4", "VOTE CEO FRANCE ALICE", "BUY 6 FRANCE AT 5"],
        "BOB": ["secret-of-BOB", "BUY 4 FRANCE AT 3", "VOTE CEO GERMANY BOB"],
        "CAROL": ["secret-of-CAROL", "BUY 2 FRANCE AT 6", "BUY 5 GERMANY AT 3"],
    }
    for mail in mails:
        for name, marks in secrets.items():
            if addr(name) in mail.to:
                continue
            for mark in marks:
                assert mark not in mail.body or GM in mail.to, (mark, mail.to, mail.subject)
        if OBSERVER in mail.to:
            assert mail.kind not in ("statement", "report", "welcome", "income"), mail.subject
        private = mail.subject.startswith(("Exchange statement", "Payola bribe results", "Company statement"))
        if private:
            assert len([a for a in mail.to if a != GM]) == 1, mail.subject


def test_the_game_ends_by_the_calendar_and_the_companies_are_liquidated(database):
    judge = TestJudge(database)
    create = "CREATE ex1 masterpw\nRULE EXCHANGE\nINVESTORS 3\nCAPITAL 70\nEND 1900\nSIGNOFF\n"
    judge.send(GM, create)
    for name in INVESTORS:
        judge.send(addr(name), f"JOIN {name.lower()}@ex1 pw-{name.lower()}\n")
    ok(judge, "ALICE", "BUY 6 FRANCE AT 5")
    ok(judge, "BOB", "BUY 4 FRANCE AT 3")
    ok(judge, "CAROL", "BUY 10 GERMANY AT 1")
    total = sum(balances(judge).values())
    judge.tick(minutes=1)
    with database.transaction() as s:
        game = find_game(s, "ex1")
        assert game.state == "completed"
        assert game.result["type"] == "calendar"
        ranking = [(r["place"], r["investor"], r["net_worth"]) for r in game.result["ranking"]]
    cash = balances(judge)
    assert sum(cash.values()) == total  # the liquidation only moves money
    # FRANCE's 48 + 30 paid out 6:4; GERMANY's 48 + 10 all to CAROL
    assert cash["FRANCE"] == 78 - 78 * 6 // 10 - 78 * 4 // 10 and cash["GERMANY"] == 0
    assert cash["@CAROL"] == 70 - 10 + 58
    assert ranking[0] == (1, "CAROL", 118)
    end = [m for m in judge.inbox(addr("BOB")) if m.kind == "game_end"]
    assert len(end) == 1 and "1. CAROL" in end[0].body and "(wins)" in end[0].body


def test_every_investor_votes_end_and_the_game_ends(database):
    judge = TestJudge(database)
    judge.send(GM, "CREATE ex1 masterpw\nRULE EXCHANGE\nINVESTORS 3\nCAPITAL 70\nSIGNOFF\n")
    for name in INVESTORS:
        judge.send(addr(name), f"JOIN {name.lower()}@ex1 pw-{name.lower()}\n")
    assert "in an Exchange game investors vote VOTE END" in send(judge, "ALICE", "VOTE DRAW")
    ok(judge, "ALICE", "BUY 10 FRANCE AT 2\nVOTE END")
    ok(judge, "BOB", "VOTE END")
    ok(judge, "CAROL", "VOTE END\nVOTE CONTINUE")
    with database.transaction() as s:
        assert find_game(s, "ex1").state == "active"
    reply = ok(judge, "CAROL", "VOTE END")
    assert "every investor voted to end it" in reply
    with database.transaction() as s:
        game = find_game(s, "ex1")
        assert game.state == "completed" and game.result["type"] == "investors"
        # nothing traded yet: every investor's net worth is its capital
        assert {r["net_worth"] for r in game.result["ranking"]} == {70}
    check_invariants(judge)
