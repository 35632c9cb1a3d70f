"""Setting up an Exchange Payola game by mail (docs/exchange.md, "Setting up"): the CREATE
settings, investor seats at JOIN, the float opened at the start with capital and pools,
SIGNON as an investor, and FOR <company> for a CEO only (FOR ME back)."""

from __future__ import annotations

from payjudge.game import money
from payjudge.game.exchange import investor_seat as exchange_seat
from payjudge.game.state import GameState, find_game
from payjudge.store import repo

from .judge import TestJudge

GM = "gm@pj.test"
INVESTORS = ("ALICE", "BOB", "CAROL")
CREATE = "CREATE ex1 masterpw\nRULE EXCHANGE\nINVESTORS 3\nSHARES 10\nCAPITAL 70\nFLOAT 2\nSIGNOFF\n"


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
    # the refused combinations (docs/exchange.md, "Setting up")
    for other in ("ZEROSUM", "PAY_DUMMIES", "VASSAL_DUMMIES", "POWER_CHOICE", "BLIND"):
        judge.send(GM, f"CREATE ex1 masterpw\nRULE EXCHANGE {other}\nSIGNOFF\n")
        assert "has been created" not in judge.last_reply(GM), other
        assert "EXCHANGE" in judge.last_reply(GM)
    judge.send(GM, "CREATE ex1 masterpw\nRULE EXCHANGE\nTAX PAR 5\nSIGNOFF\n")
    assert "EXCHANGE has no TAX <centre> table" in judge.last_reply(GM)


def test_investor_names_are_checked(database):
    judge = TestJudge(database)
    judge.send(GM, CREATE)
    judge.send(addr("x"), "JOIN ex1 pw-xxxxx\n")
    assert "write JOIN <your name>@ex1 <password>" in judge.last_reply(addr("x"))
    judge.send(addr("x"), "JOIN france@ex1 pw-xxxxx\n")
    assert "FRANCE cannot be an investor's name" in judge.last_reply(addr("x"))
    judge.send(addr("x"), "JOIN m@ex1 pw-xxxxx\n")
    assert "cannot be an investor's name" in judge.last_reply(addr("x"))
    for lookalike in ("france_", "master_", "judge", "french"):  # issue 26: read as a power or a role
        judge.send(addr("x"), f"JOIN {lookalike}@ex1 pw-xxxxx\n")
        assert f"{lookalike.upper()} cannot be an investor's name" in judge.last_reply(addr("x")), lookalike
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


def stored(judge: TestJudge, account: str) -> str | None:
    with judge.db.transaction() as s:
        sub = GameState(s, find_game(s, "ex1")).submission(account)
        return sub.text if sub is not None else None


def test_exchange_orders_by_mail_at_the_float(database):
    judge = TestJudge(database)
    start(judge)
    judge.inbox(addr("CAROL"))  # the start's mails
    reply = send(judge, "ALICE", "BUY 6 FRANCE AT 5\nBUY 2 I AT 3")
    assert "buy up to 6 FRANCE at 5 AgP or less (your buy orders commit 30 of your 70 AgP)" in reply
    assert "buy up to 2 ITALY at 3 AgP or less (your buy orders commit 36 of your 70 AgP)" in reply
    assert stored(judge, "@ALICE") == "BUY 6 FRANCE AT 5\nBUY 2 ITALY AT 3"
    # the next message with orders replaces them as a whole
    send(judge, "ALICE", "BUY 1 AUSTRIA AT 2")
    assert stored(judge, "@ALICE") == "BUY 1 AUSTRIA AT 2"
    # a refused line refuses the whole message: the sheet stays as it was
    reply = send(judge, "ALICE", "BUY 3 ENGLAND AT 2\nBUY 10 FRANCE AT 9")
    assert "your buy orders would commit 96 AgP, but you hold 70 AgP" in reply
    assert stored(judge, "@ALICE") == "BUY 1 AUSTRIA AT 2"
    assert "you hold 0 FRANCE shares: you cannot sell 1" in send(judge, "ALICE", "SELL 1 FRANCE AT 3")
    assert "there is no company ITLY" in send(judge, "ALICE", "BUY 1 ITLY AT 3")
    assert "No exchange orders for Winter 1900 Exchange." in send(judge, "BOB", "PASS")
    assert stored(judge, "@BOB") == "PASS"
    assert "write FOR <company> first: DIVIDEND acts for a company you run" in send(
        judge, "BOB", "DIVIDEND 2"
    )
    # none of it reaches anyone else
    assert not judge.inbox(addr("CAROL"))


