"""How a game ends, by mail: TERMINATE publishes like any other end, the conclusion flags of
seed 003 §1.10 (NO_DRAW, NO_EOG, HOLD_WIN, VICTORY_HOMES, SHARED_VICTORY), PUBLIC_TOTALS in
the results, IGNORE_RESULTS, and the answers CREATE gives to the flags of §3.1 and to the
web-only ones."""

from __future__ import annotations

import pytest

from payjudge.rules.geography import Location, UnitType
from payjudge.rules.orders import Unit

from .judge import TestJudge
from .test_game import GM, OBSERVER, POWERS, addr, signon, snapshot, start_game
from .test_lifecycle import _set_position

MASTER = "SIGNON Mpay7 masterpw"


def _play_spring(judge: TestJudge) -> None:
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\n3 : A PAR - BUR % plan-of-france\nACCEPT FGE?\n")
    judge.send(addr("ENGLAND"), f"{signon('ENGLAND')}\n2 : A PAR - PIC % plan-of-england\n")
    judge.send(GM, f"{MASTER}\nPROCESS!\n")
    assert snapshot(judge)[3] == "F1901M"


def _end_mail(judge: TestJudge, address: str = OBSERVER):
    [end] = [m for m in judge.inbox(address) if m.kind == "game_end"]
    return end.body


def test_terminate_publishes_every_sheet_list_and_bid_chart(database):
    judge = TestJudge(database)
    start_game(judge)
    _play_spring(judge)
    judge.send(addr("GERMANY"), f"{signon('GERMANY')}\n4 : A MUN - RUH % open-plan\n")
    judge.send(GM, f"{MASTER}\nTERMINATE\n")
    assert snapshot(judge)[2] == "terminated"
    body = _end_mail(judge)
    assert "The Master has terminated the game" in body
    assert "plan-of-france" in body and "plan-of-england" in body
    assert "Acceptance list of FRANCE: FGE?" in body
    assert "Bids per unit" in body
    assert "open-plan" in body  # the sheets of the phase the game ended in


def test_no_eog_keeps_sheets_lists_and_bids_secret_at_the_end(database):
    judge = TestJudge(database)
    start_game(judge, rules="NO_EOG")
    _play_spring(judge)
    judge.send(GM, f"{MASTER}\nTERMINATE\n")
    body = _end_mail(judge)
    assert "terminated" in body and "Final treasuries" in body
    assert "NO_EOG" in body
    assert "plan-of-france" not in body and "Acceptance list" not in body
    assert "Bids per unit" not in body


def test_public_totals_publishes_each_units_total_but_not_who_paid(database):
    judge = TestJudge(database)
    start_game(judge, rules="PUBLIC_TOTALS")
    _play_spring(judge)
    [results] = [m for m in judge.inbox(OBSERVER) if m.kind == "results"]
    lines = [" ".join(line.split()) for line in results.body.splitlines()]
    assert "Total accepted by each unit (PUBLIC_TOTALS):" in lines
    assert "FRANCE A PAR 3 AgP" in lines
    assert "plan-of" not in results.body and "ENGLAND 2" not in " ".join(lines)


def test_without_public_totals_the_results_name_no_money(database):
    judge = TestJudge(database)
    start_game(judge)
    _play_spring(judge)
    [results] = [m for m in judge.inbox(OBSERVER) if m.kind == "results"]
    assert "AgP" not in results.body and "Total accepted" not in results.body


def test_no_draw_refuses_draw_votes_and_a_concession_still_ends_the_game(database):
    judge = TestJudge(database)
    start_game(judge, rules="NO_DRAW")
    for vote in ("DRAW", "3WAY"):
        judge.send(addr("FRANCE"), f"{signon('FRANCE')}\nVOTE {vote}\n")
        reply = " ".join(judge.last_reply(addr("FRANCE")).split())
        assert "uses the rule NO_DRAW" in reply
    for p in POWERS:
        if p != "FRANCE":
            judge.send(addr(p), f"{signon(p)}\nVOTE CONCEDE FRANCE\n")
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\nVOTE SOLO\n")
    assert snapshot(judge)[2] == "completed"
    assert "conceded the game to FRANCE" in _end_mail(judge)


