"""The press flags of seed 003 §1.2, by mail: who may write to whom, what the players see of
the sender and the addressees, and what the Master is copied."""

from __future__ import annotations

from .judge import TestJudge
from .test_game import GM, OBSERVER, addr, signon, snapshot, start_game

MASTER_SIGNON = "SIGNON Mpay7 masterpw"


def _game(database, rules: str = "") -> TestJudge:
    judge = TestJudge(database)
    start_game(judge, rules)
    judge.sent.clear()
    return judge


def _press(judge: TestJudge, power: str, head: str, text: str = "hello there", *, orders: str = "") -> str:
    """Send press from `power` (or the observer, or the Master); the reply."""
    if power == "OBSERVER":
        sender, sign = OBSERVER, "SIGNON kibitz@pay7 watchpw"
    elif power == "MASTER":
        sender, sign = GM, MASTER_SIGNON
    else:
        sender, sign = addr(power), signon(power)
    judge.send(sender, f"{sign}\n{orders}{head}\n{text}\nENDPRESS\nSIGNOFF\n")
    return " ".join(judge.last_reply(sender).split())


def _press_mail(judge: TestJudge, address: str) -> list[str]:
    return [m.body for m in judge.inbox(address) if m.kind == "press"]


def _ok(reply: str) -> bool:
    return "NOT processed" not in reply and "Press sent" in reply


# -- without flags: the defaults these flags change ------------------------------------


def test_by_default_the_master_gets_broadcasts_but_not_private_press(database):
    judge = _game(database)
    assert _ok(_press(judge, "FRANCE", "PRESS TO GERMANY", "private words"))
    assert _press_mail(judge, addr("GERMANY"))
    assert not _press_mail(judge, GM)
    assert _ok(_press(judge, "FRANCE", "BROADCAST", "public words"))
    assert any("public words" in b for b in _press_mail(judge, GM))


def test_by_default_an_observer_may_broadcast(database):
    judge = _game(database)
    assert _ok(_press(judge, "OBSERVER", "BROADCAST", "from the gallery"))
    assert any("from the gallery" in b for b in _press_mail(judge, addr("ITALY")))


def test_grey_and_fake_are_refused_without_their_flags(database):
    judge = _game(database)
    assert "has no grey press (rule WHITE_GREY)" in _press(judge, "FRANCE", "PRESS TO GERMANY GREY")
    assert "has no fake press (rule FAKE_PRESS)" in _press(judge, "FRANCE", "PRESS TO G FAKE AS ITALY")
    assert not _press_mail(judge, addr("GERMANY"))


# -- anonymity --------------------------------------------------------------------------


def test_grey_press_hides_the_sender_from_everyone_but_the_master(database):
    judge = _game(database, "GREY_PRESS EAVESDROP")
    assert _ok(_press(judge, "FRANCE", "PRESS TO GERMANY", "who am I"))
    seen = _press_mail(judge, addr("GERMANY"))
    assert seen and "Message from Anonymous to Germany" in seen[0] and "France" not in seen[0]
    master = _press_mail(judge, GM)
    assert master and "France (shown as Anonymous)" in master[0]
    assert _ok(_press(judge, "FRANCE", "BROADCAST", "all of you"))
    assert "Message from Anonymous to everyone" in _press_mail(judge, addr("ITALY"))[0]


def test_yellow_press_hides_the_sender_of_broadcasts_only(database):
    judge = _game(database, "YELLOW_PRESS")
    assert _ok(_press(judge, "FRANCE", "BROADCAST", "all of you"))
    assert "Message from Anonymous to everyone" in _press_mail(judge, addr("ITALY"))[0]
    assert "France (shown as Anonymous)" in _press_mail(judge, GM)[0]
    assert _ok(_press(judge, "FRANCE", "PRESS TO ITALY", "just you"))
    assert "Message from France to Italy" in _press_mail(judge, addr("ITALY"))[0]


def test_white_grey_lets_a_player_choose_grey(database):
    judge = _game(database, "WHITE_GREY")
    assert _ok(_press(judge, "FRANCE", "PRESS TO ITALY GREY", "guess"))
    assert "Message from Anonymous to Italy" in _press_mail(judge, addr("ITALY"))[0]
    assert _ok(_press(judge, "FRANCE", "BROADCAST GREY", "guess again"))
    assert "Message from Anonymous to everyone" in _press_mail(judge, addr("ITALY"))[0]
    assert _ok(_press(judge, "FRANCE", "PRESS TO ITALY", "it is me"))
    assert "Message from France to Italy" in _press_mail(judge, addr("ITALY"))[0]