def test_ceo_votes_by_mail(database):
    judge = TestJudge(database)
    start(judge)
    reply = send(judge, "ALICE", "VOTE CEO FRANCE BOB")
    assert "Your vote for the CEO of FRANCE: BOB" in reply
    assert "there is no investor BOBB" in send(judge, "ALICE", "VOTE CEO FRANCE BOBB")
    assert "in an Exchange game investors vote" in send(judge, "ALICE", "VOTE DRAW")
    assert "You no longer vote for a CEO of FRANCE" in send(judge, "ALICE", "VOTE CEO F NONE")
    with database.transaction() as s:
        from payjudge.game import exchange

        assert exchange.ceo_votes(s, find_game(s, "ex1")) == {"FRANCE": {"ALICE": None}}


def test_a_ceo_sets_dividend_and_worths_for_its_company(database):
    judge = TestJudge(database)
    start(judge)
    set_ceo(judge, "FRANCE", "BOB")
    assert "at the float only investors trade" in send(judge, "BOB", "FOR FRANCE\nSELL 2 FRANCE AT 3")
    assert "FRANCE has no outstanding shares" in send(judge, "BOB", "FOR FRANCE\nDIVIDEND 2")
    reply = send(judge, "BOB", "FOR FRANCE\nWORTH PAR 20")
    assert "FRANCE's centres would be worth 52 AgP, more than its allowance of 48 AgP for 3 centres" in reply
    assert "FRANCE does not own BEL" in send(judge, "BOB", "FOR FRANCE\nWORTH BEL 2")
    reply = send(judge, "BOB", "FOR FRANCE\nWORTH PAR 10\nWORTH BRE 12")
    assert (
        "FRANCE's centres from Spring 1901 Movement: BRE 12, MAR 16, PAR 10 (38 of its 48 AgP allowance)"
        in reply
    )
    # each centre's worth is replaced by its latest line, across messages
    send(judge, "BOB", "FOR FRANCE\nWORTH PAR 11")
    assert stored(judge, "FRANCE") == "WORTH BRE 12\nWORTH PAR 11"
    assert "FRANCE's centres from Spring 1901 Movement: BRE 14, MAR 14, PAR 14" in send(
        judge, "BOB", "FOR FRANCE\nWORTH 14"
    )
    # BOB's own orders are his, apart from the company's
    send(judge, "BOB", "FOR FRANCE\nWORTH 16\nFOR ME\nBUY 2 FRANCE AT 4")
    assert stored(judge, "@BOB") == "BUY 2 FRANCE AT 4"
    assert stored(judge, "FRANCE") == "WORTH BRE 16\nWORTH MAR 16\nWORTH PAR 16"


def phase_of(judge: TestJudge) -> str:
    with judge.db.transaction() as s:
        return str(find_game(s, "ex1").phase)


def test_deadlines_run_the_float_the_year_and_its_exchange_phase(database):
    judge = TestJudge(database)
    # CIVIL_DISORDER: the late are processed at the deadline's grace end
    start(judge, CREATE.replace("RULE EXCHANGE", "RULE EXCHANGE CIVIL_DISORDER"))
    send(judge, "ALICE", "BUY 6 FRANCE AT 5\nVOTE CEO FRANCE ALICE")
    send(judge, "BOB", "BUY 4 FRANCE AT 3")
    judge.tick(days=10)  # CAROL sent nothing: the deadline processes the float
    assert phase_of(judge) == "S1901M"
    with database.transaction() as s:
        st = GameState(s, find_game(s, "ex1"))
        held = repo.holdings(s, st.game)
        assert held[("FRANCE", "@ALICE")] == 6 and held[("FRANCE", "@BOB")] == 4
        assert st.market()["ceos"]["FRANCE"] == "ALICE"
        carol = exchange_seat(st, "CAROL")
        assert carol.missed == 1
    results = [m for m in judge.inbox(addr("CAROL")) if m.subject == "Exchange results ex1 W1900X"]
    assert len(results) == 1
    # the year: FRANCE's CEO is waited for in movement phases, no investor is
    judge.tick(days=10)
    assert phase_of(judge) == "F1901M"
    judge.tick(days=10)
    assert phase_of(judge) == "W1901X"  # no adjustments to make: the exchange phase
    with database.transaction() as s:
        game = find_game(s, "ex1")
        entries = [e for e in repo.ledger_entries(s, game) if e.kind == "income"]
        # the year's income, before the exchange phase: the starting worths pay as rule 2.1
        assert {str(e.power): e.amount for e in entries}["FRANCE"] == 48
    judge.tick(days=10)
    assert phase_of(judge) == "S1902M"
    reports = [
        m for m in judge.inbox(addr("BOB")) if m.subject == "Annual stockholder report for FRANCE 1901"
    ]
    assert len(reports) == 1
    assert not [m for m in judge.inbox(addr("CAROL")) if "Annual stockholder report" in m.subject]