def test_no_quarter_is_accepted_at_create_and_brings_no_draw(database):
    """NO_QUARTER (seed 003 §1.9) is NO_RETREAT and NO_DRAW: CREATE takes it, and a draw
    vote is refused as under NO_DRAW."""
    judge = TestJudge(database)
    start_game(judge, rules="NO_QUARTER")  # CREATE accepts it
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\nVOTE DRAW\n")
    assert "uses the rule NO_DRAW" in " ".join(judge.last_reply(addr("FRANCE")).split())


def test_without_no_draw_a_draw_vote_is_recorded(database):
    judge = TestJudge(database)
    start_game(judge)
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\nVOTE DRAW\n")
    assert "NO_DRAW" not in judge.last_reply(addr("FRANCE"))
    assert "NOT processed" not in judge.last_reply(addr("FRANCE"))


def _create(judge: TestJudge, rules: str) -> str:
    judge.send(GM, f"CREATE pay7 masterpw\nRULE {rules}\nTIMING MOVE 2D\nSIGNOFF\n")
    return " ".join(judge.last_reply(GM).split())


@pytest.mark.parametrize("name", ["ORDER_ANY", "NEED_MOVE_MARKS", "NO_PROXY"])
def test_flags_always_in_force_are_accepted_and_said_so(database, name):
    judge = TestJudge(database)
    reply = _create(judge, name)
    assert "has been created" in reply
    assert f"RULE {name}: always in force in a Payola game" in reply


@pytest.mark.parametrize(
    "name, reason",
    [
        ("PROXY_OK", "Payola has no proxy orders"),
        ("BROADCAST_ORDERS", "offer sheets are secret in Payola until the end of the game"),
        ("NO_CHECK", "a Payola sheet is checked as it arrives"),
        ("CD_SUPPORTS", "in Payola a unit follows the offers it receives"),
    ],
)
def test_flags_payola_forbids_are_refused_with_the_reason(database, name, reason):
    judge = TestJudge(database)
    reply = _create(judge, name)
    assert "NOT processed" in reply
    assert f"RULE {name} is not allowed: " in reply and reason in reply


@pytest.mark.parametrize(
    "name, meaning",
    [
        ("SUBMIT_MASTER", "FOR <power> after SIGNON M<game>"),
        ("TEXT_INPUT", "by mail they always are"),
    ],
)
def test_web_only_flags_are_answered_with_their_meaning_by_mail(database, name, meaning):
    judge = TestJudge(database)
    reply = _create(judge, name)
    assert "unknown rule" not in reply
    assert f"RULE {name}: always in force in a Payola game" in reply and meaning in reply


HOMES_OF_OTHERS = ["BER", "KIE", "MUN", "LON", "LVP", "EDI", "ROM", "NAP", "VEN", "VIE"]
EIGHTEEN = [
    "PAR",
    "MAR",
    "BRE",
    "BEL",
    "HOL",
    "SPA",
    "POR",
    "LON",
    "LVP",
    "EDI",
    "BER",
    "KIE",
    "MUN",
    "DEN",
    "NWY",
    "SWE",
    "TUN",
    "RUM",
]


def _fall_with_centres(judge: TestJudge, rules: str, centres: dict[str, list[str]]) -> None:
    """Start a game under `rules`, play the spring, then give the powers `centres` (France
    keeps one army, in the Ruhr) and process the fall."""
    start_game(judge, rules=rules)
    judge.send(GM, f"{MASTER}\nPROCESS!\n")
    _set_position(
        judge,
        centers={p: frozenset(cs) for p, cs in centres.items()},
        units={"FRANCE": (Unit(UnitType.ARMY, Location("RUH")),)},
    )
    judge.send(GM, f"{MASTER}\nPROCESS!\n")


def _process(judge: TestJudge, phase: str) -> None:
    assert snapshot(judge)[3] == phase
    judge.send(GM, f"{MASTER}\nPROCESS!\n")


def test_hold_win_needs_the_condition_at_the_end_of_two_years_running(database):
    judge = TestJudge(database)
    _fall_with_centres(judge, "HOLD_WIN", {"FRANCE": EIGHTEEN})
    assert snapshot(judge)[2:] == ("active", "W1901A")  # 18 centres, but held one year only
    _process(judge, "W1901A")
    _process(judge, "S1902M")
    assert snapshot(judge)[2] == "active"
    _process(judge, "F1902M")
    assert snapshot(judge)[2] == "completed"
    assert "FRANCE has won" in _end_mail(judge)


def test_without_hold_win_eighteen_centres_win_at_once(database):
    judge = TestJudge(database)
    _fall_with_centres(judge, "", {"FRANCE": EIGHTEEN})
    assert snapshot(judge)[2] == "completed"