def test_fake_press_signs_as_another_power_and_claims_other_addressees(database):
    judge = _game(database, "FAKE_PRESS EAVESDROP")
    reply = _press(judge, "FRANCE", "PRESS TO GERMANY FAKE AS ITALY CLAIM TO GERMANY ENGLAND", "lies")
    assert _ok(reply)
    seen = _press_mail(judge, addr("GERMANY"))[0]
    assert "Message from Italy to Germany, England" in seen
    assert not _press_mail(judge, addr("ENGLAND")) and not _press_mail(judge, addr("ITALY"))
    master = _press_mail(judge, GM)[0]
    assert "France (shown as Italy) to Germany (shown as Germany, England)" in master
    assert _ok(_press(judge, "FRANCE", "BROADCAST FAKE AS TURKEY", "more lies"))
    assert "Message from Turkey to everyone" in _press_mail(judge, addr("RUSSIA"))[0]


# -- who may write ----------------------------------------------------------------------


def test_mute_observers_may_write_only_to_the_master(database):
    judge = _game(database, "MUTE_OBSERVERS")
    assert "observers may write only to the Master (rule MUTE_OBSERVERS)" in _press(
        judge, "OBSERVER", "BROADCAST"
    )
    assert "rule MUTE_OBSERVERS" in _press(judge, "OBSERVER", "PRESS TO FRANCE")
    assert not _press_mail(judge, addr("FRANCE"))
    assert _ok(_press(judge, "OBSERVER", "PRESS TO M", "to the Master"))
    assert _press_mail(judge, GM)


def test_backseat_press_mutes_the_powers_and_lets_observers_broadcast(database):
    judge = _game(database, "BACKSEAT_PRESS")
    assert "powers may write only to the Master (rule BACKSEAT_PRESS)" in _press(
        judge, "FRANCE", "PRESS TO GERMANY"
    )
    assert "rule BACKSEAT_PRESS" in _press(judge, "FRANCE", "BROADCAST")
    assert _ok(_press(judge, "FRANCE", "PRESS TO M", "to the Master"))
    assert "observers may only broadcast (rule BACKSEAT_PRESS)" in _press(
        judge, "OBSERVER", "PRESS TO FRANCE"
    )
    assert _ok(_press(judge, "OBSERVER", "BROADCAST", "advice"))
    assert any("advice" in b for b in _press_mail(judge, addr("FRANCE")))


def test_must_order_waits_for_the_powers_orders(database):
    judge = _game(database, "MUST_ORDER")
    assert "send your orders for this phase before writing to players (rule MUST_ORDER)" in _press(
        judge, "FRANCE", "PRESS TO GERMANY"
    )
    assert "rule MUST_ORDER" in _press(judge, "FRANCE", "BROADCAST")
    assert _ok(_press(judge, "FRANCE", "PRESS TO M"))
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\n0 : A PAR H\n")
    assert _ok(_press(judge, "FRANCE", "PRESS TO GERMANY"))
    assert _ok(_press(judge, "FRANCE", "BROADCAST"))


def _past_deadline(judge: TestJudge, *, ordered: tuple[str, ...]) -> None:
    for power in ordered:
        judge.send(addr(power), f"{signon(power)}\n0 : A {'PAR' if power == 'FRANCE' else 'BER'} H\n")
    judge.tick(days=10)
    judge.sent.clear()


def test_a_late_power_may_not_send_private_press_without_late_send(database):
    judge = _game(database)
    _past_deadline(judge, ordered=("FRANCE",))
    assert "your orders are late" in _press(judge, "GERMANY", "PRESS TO FRANCE")
    assert _ok(_press(judge, "GERMANY", "BROADCAST", "sorry, late"))
    assert _ok(_press(judge, "GERMANY", "PRESS TO M"))
    assert _ok(_press(judge, "FRANCE", "PRESS TO GERMANY", "hurry up"))


def test_late_send_lets_a_late_power_send_private_press(database):
    judge = _game(database, "LATE_SEND")
    _past_deadline(judge, ordered=("FRANCE",))
    assert _ok(_press(judge, "GERMANY", "PRESS TO FRANCE", "still talking"))
    assert _press_mail(judge, addr("FRANCE"))


