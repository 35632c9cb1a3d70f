"""The money rules by mail (issue 26): Zero Sum keeps the world's money fixed (rule 6.7),
with dummies and with vassals; rule 4.4 for an Exchange company without a CEO; the income
settings of rule 6.6 (CAP over a year, the increasing scheme) and VICTORY_HOMES' count."""

from __future__ import annotations

from payjudge.game import money
from payjudge.game.state import GameState, find_game

from .judge import TestJudge
from .test_game import GM, POWERS, addr, signon


def create(judge: TestJudge, *lines: str) -> None:
    body = "\n".join(("CREATE pay7 masterpw", "RULE POWER_CHOICE", *lines, "TIMING MOVE 2D", "SIGNOFF"))
    judge.send(GM, body + "\n")
    assert "has been created" in judge.last_reply(GM), judge.last_reply(GM)
    for p in POWERS:
        judge.send(addr(p), f"JOIN {p.lower()}@pay7 pw-{p.lower()}\n")


def state(judge: TestJudge):
    with judge.db.transaction() as s:
        st = GameState(s, find_game(s, "pay7"))
        return st.position, dict(money.balances(s, st.game))


def master(judge: TestJudge, body: str) -> str:
    judge.send(GM, f"SIGNON Mpay7 masterpw\n{body}\n")
    return judge.last_reply(GM)


def orders(judge: TestJudge, power: str, *lines: str) -> None:
    judge.send(addr(power), "\n".join((signon(power), *lines)) + "\n")
    assert "ERRORS" not in judge.last_reply(addr(power)), judge.last_reply(addr(power))


def process_until(judge: TestJudge, phase: str) -> None:
    """The Master processes phase after phase (PROCESS!) until `phase` is open."""
    for _ in range(10):
        pos, _ = state(judge)
        if str(pos.phase) == phase:
            return
        master(judge, "PROCESS!")
    raise AssertionError(f"{phase} never came")


def test_zerosum_a_dummys_tie_hold_deposits_nothing_nobody_paid(database):
    """Rule 4.4's "one more" is a report: Italy's A VEN holds on France's and Austria's
    tied offers, nobody pays, and the year's end deposits nothing into Italy's treasury."""
    judge = TestJudge(database)
    create(judge, "RULE ZEROSUM")
    assert "ITALY is now a dummy" in master(judge, "DUMMY ITALY")
    _, opening = state(judge)
    assert sum(opening.values()) == 220
    orders(judge, "FRANCE", "5 : A VEN - TYR")
    orders(judge, "AUSTRIA", "5 : A VEN - PIE")
    process_until(judge, "F1901M")
    pos, balances = state(judge)
    assert {str(u) for u in pos.units["ITALY"]} >= {"A VEN"}
    assert balances["FRANCE"] == balances["AUSTRIA"] == 30  # neither paid
    process_until(judge, "S1902M")
    _, balances = state(judge)
    assert balances["ITALY"] == 30
    assert sum(balances.values()) == 220


def test_zerosum_with_vassal_dummies_a_dummy_losing_a_centre_pays_its_captor(database):
    """Austria, a dummy nobody controls, is bribed into Serbia in 1901 (a first capture:
    10 AgP) and out of it in 1902, when Turkey walks in: Turkey's share of Austria's
    treasury comes out of Austria's treasury, and the bribes Austria's units took are
    deposited with it, so the world holds 220 AgP plus the first-capture bonuses."""
    judge = TestJudge(database)
    create(judge, "RULE ZEROSUM VASSAL_DUMMIES")
    assert "AUSTRIA is now a dummy" in master(judge, "DUMMY AUSTRIA")
    orders(judge, "TURKEY", "0 : A CON - BUL")
    process_until(judge, "F1901M")
    orders(judge, "GERMANY", "1 : A BUD - SER")
    process_until(judge, "S1902M")
    pos, balances = state(judge)
    assert "SER" in pos.centers["AUSTRIA"] and "BUL" in pos.centers["TURKEY"]
    assert sum(balances.values()) == 220 + 2 * 10
    austria_1902 = balances["AUSTRIA"]
    orders(judge, "GERMANY", "1 : A SER - BUD")
    orders(judge, "TURKEY", "0 : A BUL - SER")
    process_until(judge, "F1902M")
    orders(judge, "TURKEY", "0 : A SER H")
    process_until(judge, "S1903M")
    pos, balances = state(judge)
    assert "SER" in pos.centers["TURKEY"] and "SER" not in pos.centers["AUSTRIA"]
    share = (austria_1902 + 1) // 4  # its treasury and the year's bribe, over its 4 centres
    assert balances["AUSTRIA"] == austria_1902 + 1 - share
    assert sum(balances.values()) == 220 + 2 * 10