@pytest.mark.parametrize(
    "rules, foreign_homes, state",
    [
        ("VICTORY_HOMES", 10, "completed"),  # (22 - 22/7) / 2 + 1 = 10 on the standard map
        ("VICTORY_HOMES", 9, "active"),
        ("", 10, "active"),  # 13 centres are not 18
    ],
)
def test_victory_homes_counts_other_powers_home_centres(database, rules, foreign_homes, state):
    judge = TestJudge(database)
    _fall_with_centres(judge, rules, {"FRANCE": ["PAR", "MAR", "BRE", *HOMES_OF_OTHERS[:foreign_homes]]})
    assert snapshot(judge)[2] == state
    if state == "completed":
        assert "FRANCE has won" in _end_mail(judge)


TIED = {
    "FRANCE": HOMES_OF_OTHERS,
    "GERMANY": ["PAR", "MAR", "BRE", "CON", "ANK", "SMY", "MOS", "WAR", "STP", "SEV"],
}


def test_a_tie_at_the_victory_condition_goes_on(database):
    judge = TestJudge(database)
    _fall_with_centres(judge, "VICTORY_HOMES", TIED)
    assert snapshot(judge)[2] == "active"


def test_shared_victory_ends_a_tie_with_both_winners(database):
    judge = TestJudge(database)
    _fall_with_centres(judge, "VICTORY_HOMES SHARED_VICTORY", TIED)
    assert snapshot(judge)[2] == "completed"
    results = [m for m in judge.inbox(OBSERVER, clear=False) if m.kind == "results"]
    assert "FRANCE and GERMANY share the victory." in results[-1].body
    assert "FRANCE and GERMANY share the victory" in _end_mail(judge)


@pytest.mark.parametrize("rules, master_gets_results", [("IGNORE_RESULTS", False), ("", True)])
def test_ignore_results_spares_the_master_the_public_results(database, rules, master_gets_results):
    judge = TestJudge(database)
    start_game(judge, rules=rules)
    judge.inbox(GM)
    judge.send(GM, f"{MASTER}\nPROCESS!\n")
    kinds = {m.kind for m in judge.inbox(GM)}
    assert ("results" in kinds) is master_gets_results
    assert "master_report" in kinds
    assert any(m.kind == "results" for m in judge.inbox(OBSERVER))
    # nor the rollback messages (seed 003 §1.2)
    judge.send(GM, f"{MASTER}\nROLLBACK\n")
    rolled = [m for m in judge.inbox(GM) if m.subject.startswith("Diplomacy rollback")]
    assert bool(rolled) is master_gets_results
    assert any(m.subject.startswith("Diplomacy rollback") for m in judge.inbox(OBSERVER))


@pytest.mark.parametrize(
    "rules, drawn",
    [
        ("", ", ".join(POWERS)),  # DIAS: a draw includes every survivor
        ("NO_DIAS", ", ".join(POWERS[:-1])),  # the power that conceded is left out
    ],
)
def test_a_draw_includes_every_survivor_unless_no_dias(database, rules, drawn):
    judge = TestJudge(database)
    start_game(judge, rules=rules)
    judge.send(addr("TURKEY"), f"{signon('TURKEY')}\nVOTE CONCEDE FRANCE\n")
    for p in POWERS[:-1]:
        judge.send(addr(p), f"{signon(p)}\nVOTE DRAW\n")
    assert snapshot(judge)[2] == "completed"
    assert f"The game ends in a draw between {drawn}." in " ".join(_end_mail(judge).split())


def test_without_no_dias_a_smaller_draw_vote_blocks_the_draw(database):
    judge = TestJudge(database)
    start_game(judge)
    for p in POWERS:
        judge.send(addr(p), f"{signon(p)}\nVOTE {'3WAY' if p == 'ITALY' else 'DRAW'}\n")
    assert snapshot(judge)[2] == "active"


def test_under_no_dias_a_smaller_draw_is_agreed_without_the_conceders(database):
    judge = TestJudge(database)
    start_game(judge, rules="NO_DIAS")
    for p in POWERS:
        vote = "3WAY" if p in ("FRANCE", "GERMANY", "ITALY") else "CONCEDE FRANCE"
        judge.send(addr(p), f"{signon(p)}\nVOTE {vote}\n")
    assert snapshot(judge)[2] == "completed"
    assert "draw between FRANCE, GERMANY, ITALY." in " ".join(_end_mail(judge).split())