def test_no_late_receive_protects_late_powers_from_private_press(database):
    judge = _game(database, "NO_LATE_RECEIVE")
    _past_deadline(judge, ordered=("FRANCE",))
    assert (
        "Germany is late with its orders and may not be sent private press (rule NO_LATE_RECEIVE)"
        in _press(judge, "FRANCE", "PRESS TO GERMANY")
    )
    assert _ok(_press(judge, "FRANCE", "BROADCAST", "everyone"))


def test_ftf_press_no_private_press_after_the_deadline(database):
    judge = _game(database, "FTF_PRESS")
    assert _ok(_press(judge, "FRANCE", "PRESS TO GERMANY", "before the deadline"))
    _past_deadline(judge, ordered=("FRANCE",))
    assert "no private press once the deadline has passed (rule FTF_PRESS)" in _press(
        judge, "FRANCE", "PRESS TO ITALY"
    )
    assert _ok(_press(judge, "FRANCE", "BROADCAST", "in public"))


# -- the Master's copies ----------------------------------------------------------------


def test_eavesdrop_copies_private_press_to_the_master(database):
    judge = _game(database, "EAVESDROP")
    assert _ok(_press(judge, "FRANCE", "PRESS TO GERMANY", "secret plan"))
    master = _press_mail(judge, GM)
    assert master and "secret plan" in master[0] and "Message from France to Germany" in master[0]
    assert "Message from France to Germany" in _press_mail(judge, addr("GERMANY"))[0]


def test_eavesdrop_is_hidden_from_listings_unless_written_with_the_bang(database):
    judge = _game(database, "EAVESDROP SILENT_JOIN")
    judge.send("new@pj.test", "SUMMARY pay7\n")
    reply = judge.last_reply("new@pj.test")
    assert "SILENT_JOIN" in reply and "EAVESDROP" not in reply
    judge.send(GM, "CREATE pay8 masterpw\nRULE EAVESDROP!\nTIMING MOVE 2D\nSIGNOFF\n")
    judge.send("new@pj.test", "SUMMARY pay8\n")
    assert "EAVESDROP!" in judge.last_reply("new@pj.test")


def test_press_master_keeps_broadcasts_from_the_master(database):
    judge = _game(database, "PRESS_MASTER")
    assert _ok(_press(judge, "FRANCE", "BROADCAST", "not for the GM"))
    assert not _press_mail(judge, GM)
    assert _ok(_press(judge, "FRANCE", "PRESS TO M", "for the GM"))
    assert _press_mail(judge, GM)


# -- TOUCH and REMOTE -------------------------------------------------------------------


def test_touch_press_only_to_powers_whose_units_could_support_each_other(database):
    judge = _game(database, "TOUCH_PRESS")
    # spring 1901: Italian A VEN could move to (so support a hold in) Austrian F TRI's Trieste;
    # no French unit could reach a Turkish one, nor the other way round
    assert _ok(_press(judge, "ITALY", "PRESS TO AUSTRIA", "neighbours"))
    assert _ok(_press(judge, "AUSTRIA", "PRESS TO ITALY", "neighbours"))
    assert "Turkey has no unit next to yours (rule TOUCH_PRESS)" in _press(judge, "FRANCE", "PRESS TO TURKEY")
    assert "allows no broadcasts (rule TOUCH_PRESS without PUBLIC_PRESS)" in _press(
        judge, "FRANCE", "BROADCAST"
    )


def test_touch_press_with_public_press_allows_broadcasts_and_touch_press(database):
    # seed 003 §1.2: beside TOUCH_PRESS, PUBLIC_PRESS adds broadcasts; private press stays
    # allowed to the neighbours TOUCH_PRESS names
    judge = _game(database, "TOUCH_PRESS PUBLIC_PRESS")
    assert _ok(_press(judge, "FRANCE", "BROADCAST", "hello all"))
    assert _ok(_press(judge, "ITALY", "PRESS TO AUSTRIA", "neighbours"))
    assert "Turkey has no unit next to yours (rule TOUCH_PRESS)" in _press(judge, "FRANCE", "PRESS TO TURKEY")


def test_remote_press_with_public_press_allows_broadcasts_and_remote_press(database):
    judge = _game(database, "REMOTE_PRESS PUBLIC_PRESS")
    assert _ok(_press(judge, "FRANCE", "BROADCAST", "hello all"))
    assert _ok(_press(judge, "FRANCE", "PRESS TO TURKEY", "far away"))
    assert "Austria is near your units or centres (rule REMOTE_PRESS)" in _press(
        judge, "ITALY", "PRESS TO AUSTRIA"
    )