def test_exchange_a_company_without_a_ceo_holds_on_a_tie(database):
    """Rule 4.4 for an unmanaged company (docs/exchange.md): nobody holds ENGLAND's shares,
    so it has no CEO; ALICE and BOB each offer 5 to move its fleet, to different seas, and
    the tie ends in HOLD, not in the investors' seeded order."""
    judge = TestJudge(database)
    judge.send(GM, "CREATE ex1 masterpw\nRULE EXCHANGE\nINVESTORS 2\nSIGNOFF\n")
    assert "has been created" in judge.last_reply(GM)
    for name in ("alice", "bob"):
        judge.send(addr(name), f"JOIN {name}@ex1 pw-{name}\n")
    for name in ("alice", "bob"):
        judge.send(addr(name), f"SIGNON {name}@ex1 pw-{name}\nPASS\n")
    judge.send(GM, "SIGNON Mex1 masterpw\nPROCESS!\n")
    with judge.db.transaction() as s:
        st = GameState(s, find_game(s, "ex1"))
        assert str(st.game.phase) == "S1901M" and st.market()["ceos"]["ENGLAND"] is None
    judge.send(addr("alice"), "SIGNON alice@ex1 pw-alice\n5 : F LON - NTH\n5 : A LVP - YOR\n")
    assert "ERRORS" not in judge.last_reply(addr("alice")), judge.last_reply(addr("alice"))
    judge.send(addr("bob"), "SIGNON bob@ex1 pw-bob\n5 : F LON - ENG\n5 : A LVP - WAL\n")
    assert "ERRORS" not in judge.last_reply(addr("bob")), judge.last_reply(addr("bob"))
    judge.send(GM, "SIGNON Mex1 masterpw\nPROCESS!\n")
    with judge.db.transaction() as s:
        st = GameState(s, find_game(s, "ex1"))
        assert str(st.game.phase) == "F1901M"
        assert {str(u) for u in st.position.units["ENGLAND"]} == {"F LON", "A LVP", "F EDI"}
        cash = money.balances(s, st.game)
        assert cash["@ALICE"] == cash["@BOB"]  # neither paid


def test_accept_must_rank_the_power_itself(database):
    """Rule 4.1: a list may leave out other powers (with one '?'), never the power itself:
    `ACCEPT ?` and `ACCEPT GE?` are refused for France, and nothing is stored."""
    judge = TestJudge(database)
    create(judge)
    for written in ("?", "GE?", "AEGIRT"):
        judge.send(addr("FRANCE"), f"{signon('FRANCE')}\nACCEPT {written}\n")
        reply = judge.last_reply(addr("FRANCE"))
        assert "ERRORS" in reply and "leaves out F (FRANCE) itself" in reply and "rule 4.1" in reply, reply
    with judge.db.transaction() as s:
        assert GameState(s, find_game(s, "pay7")).acceptance_text("FRANCE") in (None, "")
    for written in ("F?", "?F", "GEF?", "AEFGIRT"):
        judge.send(addr("FRANCE"), f"{signon('FRANCE')}\nACCEPT {written}\n")
        assert "ERRORS" not in judge.last_reply(addr("FRANCE")), written