def test_movement_sheets_of_a_ceo_and_of_an_investor(database):
    judge = TestJudge(database)
    start(judge)
    send(judge, "ALICE", "BUY 6 FRANCE AT 5\nVOTE CEO FRANCE ALICE")
    send(judge, "BOB", "BUY 4 GERMANY AT 3\nVOTE CEO GERMANY BOB")
    send(judge, "CAROL", "PASS")
    judge.tick(minutes=1)  # nobody is late: processed early
    assert phase_of(judge) == "S1901M"
    judge.inbox(addr("BOB"))  # the start and the float: public names, BOB's own statement
    with database.transaction() as s:
        before = money.balances(s, find_game(s, "ex1"))
    # the CEO's company sheet; CAROL's own bribe to a German unit; 0 AgP to a foreign unit refused
    reply = send(judge, "ALICE", "FOR FRANCE\n2 : A PAR - BUR\n1 : F BRE - MAO")
    assert "ERRORS" not in reply, reply
    assert "a 0 AgP offer to a foreign unit is not allowed" in send(judge, "CAROL", "0 : A MUN - RUH")
    reply = send(judge, "CAROL", "7 : A MUN - RUH")
    assert "ERRORS" not in reply, reply
    assert "late" not in send(judge, "BOB", "FOR GERMANY\n3 : A MUN - BUR")
    judge.tick(minutes=1)
    assert phase_of(judge) == "F1901M"
    with database.transaction() as s:
        st = GameState(s, find_game(s, "ex1"))
        after = money.balances(s, st.game)
        pos = st.position
        # CAROL's 7 beat GERMANY's own 3: MUN went to RUH, paid from CAROL's cash
        assert any(u.province == "RUH" for u in pos.units["GERMANY"])
        assert after["@CAROL"] == before["@CAROL"] - 7
        assert after["FRANCE"] == before["FRANCE"] - 3
        assert sum(after.values()) == sum(before.values()) - 7 - 3 - (before["GERMANY"] - after["GERMANY"])
    carol = [m for m in judge.inbox(addr("CAROL")) if m.subject.startswith("Payola bribe results")]
    assert len(carol) == 1 and "7" in carol[0].body
    assert not [m for m in judge.inbox(addr("BOB")) if "@CAROL" in m.body or "CAROL" in m.body]


def test_an_investors_other_commands_answer_cleanly(database):
    judge = TestJudge(database)
    start(judge)
    reply = send(judge, "ALICE", "BALANCE")
    assert "Account of ALICE: 70 AgP" in reply and "Acceptance list" not in reply
    assert "write FOR <company> first: ACCEPT acts for a company you run" in send(
        judge, "ALICE", "ACCEPT FEG?"
    )
    assert "press is not built yet" in send(judge, "ALICE", "BROADCAST\nhello\nENDPRESS")
    assert "Mail for your power now goes to" in send(judge, "ALICE", "SET ADDRESS alice2@pj.test")


def test_the_master_sets_a_ceo(database):
    judge = TestJudge(database)
    start(judge)
    judge.send(GM, "SIGNON Mex1 masterpw\nSET CEO FRANCE bob\n")
    assert "BOB is now the CEO of FRANCE" in judge.last_reply(GM)
    assert "act for FRANCE" in send(judge, "BOB", "FOR FRANCE")
    judge.send(GM, "SIGNON Mex1 masterpw\nSET CEO FRANCE DAVE\n")
    assert "there is no playing investor DAVE" in judge.last_reply(GM)
    judge.send(GM, "SIGNON Mex1 masterpw\nSET CEO FRANCE NONE\n")
    assert "FRANCE has no CEO now" in judge.last_reply(GM)
    assert "FRANCE has no CEO" in send(judge, "BOB", "FOR FRANCE")


def test_clear_and_preview_in_an_exchange_phase(database):
    judge = TestJudge(database)
    start(judge)
    send(judge, "ALICE", "BUY 2 FRANCE AT 2")
    assert "orders of ALICE have been cleared" in send(judge, "ALICE", "CLEAR")
    assert stored(judge, "@ALICE") is None
    judge.send(GM, "SIGNON Mex1 masterpw\nPREVIEW\n")
    assert "was processed" in judge.last_reply(GM)
    assert phase_of(judge) == "W1900X"


def test_an_investors_wait_holds_the_phase_until_the_deadline(database):
    judge = TestJudge(database)
    start(judge)
    send(judge, "ALICE", "PASS\nSET WAIT")
    send(judge, "BOB", "PASS")
    send(judge, "CAROL", "PASS")
    judge.tick(minutes=1)
    assert phase_of(judge) == "W1900X"  # nobody late, but ALICE asked to wait
    judge.tick(days=10)
    assert phase_of(judge) == "S1901M"
