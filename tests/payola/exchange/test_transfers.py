"""Transfers with investors (rule 2.3 in Exchange Payola, docs/exchange.md choice 13): an
investor gives to anyone, a company to companies only, an investor is never eliminated,
and no transfer makes or loses money."""

from __future__ import annotations

import pytest

from payjudge.payola.rules import PayolaRules
from payjudge.payola.transfers import Transfer, apply_transfer, check_transfer, giver_label
from payjudge.rules.mapfile import load_variant
from payjudge.rules.names import PowerName
from payjudge.rules.position import Position

START = Position.initial(load_variant("standard"))
INVESTORS = (PowerName("@ALICE"), PowerName("@BOB"))
RULES = PayolaRules.from_flags(["EXCHANGE"])


def check(sender: str, recipient: str, amount: int = 5, balance: int = 50, **kw) -> str | None:
    rules = kw.pop("rules", RULES)
    return check_transfer(
        rules, START, PowerName(sender), PowerName(recipient), amount, balance, investors=INVESTORS, **kw
    )


@pytest.mark.parametrize("sender, recipient", [("@ALICE", "@BOB"), ("@ALICE", "FRANCE"), ("FRANCE", "ITALY")])
def test_allowed(sender, recipient):
    assert check(sender, recipient) is None
    after = apply_transfer({sender: 50, recipient: 7}, Transfer(PowerName(sender), PowerName(recipient), 5))
    assert after == {sender: 45, recipient: 12}  # moved, not made


@pytest.mark.parametrize(
    "sender, recipient, amount, why",
    [
        ("FRANCE", "@ALICE", 5, "a company pays investors only by DIVIDEND"),
        ("@ALICE", "@ALICE", 5, "you cannot transfer money to yourself"),
        ("@ALICE", "@CAROL", 5, "unknown power '@CAROL'"),
        ("@ALICE", "@BOB", 51, "you hold only 50 AgP"),
        ("FRANCE", "ITALY", 51, "the treasury holds only 50 AgP"),
        ("@ALICE", "@BOB", 0, "the amount must be a whole number of AgP, at least 1"),
        ("@ALICE", "@BOB", -3, "the amount must be a whole number of AgP, at least 1"),
    ],
)
def test_refused(sender, recipient, amount, why):
    assert check(sender, recipient, amount) == why


def test_investors_without_the_investors_are_unknown():
    assert (
        check_transfer(RULES, START, PowerName("@ALICE"), PowerName("FRANCE"), 5, 50)
        == "unknown power '@ALICE'"
    )


def test_flags_apply_to_investors_by_name():
    donations = PayolaRules.from_flags(["EXCHANGE", "NO_DONATIONS"])
    assert check("@ALICE", "@BOB", rules=donations) is None  # an investor owns no centre, and is no power
    one = PayolaRules.from_flags(["EXCHANGE", "ONE_TRANSFER"])
    assert check("@ALICE", "@BOB", rules=one, sent=["@BOB"]) == (
        "only one transfer to BOB is allowed per phase (ONE_TRANSFER)"
    )
    assert giver_label(RULES, PowerName("@ALICE")) == "ALICE"
    assert (
        giver_label(PayolaRules.from_flags(["EXCHANGE", "ANON_TRANSFER"]), PowerName("@ALICE")) == "SOMEONE"
    )
