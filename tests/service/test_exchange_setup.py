"""Setting up an Exchange Payola game by mail (docs/exchange.md, "Setting up"): the CREATE
settings, investor seats at JOIN, the float opened at the start with capital and pools,
SIGNON as an investor, and FOR <company> for a CEO only (FOR ME back)."""

from __future__ import annotations

import dataclasses
import sys
from types import MappingProxyType

import pytest

from payjudge.game import money
from payjudge.game.state import GameState, find_game
from payjudge.rules import flag_registry
from payjudge.rules.flags import Flag
from payjudge.store import repo

from .judge import TestJudge

GM = "gm@pj.test"
INVESTORS = ("ALICE", "BOB", "CAROL")
CREATE = "CREATE ex1 masterpw\nRULE EXCHANGE\nINVESTORS 3\nSHARES 10\nCAPITAL 70\nFLOAT 2\nSIGNOFF\n"


@pytest.fixture(autouse=True)
def exchange_allowed(monkeypatch):
    """EXCHANGE is `not yet` in the registry until the whole game is played by mail
    (issue 12): these tests of its pieces let CREATE accept it."""
    old = flag_registry.REGISTRY
    table = dict(old)
    table[Flag.EXCHANGE] = dataclasses.replace(table[Flag.EXCHANGE], status=flag_registry.Status.SUPPORTED)
    new = MappingProxyType(table)
    for module in list(sys.modules.values()):
        if module is not None and module.__name__.startswith("payjudge"):
            for name, value in list(vars(module).items()):
                if value is old:
                    monkeypatch.setattr(module, name, new)


def addr(name: str) -> str:
    return f"{name.lower()}@pj.test"


def signon(name: str) -> str:
    return f"SIGNON {name.lower()}@ex1 pw-{name.lower()}"


def send(judge: TestJudge, name: str, body: str) -> str:
    judge.send(addr(name), f"{signon(name)}\n{body}\n")
    return judge.last_reply(addr(name))


def set_ceo(judge: TestJudge, company: str, ceo: str) -> None:
    """Give `company` a CEO in the open turn's market snapshot (the elections that give CEOs
    by mail are the exchange phase's, tested with the whole game)."""
    with judge.db.transaction() as s:
        st = GameState(s, find_game(s, "ex1"))
        turn = st.turn
        assert turn is not None and turn.market is not None
        turn.market = {**turn.market, "ceos": {**turn.market["ceos"], company: ceo}}


def start(judge: TestJudge, create: str = CREATE) -> None:
    judge.send(GM, create)
    assert "has been created" in judge.last_reply(GM), judge.last_reply(GM)
    for name in INVESTORS:
        judge.send(addr(name), f"JOIN {name.lower()}@ex1 pw-{name.lower()}\n")
        assert f"as {name}" in judge.last_reply(addr(name)), judge.last_reply(addr(name))


def test_investors_join_and_the_float_opens(database):
    judge = TestJudge(database)
    start(judge)
    with database.transaction() as s:
        st = GameState(s, find_game(s, "ex1"))
        assert str(st.game.phase) == "W1900X" and st.game.state == "active"
        balances = money.balances(s, st.game)
        # companies: their rule 2.1 opening treasuries; investors: CAPITAL
        assert balances["FRANCE"] == 48 and balances["RUSSIA"] == 62
        assert all(balances[f"@{n}"] == 70 for n in INVESTORS)
        held = repo.holdings(s, st.game)
        assert held[("FRANCE", "FRANCE")] == 10 and not any(h.startswith("@") for _, h in held)
        turn = st.turn
        assert turn is not None and turn.market is not None
        assert turn.market["last_prices"]["FRANCE"] == 2  # the FLOAT reserve
        assert turn.market["worths"]["PAR"] == 16
    welcome = [m for m in judge.inbox(addr("ALICE")) if m.kind == "welcome"]
    assert len(welcome) == 1 and "SIGNON alice@ex1" in welcome[0].body and "70 AgP" in welcome[0].body
    # nobody else's capital or name is private: the welcome names no other investor
    assert "BOB" not in welcome[0].body


def test_default_capital_splits_the_companies_opening_treasuries(database):
    judge = TestJudge(database)
    start(judge, "CREATE ex1 masterpw\nRULE EXCHANGE\nINVESTORS 3\nSIGNOFF\n")
    with database.transaction() as s:
        balances = money.balances(s, find_game(s, "ex1"))
        assert balances["@ALICE"] == 350 // 3


def test_settings_are_checked(database):
    judge = TestJudge(database)
    judge.send(GM, "CREATE ex1 masterpw\nINVESTORS 3\nSIGNOFF\n")
    assert "INVESTORS is a setting of Exchange games: add RULE EXCHANGE" in judge.last_reply(GM)
    judge.send(GM, "CREATE ex1 masterpw\nRULE EXCHANGE\nINVESTORS 1\nSHARES 0\nSIGNOFF\n")
    reply = judge.last_reply(GM)
    assert "INVESTORS needs a whole number from 2 to 20" in reply
    assert "SHARES needs a whole number from 1 to 1000" in reply


def test_investor_names_are_checked(database):
    judge = TestJudge(database)
    judge.send(GM, CREATE)
    judge.send(addr("x"), "JOIN ex1 pw-xxxxx\n")
    assert "write JOIN <your name>@ex1 <password>" in judge.last_reply(addr("x"))
    judge.send(addr("x"), "JOIN france@ex1 pw-xxxxx\n")
    assert "FRANCE cannot be an investor's name" in judge.last_reply(addr("x"))
    judge.send(addr("x"), "JOIN m@ex1 pw-xxxxx\n")
    assert "cannot be an investor's name" in judge.last_reply(addr("x"))
    judge.send(addr("ALICE"), "JOIN alice@ex1 pw-alice\n")
    judge.send(addr("y"), "JOIN Alice@ex1 pw-yyyyy\n")
    assert "ALICE is already taken in ex1" in judge.last_reply(addr("y"))


def test_signon_as_investor_and_for_a_company_run(database):
    judge = TestJudge(database)
    start(judge)
    reply = send(judge, "ALICE", "")
    assert "Signed on to ex1" in reply and "ERRORS" not in reply
    judge.send(addr("ALICE"), "SIGNON alice@ex1 wrong-pw\n")
    assert "invalid power or password for ex1" in judge.last_reply(addr("ALICE"))
    judge.send(addr("ALICE"), "SIGNON Fex1 pw-alice\n")
    assert "in an Exchange game sign on as yourself" in judge.last_reply(addr("ALICE"))
    assert "FRANCE has no CEO" in send(judge, "ALICE", "FOR FRANCE")
    set_ceo(judge, "FRANCE", "BOB")
    assert "you are not the CEO of FRANCE (its CEO is BOB)" in send(judge, "ALICE", "FOR FRANCE")
    reply = send(judge, "BOB", "FOR FRANCE\nFOR ME")
    assert "act for FRANCE" in reply and "act for yourself" in reply and "ERRORS" not in reply
