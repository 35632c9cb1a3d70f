"""An Exchange game set up and played from HELP and the replies alone (issue 28, item 2):
the CREATE reply names the investors' seats and the JOIN form; HELP lists every Exchange
command and setting; the exchange results name the next phase and its deadline; SUMMARY
shows each company's CEO and shares held; statements, BALANCE and the end of the game
name investors, never their account keys (`@ALICE`), in words a player reads; `payjudge
game show` shows investors' cash and holdings."""

from __future__ import annotations

import re

from click.testing import CliRunner

from payjudge.cli import main
from payjudge.commands.base import REGISTRY
from payjudge.game.context import REPLY_LIMITS, Note
from payjudge.game.lifecycle import EXCHANGE_SETTINGS
from payjudge.game.notes.player import BalanceReport, LedgerRow
from payjudge.rules.phase import Phase
from payjudge.store.db import Database
from payjudge.templating import render
from payjudge.vocabulary import LedgerKind
from tests.dbfix import migrated_sqlite

from .judge import TestJudge

GM = "gm@pj.test"
INVESTORS = ("ALICE", "BOB", "CAROL")
CREATE = "CREATE ex1 masterpw\nRULE EXCHANGE\nINVESTORS 3\nCAPITAL 70\nSIGNOFF\n"


def addr(name: str) -> str:
    return f"{name.lower()}@pj.test"


def send(judge: TestJudge, name: str, body: str) -> str:
    judge.send(addr(name), f"SIGNON {name.lower()}@ex1 pw-{name.lower()}\n{body}\n")
    reply = judge.last_reply(addr(name))
    assert "ERRORS" not in reply, reply
    return reply


def start(judge: TestJudge) -> None:
    judge.send(GM, CREATE)
    for name in INVESTORS:
        judge.send(addr(name), f"JOIN {name.lower()}@ex1 pw-{name.lower()}\n")


def float_and_spring(judge: TestJudge) -> None:
    """The float (ALICE buys FRANCE and is its CEO), then ALICE's private sheet in S1901M."""
    start(judge)
    send(judge, "ALICE", "BUY 6 FRANCE AT 5\nVOTE CEO FRANCE ALICE")
    send(judge, "BOB", "BUY 5 GERMANY AT 2")
    send(judge, "CAROL", "PASS")
    judge.sent.clear()
    judge.tick(minutes=1)


def test_create_reply_states_the_investor_seats_and_the_join_form(database):
    judge = TestJudge(database)
    judge.send(GM, CREATE)
    reply = judge.last_reply(GM)
    assert "with 3 investor seats" in reply and "7 seats" not in reply
    assert "JOIN <name>@ex1 <password>" in reply and "INVEST <name>@ex1 <password>" in reply
    assert "JOIN ex1 <password>" not in reply
    # the form the reply gives is the form the judge takes
    judge.send(addr("ALICE"), "JOIN alice@ex1 pw-alice\n")
    assert "You have joined game ex1 as ALICE" in judge.last_reply(addr("ALICE"))


def test_help_has_every_exchange_command_and_setting(database):
    judge = TestJudge(database)
    judge.send("new@pj.test", "HELP\n")
    reply = judge.last_reply("new@pj.test")
    exchange = reply[reply.index("Exchange Payola (RULE EXCHANGE)") :]
    for key in EXCHANGE_SETTINGS:
        assert re.search(rf"^ +{key} <", exchange, re.M), key
    assert "EXCHANGE <length>" in exchange  # the TIMING key of exchange phases
    for handler in REGISTRY.values():
        if handler.exchange_only:
            assert handler.syntax in exchange, handler.keyword
        for syntax, _summary in handler.exchange:
            assert syntax in exchange, handler.keyword
    for form in ("JOIN <name>@<game> <password>", "INVEST <name>@<game> <password>", "VOTE CEO", "VOTE END"):
        assert form in exchange, form
    assert "FOR <company>  or  FOR ME" in exchange and "SIGNON <name>@<game>" in exchange


def test_exchange_results_name_the_next_phase_and_its_deadline(database):
    judge = TestJudge(database)
    float_and_spring(judge)
    results = [m for m in judge.inbox(addr("BOB")) if m.kind == "results"]
    assert len(results) == 1
    assert "The next phase is Spring 1901 Movement. The deadline is " in results[0].body
    assert re.search(r"The deadline is \w{3} \d\d \w{3} \d{4} \d\d:\d\d UTC", results[0].body)