def test_victory_homes_income_follows_its_victory_count(database):
    """Rule 6.2 with VICTORY_HOMES (seed 003): victory at 10 home centres on the standard
    map, so the first centre pays 9 AgP, the next 8...: 24 AgP for three, 30 for Russia."""
    judge = TestJudge(database)
    create(judge, "RULE VICTORY_HOMES")
    _, balances = state(judge)
    assert balances == {p: (9 + 8 + 7 + 6 if p == "RUSSIA" else 9 + 8 + 7) for p in POWERS}


def test_cap_caps_a_years_income_paid_before_every_movement(database):
    """CAP n caps a year's income (docs/payola.md), also when it comes before every
    movement phase: CAP 50 pays France 48 before Spring 1901 and 2 before the Fall, Russia
    (62, capped to 50) nothing more; a new year pays again."""
    judge = TestJudge(database)
    create(judge, "CAP 50", "INCOME EVERY MOVEMENT")
    _, balances = state(judge)
    assert balances["FRANCE"] == 48 and balances["RUSSIA"] == 50
    process_until(judge, "F1901M")
    _, balances = state(judge)
    assert balances["FRANCE"] == 50 and balances["RUSSIA"] == 50
    process_until(judge, "S1902M")
    _, balances = state(judge)
    assert balances["FRANCE"] == 50 + 48 and balances["RUSSIA"] == 100
    process_until(judge, "F1902M")
    _, balances = state(judge)
    assert balances["FRANCE"] == 100 and balances["RUSSIA"] == 100


def test_increasing_income_scheme(database):
    """Rule 6.6's increasing scheme (`INCOME INCREASING`): the first centre pays 1 AgP and
    each further one 1 AgP more, up to the victory count less one: 6 AgP for three
    centres, 10 for four; it combines with CAP, and not with a fixed rate."""
    judge = TestJudge(database)
    judge.send(GM, "CREATE inc1 masterpw\nRULE FLAT_TAX\nINCOME INCREASING\nSIGNOFF\n")
    assert "INCOME INCREASING and FLAT_TAX cannot be used together" in judge.last_reply(GM)
    judge.send(GM, "CREATE inc2 masterpw\nTAX 5\nINCOME INCREASING\nSIGNOFF\n")
    assert "INCOME INCREASING and TAX cannot be used together" in judge.last_reply(GM)
    judge.send(GM, "CREATE inc3 masterpw\nRULE ZEROSUM\nINCOME INCREASING\nSIGNOFF\n")
    assert "ZEROSUM game has no tax income" in judge.last_reply(GM)
    judge.send(GM, "HELP\n")
    assert "INCOME INCREASING" in judge.last_reply(GM)
    create(judge, "INCOME INCREASING", "CAP 8")
    _, balances = state(judge)
    assert balances == {p: (8 if p == "RUSSIA" else 6) for p in POWERS}


def test_zerosum_mobilize_pays_each_treasury_with_its_build(database):
    """Seed 2661 of the simulator (issue 26): under MOBILIZE a power owns no centre until it
    builds, so Zero Sum (rule 6.7, 10 AgP per owned centre) pays its treasury with the build.
    England builds, France builds nothing, the rest too: at Spring 1901 England holds 10 AgP,
    France none, and the world holds 10 AgP per owned centre (it used to hold 70 AgP with
    one centre owned: each power kept the 10 AgP of a centre it never built on)."""
    judge = TestJudge(database)
    create(judge, "RULE ZEROSUM MOBILIZE")
    pos, opening = state(judge)
    assert pos.phase.is_adjustments and not any(pos.centers.values())
    assert sum(opening.values()) == 0
    orders(judge, "ENGLAND", "BUILD F LON")
    process_until(judge, "S1901M")
    pos, balances = state(judge)
    assert {p: sorted(cs) for p, cs in pos.centers.items() if cs} == {"ENGLAND": ["LON"]}
    assert balances["ENGLAND"] == 10 and balances["FRANCE"] == 0
    assert sum(balances.values()) == 10 * sum(len(cs) for cs in pos.centers.values())
