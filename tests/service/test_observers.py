"""Abuse through observers, broadcasts and CREATE (issue 26), played by mail on SQLite and
PostgreSQL: an observer's address must answer the code mailed to it before the judge sends
it anything or accepts anything from it; a game has a cap on observers; broadcasts and
CREATEs are limited per hour; observers may not take names that read as a power, the
Master or the judge, and their press says it is an observer's."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from .judge import TestJudge
from .test_game import GM, addr, signon, start_game

pytestmark = pytest.mark.timeout(300)


def _code(judge: TestJudge, address: str) -> str:
    found = re.search(r"CONFIRM \S+ (\S+)", judge.last_reply(address))
    assert found, judge.last_reply(address)
    return found.group(1)


def _broadcast(judge: TestJudge, sender: str, opener: str, text: str) -> str:
    judge.send(sender, f"{opener}\nBROADCAST\n{text}\nENDPRESS\n")
    return judge.last_reply(sender)


def test_a_forged_observer_gets_one_reply_and_nothing_more(database):
    # issue 26: three mails made the judge mail 87 times to 29 made-up addresses
    judge = TestJudge(database)
    start_game(judge)
    victims = [f"victim{i}@elsewhere.test" for i in range(29)]
    for i, victim in enumerate(victims):
        judge.send(victim, f"OBSERVE spam{i}@pay7 spampw\n")
    judge.send(victims[0], "SIGNON spam0@pay7 spampw\nBROADCAST\nbuy now\nENDPRESS\n")
    assert "has not confirmed its address" in judge.last_reply(victims[0])
    _broadcast(judge, addr("FRANCE"), signon("FRANCE"), "Hello all")
    judge.send(GM, "SIGNON Mpay7 masterpw\nPROCESS!\n")  # results go to every observer
    for victim in victims:
        mails = judge.inbox(victim)
        assert [m.kind for m in mails] == ["reply"] * (2 if victim == victims[0] else 1), victim
    assert not any("buy now" in m.body for m in judge.sent)


def test_an_observer_is_mailed_once_its_address_confirms_the_code(database):
    judge = TestJudge(database)
    start_game(judge)
    watcher = "watcher@pj.test"
    judge.send(watcher, "OBSERVE watcher@pay7 watchpw\n")
    reply = judge.last_reply(watcher)
    assert "send this line to the judge from it" in reply and "watchpw" not in reply
    code = _code(judge, watcher)
    _broadcast(judge, addr("FRANCE"), signon("FRANCE"), "before")
    assert judge.inbox(watcher, clear=False)[-1].kind == "reply"  # no press yet

    judge.send("thief@pj.test", f"CONFIRM watcher@pay7 {code}\n")  # the code, from elsewhere
    assert "waits for a confirmation from thief@pj.test" in judge.last_reply("thief@pj.test")
    judge.send(watcher, "CONFIRM watcher@pay7 aaaabbbbccccdddd\n")
    assert "not the code mailed" in judge.last_reply(watcher)
    judge.send(watcher, f"CONFIRM watcher@pay7 {code}\n")
    assert "You observe game pay7 as WATCHER" in judge.last_reply(watcher)
    judge.inbox(watcher)

    _broadcast(judge, addr("FRANCE"), signon("FRANCE"), "after")
    [press] = judge.inbox(watcher)
    assert press.kind == "press" and "after" in press.body
    reply = _broadcast(judge, watcher, "SIGNON watcher@pay7 watchpw", "from the stands")
    assert "ERRORS" not in reply, reply


def test_a_code_expires_and_the_name_is_free_again(database):
    judge = TestJudge(database)
    start_game(judge)
    judge.send("first@pj.test", "OBSERVE gallery@pay7 firstpw\n")
    code = _code(judge, "first@pj.test")
    judge.send("second@pj.test", "OBSERVE gallery@pay7 secondpw\n")
    assert "already taken" in judge.last_reply("second@pj.test")
    judge.clock.advance(days=3)
    judge.send("first@pj.test", f"CONFIRM gallery@pay7 {code}\n")
    assert "has expired" in judge.last_reply("first@pj.test")
    judge.send("second@pj.test", "OBSERVE gallery@pay7 secondpw\n")
    judge.send("second@pj.test", f"CONFIRM gallery@pay7 {_code(judge, 'second@pj.test')}\n")
    assert "You observe game pay7 as GALLERY" in judge.last_reply("second@pj.test")


def test_a_game_has_at_most_observers_per_game(database):
    judge = TestJudge(database)
    judge.config = replace(judge.config, observers_per_game=3)
    start_game(judge)  # kibitz, confirmed
    for name in ("one", "two"):  # waiting to confirm: they count
        judge.send(f"{name}@pj.test", f"OBSERVE {name}@pay7 watchpw\n")
        assert "CONFIRM" in judge.last_reply(f"{name}@pj.test")
    judge.send("three@pj.test", "OBSERVE three@pay7 watchpw\n")
    assert "pay7 has 3 observers, the most this judge allows" in judge.last_reply("three@pj.test")
    judge.clock.advance(days=3)  # the two never confirmed: their places are free again
    judge.send("three@pj.test", "OBSERVE three@pay7 watchpw\n")
    assert "CONFIRM three@pay7" in judge.last_reply("three@pj.test")


def test_broadcasts_are_limited_per_author_and_hour_observers_included(database):
    judge = TestJudge(database)
    judge.config = replace(judge.config, broadcasts_per_hour=2)
    start_game(judge)
    for who, opener in ((addr("FRANCE"), signon("FRANCE")), ("kibitz@pj.test", "SIGNON kibitz@pay7 watchpw")):
        assert "ERRORS" not in _broadcast(judge, who, opener, "one")
        assert "ERRORS" not in _broadcast(judge, who, opener, "two")
        refused = _broadcast(judge, who, opener, "three")
        assert "2 broadcasts in pay7 within the hour" in refused, refused
    assert not any("three" in m.body for m in judge.sent if m.kind == "press")
    judge.clock.advance(hours=1)
    assert "ERRORS" not in _broadcast(judge, addr("FRANCE"), signon("FRANCE"), "four")


@pytest.mark.parametrize("name", ["FRANCE_", "MASTER-", "JUDGE", "french", "Fr-ance", "GM", "payjudge"])
def test_names_that_read_as_a_power_the_master_or_the_judge_are_reserved(database, name):
    judge = TestJudge(database)
    start_game(judge)
    judge.send("mask@pj.test", f"OBSERVE {name}@pay7 maskpw\n")
    assert "cannot be an observer's name in pay7" in judge.last_reply("mask@pj.test")


def test_observer_press_says_it_is_an_observers(database):
    judge = TestJudge(database)
    start_game(judge, rules="WHITE_GREY FAKE_PRESS")
    judge.inbox(addr("ITALY"))
    _broadcast(judge, "kibitz@pj.test", "SIGNON kibitz@pay7 watchpw", "open letter")
    judge.send("kibitz@pj.test", "SIGNON kibitz@pay7 watchpw\nBROADCAST GREY\nunsigned\nENDPRESS\n")
    judge.send("kibitz@pj.test", "SIGNON kibitz@pay7 watchpw\nBROADCAST FAKE AS FRANCE\nforged\nENDPRESS\n")
    assert "an observer's press always shows the observer" in judge.last_reply("kibitz@pj.test")
    signed, grey = [m for m in judge.inbox(addr("ITALY")) if m.kind == "press"]
    assert signed.subject == "Diplomacy press from Kibitz (observer) in pay7"
    assert signed.body.startswith("Message from Kibitz (observer) to everyone")
    assert grey.body.startswith("Message from Anonymous (observer) to everyone")


def test_create_is_limited_per_sender_and_in_all_per_hour(database):
    judge = TestJudge(database)
    judge.config = replace(judge.config, create_per_sender_per_hour=2, create_per_hour=3)

    def create(sender: str, name: str) -> str:
        judge.send(sender, f"CREATE {name} masterpw\nSIGNOFF\n")
        return judge.last_reply(sender)

    assert "has been created" in create("a@pj.test", "g1")
    assert "has been created" in create("a@pj.test", "g2")
    assert "a@pj.test has created 2 games within the hour" in create("a@pj.test", "g3")
    assert "has been created" in create("b@pj.test", "g4")
    assert "3 games were created on this judge within the hour" in create("c@pj.test", "g5")
    judge.clock.advance(hours=1)
    assert "has been created" in create("c@pj.test", "g5")