def test_remote_press_only_to_powers_far_away(database):
    judge = _game(database, "REMOTE_PRESS")
    assert _ok(_press(judge, "FRANCE", "PRESS TO TURKEY", "far away"))
    assert "Austria is near your units or centres (rule REMOTE_PRESS)" in _press(
        judge, "ITALY", "PRESS TO AUSTRIA"
    )
    assert "rule REMOTE_PRESS without PUBLIC_PRESS" in _press(judge, "FRANCE", "BROADCAST")


def test_remote_press_with_public_press_allows_broadcasts(database):
    judge = _game(database, "REMOTE_PRESS PUBLIC_PRESS")
    assert _ok(_press(judge, "FRANCE", "BROADCAST", "hello all"))


# -- with NO_PRESS and PUBLIC_PRESS -----------------------------------------------------


def test_no_press_excludes_the_press_flags_at_create(database):
    judge = TestJudge(database)
    for flag in ("GREY_PRESS", "FAKE_PRESS", "TOUCH_PRESS", "BACKSEAT_PRESS", "LATE_SEND"):
        judge.send(GM, f"CREATE pay7 masterpw\nRULE NO_PRESS {flag}\nTIMING MOVE 2D\nSIGNOFF\n")
        reply = " ".join(judge.last_reply(GM).split())
        assert f"NO_PRESS and {flag} cannot be used together" in reply, reply


def test_no_partial_is_public_press(database):
    judge = _game(database, "NO_PARTIAL")
    assert "allows only broadcast press (rule PUBLIC_PRESS)" in _press(judge, "FRANCE", "PRESS TO GERMANY")
    assert _ok(_press(judge, "FRANCE", "BROADCAST", "open letter"))


def test_the_master_may_not_write_grey_or_fake(database):
    judge = _game(database, "WHITE_GREY FAKE_PRESS")
    assert "the Master's press always shows the Master" in _press(judge, "MASTER", "BROADCAST GREY")
    assert _ok(_press(judge, "MASTER", "PRESS TO FRANCE", "from the GM"))


_HOLD = {
    "AUSTRIA": "A VIE",
    "ENGLAND": "F LON",
    "FRANCE": "A PAR",
    "GERMANY": "A BER",
    "ITALY": "A ROM",
    "RUSSIA": "A MOS",
    "TURKEY": "A CON",
}


def _play_to_winter(judge: TestJudge) -> None:
    """Spring and fall 1901, France taking Spain: a winter with a French build."""
    for phase, french in (("S1901M", "0 : A MAR - SPA"), ("F1901M", "0 : A SPA H")):
        assert snapshot(judge)[3] == phase
        for power, unit in _HOLD.items():
            sheet = f"0 : {unit} H" + (f"\n{french}" if power == "FRANCE" else "")
            judge.send(addr(power), f"{signon(power)}\n{sheet}\n")
        judge.tick()
    assert snapshot(judge)[3] == "W1901A"
    judge.sent.clear()


def test_ftf_press_only_in_movement_phases(database):
    judge = _game(database, "FTF_PRESS")
    _play_to_winter(judge)
    assert "players may write to each other only in movement phases (rule FTF_PRESS)" in _press(
        judge, "GERMANY", "PRESS TO FRANCE"
    )
    assert "rule FTF_PRESS" in _press(judge, "GERMANY", "BROADCAST")
    assert _ok(_press(judge, "GERMANY", "PRESS TO M", "to the Master"))


def test_without_ftf_press_players_write_in_winter(database):
    judge = _game(database)
    _play_to_winter(judge)
    assert _ok(_press(judge, "GERMANY", "PRESS TO FRANCE", "winter talk"))


def test_must_order_applies_only_to_powers_with_orders_to_give(database):
    """In winter only France has a build to order: Germany has nothing to send, and may write."""
    judge = _game(database, "MUST_ORDER")
    _play_to_winter(judge)
    assert _ok(_press(judge, "GERMANY", "PRESS TO FRANCE", "nothing to order"))
    assert "rule MUST_ORDER" in _press(judge, "FRANCE", "PRESS TO GERMANY")
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\nBUILD A MAR\n")
    assert _ok(_press(judge, "FRANCE", "PRESS TO GERMANY", "built"))