def test_the_last_exchange_results_say_the_game_ends(database):
    judge = TestJudge(database)
    judge.send(GM, CREATE.replace("SIGNOFF", "END 1900\nSIGNOFF"))
    for name in INVESTORS:
        judge.send(addr(name), f"JOIN {name.lower()}@ex1 pw-{name.lower()}\n")
    for name in INVESTORS:
        send(judge, name, "PASS")
    judge.sent.clear()
    judge.tick(minutes=1)
    results = [m for m in judge.inbox(addr("BOB"), clear=False) if m.kind == "results"]
    assert "That was the last exchange phase (END 1900): the game ends now." in results[0].body
    assert "The next phase" not in results[0].body


def test_summary_shows_each_companys_ceo_and_shares_held(database):
    judge = TestJudge(database)
    float_and_spring(judge)
    judge.send("x@pj.test", "SUMMARY ex1\n")
    reply = judge.last_reply("x@pj.test")
    assert re.search(r"FRANCE +ALICE +6 of 10 ", reply), reply
    assert re.search(r"GERMANY +BOB +5 of 10 ", reply), reply
    assert re.search(r"ENGLAND +none +0 of 10 ", reply), reply
    assert " open " not in reply
    assert "Investors: ALICE, BOB, CAROL" in reply


def test_statements_and_the_end_name_investors(database):
    judge = TestJudge(database)
    float_and_spring(judge)
    send(judge, "ALICE", "1 : A PAR - BUR")
    judge.send(GM, "SIGNON Mex1 masterpw\nPROCESS!\n")
    statement = [m for m in judge.inbox(addr("ALICE"), clear=False) if m.kind == "statement"]
    assert statement and statement[-1].body.startswith("Account statement of ALICE, Spring 1901")
    assert not any("@ALICE" in m.body for m in judge.sent)
    for name in INVESTORS:
        send(judge, name, "VOTE END")
    ended = [m for m in judge.inbox(addr("BOB")) if m.kind == "game_end"]
    assert len(ended) == 1
    body = ended[0].body
    treasuries = body[body.index("Final treasuries:") :]
    assert "@" not in treasuries
    assert re.search(r"^  ALICE +\d+ AgP\r?$", treasuries, re.M), treasuries
    # the companies first, then the investors
    assert treasuries.index("TURKEY") < treasuries.index("ALICE")
    # SUMMARY of the game over says who won (it was set aside: the result has no `winner`)
    judge.send("x@pj.test", "SUMMARY ex1\n")
    assert re.search(r"Result: investors \(won by [A-Z, ]+\)", judge.last_reply("x@pj.test"))


def test_balance_words_every_ledger_kind_for_a_player():
    """Every entry kind reads as words in BALANCE, never as the ledger's key."""
    entries = [LedgerRow(Phase.parse("W1901X"), kind, 1, "FRANCE") for kind in LedgerKind]
    report = BalanceReport(
        power="ALICE",
        balance=0,
        sheet=None,
        phase=Phase.parse("W1901X"),
        movement=False,
        accept=None,
        shares={},
        entries=entries,
    )
    note = Note(report.note, 1, report)
    text = render("notes/balance.txt.j2", note=note, limits=REPLY_LIMITS)
    assert "_" not in text  # dividend_in, transfer_out, …
    for words in ("starting capital", "dividend from", "dividend paid", "bought shares of", "sold shares of"):
        assert words in text, words
    assert "liquidation of FRANCE" in text and "adjusted by the Master" in text


def test_game_show_lists_investors_cash_and_holdings(tmp_path, monkeypatch):
    url = migrated_sqlite(tmp_path / "payjudge.sqlite")
    db = Database(url)
    float_and_spring(TestJudge(db))
    db.dispose()
    monkeypatch.setenv("PAYJUDGE_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("PAYJUDGE_DB_URL", url)
    monkeypatch.setenv("PAYJUDGE_SMTP_LISTEN", "")
    shown = CliRunner().invoke(main, ["game", "show", "ex1"])
    assert shown.exit_code == 0, shown.output
    alice = next(line for line in shown.output.splitlines() if "ALICE" in line and "alice@pj.test" in line)
    assert re.search(r" 64 AgP +FRANCE 6$", alice), alice  # 70, less 6 shares at 1
    carol = next(line for line in shown.output.splitlines() if "carol@pj.test" in line)
    assert re.search(r" 70 AgP +no shares$", carol), carol
    france = next(line for line in shown.output.splitlines() if line.strip().startswith("FRANCE"))
    assert "CEO ALICE" in france and "6 of 10 shares held" in france and " 54 AgP" in france
