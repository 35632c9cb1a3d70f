"""The table of press rules (game/press_rules.py): which flags make each check apply.

The checks themselves are played by mail in test_press_flags.py; this holds the table to
what seed 003 §1.2 says of the flags together."""

from __future__ import annotations

from payjudge.game.press_rules import RULES, PressRule
from payjudge.payola.rules import PayolaRules
from payjudge.rules.flags import Flag


def _rule(name: str) -> PressRule:
    (rule,) = [r for r in RULES if getattr(r.check, "__name__", "") == name]
    return rule


def _applies(name: str, *flags: Flag) -> bool:
    return _rule(name).applies(PayolaRules(flags=frozenset(flags)))


def test_public_press_alone_allows_only_broadcasts_beside_touch_or_remote_press_adds_them():
    assert _applies("_public_only", Flag.PUBLIC_PRESS)
    assert not _applies("_public_only", Flag.PUBLIC_PRESS, Flag.TOUCH_PRESS)
    assert not _applies("_public_only", Flag.PUBLIC_PRESS, Flag.REMOTE_PRESS)
    assert not _applies("_public_only")


def test_checks_of_a_missing_flag_apply_until_the_flag_is_set():
    assert _applies("_late_send") and not _applies("_late_send", Flag.LATE_SEND)
    assert _applies("_fake") and not _applies("_fake", Flag.FAKE_PRESS)
    assert _applies("_grey")
    assert not _applies("_grey", Flag.WHITE_GREY) and not _applies("_grey", Flag.GREY_PRESS)


def test_every_press_flag_the_checks_read_is_in_the_table():
    named = set().union(*(rule.when | rule.unless for rule in RULES))
    assert {
        Flag.NO_PRESS,
        Flag.MUTE_OBSERVERS,
        Flag.BACKSEAT_PRESS,
        Flag.PUBLIC_PRESS,
        Flag.TOUCH_PRESS,
        Flag.REMOTE_PRESS,
        Flag.FTF_PRESS,
        Flag.MUST_ORDER,
        Flag.LATE_SEND,
        Flag.NO_LATE_RECEIVE,
        Flag.WHITE_GREY,
        Flag.GREY_PRESS,
        Flag.FAKE_PRESS,
    } <= named