def _proposal_mails(judge: TestJudge) -> list[str]:
    return [" ".join(m.body.split()) for m in judge.inbox(OBSERVER) if "propos" in m.subject]


@pytest.mark.parametrize(
    "rules, announced",
    [
        ("PROPOSE_DIAS", "a concession to FRANCE has been proposed by ITALY."),
        ("HIDE_PROPOSER", "a concession to FRANCE has been proposed."),
    ],
)
def test_propose_dias_a_proposal_is_announced_and_all_yes_ends_the_game(database, rules, announced):
    judge = TestJudge(database)
    start_game(judge, rules=rules)
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\nVOTE DRAW\n")
    assert "uses the rule PROPOSE_DIAS" in " ".join(judge.last_reply(addr("FRANCE")).split())
    judge.send(addr("ITALY"), f"{signon('ITALY')}\nPROPOSE CONCEDE FRANCE\n")
    [mail] = _proposal_mails(judge)
    assert announced in mail and ("by ITALY" in mail) is (rules == "PROPOSE_DIAS")
    for p in POWERS:
        if p != "ITALY":
            assert snapshot(judge)[2] == "active"
            judge.send(addr(p), f"{signon(p)}\nVOTE YES\n")
    assert snapshot(judge)[2] == "completed"
    assert "conceded the game to FRANCE" in _end_mail(judge)


def test_propose_dias_one_no_vetoes_the_proposal(database):
    judge = TestJudge(database)
    start_game(judge, rules="PROPOSE_DIAS")
    judge.send(addr("ITALY"), f"{signon('ITALY')}\nPROPOSE DRAW\n")
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\nVOTE NO\n")
    assert "vetoed" in judge.last_reply(addr("FRANCE"))
    mails = _proposal_mails(judge)
    assert "a draw including every survivor has been vetoed" in mails[-1]
    assert "FRANCE" not in mails[-1]  # nobody learns who said no
    for p in POWERS:
        if p != "ITALY":
            judge.send(addr(p), f"{signon(p)}\nVOTE YES\n")
    assert snapshot(judge)[2] == "active"  # the vetoed proposal is gone
    assert "no proposal is open" in judge.last_reply(addr(POWERS[-1]))


def test_propose_needs_the_rule(database):
    judge = TestJudge(database)
    start_game(judge)
    judge.send(addr("ITALY"), f"{signon('ITALY')}\nPROPOSE DRAW\n")
    assert "does not use the rule PROPOSE_DIAS" in " ".join(judge.last_reply(addr("ITALY")).split())


def test_propose_dias_and_no_dias_are_refused_together(database):
    judge = TestJudge(database)
    reply = _create(judge, "PROPOSE_DIAS NO_DIAS")
    assert "PROPOSE_DIAS and NO_DIAS cannot be used together" in reply


@pytest.mark.parametrize(
    "rules, drawn",
    [
        ("", ", ".join(POWERS)),  # DIAS: the dummy survives, so it shares the draw
        ("NO_DIAS", ", ".join(p for p in POWERS if p != "ITALY")),  # only those who voted for it
    ],
)
def test_an_uncontrolled_dummy_has_no_vote_and_blocks_no_draw(database, rules, drawn):
    judge = TestJudge(database)
    start_game(judge, rules=rules)
    judge.send(GM, f"{MASTER}\nDUMMY ITALY\n")
    for p in POWERS:
        if p != "ITALY":
            assert snapshot(judge)[2] == "active"
            judge.send(addr(p), f"{signon(p)}\nVOTE DRAW\n")
    assert snapshot(judge)[2] == "completed"
    assert f"The game ends in a draw between {drawn}." in " ".join(_end_mail(judge).split())


def test_an_uncontrolled_dummy_blocks_no_concession_nor_proposal(database):
    judge = TestJudge(database)
    start_game(judge, rules="PROPOSE_DIAS")
    judge.send(GM, f"{MASTER}\nDUMMY ITALY\n")
    judge.send(addr("FRANCE"), f"{signon('FRANCE')}\nPROPOSE CONCEDE FRANCE\n")
    for p in POWERS:
        if p not in ("ITALY", "FRANCE"):
            assert snapshot(judge)[2] == "active"
            judge.send(addr(p), f"{signon(p)}\nVOTE YES\n")
    assert snapshot(judge)[2] == "completed"
    assert "conceded the game to FRANCE" in _end_mail(judge)
