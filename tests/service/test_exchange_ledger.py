"""Exchange Payola on the store (payjudge/game/exchange.py), on SQLite and PostgreSQL: the
float and a year's exchange phase booked in the append-only money and share ledgers, the
money and share invariants checked after each, and a rollback that restores both."""

from __future__ import annotations

from datetime import UTC, datetime

from payjudge.game import exchange, money
from payjudge.payola.exchange.market import MarketOrder, Side
from payjudge.payola.exchange.phase import ExchangeSheet, run_exchange
from payjudge.rules.phase import Phase
from payjudge.store import repo
from payjudge.store.models import Game
from payjudge.vocabulary import GameStatus, LedgerKind

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
COMPANIES = ("FRANCE", "ITALY")
INVESTORS = ("ALICE", "BOB", "CAROL")
FLOAT, YEAR = Phase.parse("W1900X"), Phase.parse("W1901X")


def _game(s) -> Game:
    game = Game(
        name="ex1",
        variant="payola",
        map_name="standard",
        state=GameStatus.ACTIVE,
        master_address="m@x",
        master_password="h",
        rules=["EXCHANGE"],
        settings={},
        timing={},
        created_at=T0,
        version=0,
        reminded=[],
    )
    s.add(game)
    s.flush()
    return game


def _check_invariants(s, game, shares=10):
    """No negative balance; every company's shares add up to SHARES, none negative."""
    assert all(v >= 0 for v in repo.balances(s, game).values())
    held = repo.holdings(s, game)
    for company in COMPANIES:
        mine = {h: n for (c, h), n in held.items() if c == company}
        assert sum(mine.values()) == shares and all(n >= 0 for n in mine.values())


def _order(acc, side, n, company, p):
    return MarketOrder(acc, side, company, n, p)


def test_the_float_and_a_year_booked_then_rolled_back(database):
    with database.transaction() as s:
        game = _game(s)
        for company in COMPANIES:  # the rule 2.1 openings, as every Payola game books them
            money.record(s, game, company, LedgerKind.OPENING, 48, turn_seq=0, phase=FLOAT, now=T0)
        state = exchange.open_market(
            s,
            game,
            COMPANIES,
            INVESTORS,
            capital=32,
            shares=10,
            worths={"PAR": 16},
            reserve=1,
            turn_seq=0,
            phase=FLOAT,
            now=T0,
        )
        assert sum(repo.balances(s, game).values()) == 2 * 48 + 3 * 32
        _check_invariants(s, game)
        snapshot = exchange.market_json(state)

    # the float: ALICE and BOB buy FRANCE, CAROL buys ITALY; CAROL votes herself in
    with database.transaction() as s:
        game = repo.game_by_name(s, "ex1")
        state = exchange.load_market(s, game, snapshot)
        exchange.set_ceo_vote(s, game, "CAROL", "ITALY", "CAROL", now=T0)
        s.flush()
        sheets = {
            "@ALICE": ExchangeSheet("@ALICE", (_order("@ALICE", Side.BUY, 7, "FRANCE", 4),)),
            "@BOB": ExchangeSheet("@BOB", (_order("@BOB", Side.BUY, 5, "FRANCE", 3),)),
            "@CAROL": ExchangeSheet("@CAROL", (_order("@CAROL", Side.BUY, 3, "ITALY", 2),)),
        }
        before = repo.balances(s, game)
        out = run_exchange(
            state, sheets, before, exchange.ceo_votes(s, game), set(INVESTORS), seed=1, float_price=1
        )
        exchange.book(s, game, out, turn_seq=0, phase=FLOAT, now=T0)
        s.flush()
        after = repo.balances(s, game)
        assert sum(after.values()) == sum(before.values())  # nothing created or destroyed
        # FRANCE at 3 (buyers left over): ALICE's higher bid fills whole, BOB gets the rest;
        # ITALY at 1 (sellers left over)
        assert after == {"FRANCE": 78, "ITALY": 51, "@ALICE": 11, "@BOB": 23, "@CAROL": 29}
        _check_invariants(s, game)
        assert exchange.load_market(s, game, exchange.market_json(out.state)).register == {
            "FRANCE": {"@ALICE": 7, "@BOB": 3},
            "ITALY": {"@CAROL": 3, "ITALY": 7},
        }
        assert out.state.ceos == {"FRANCE": "ALICE", "ITALY": "CAROL"}
        snapshot = exchange.market_json(out.state)

    # a year on (income would come from the Diplomacy phases): FRANCE pays a dividend,
    # ALICE sells to CAROL, BOB's vote and CAROL's shares elect BOB
    with database.transaction() as s:
        game = repo.game_by_name(s, "ex1")
        state = exchange.load_market(s, game, snapshot)
        exchange.set_ceo_vote(s, game, "BOB", "FRANCE", "BOB", now=T0)
        exchange.set_ceo_vote(s, game, "CAROL", "FRANCE", "BOB", now=T0)
        exchange.set_ceo_vote(s, game, "ALICE", "FRANCE", "ALICE", now=T0)
        s.flush()
        sheets = {
            "FRANCE": ExchangeSheet("FRANCE", (), dividend=2),
            "@ALICE": ExchangeSheet("@ALICE", (_order("@ALICE", Side.SELL, 3, "FRANCE", 4),)),
            "@CAROL": ExchangeSheet("@CAROL", (_order("@CAROL", Side.BUY, 3, "FRANCE", 5),)),
        }
        before = repo.balances(s, game)
        out = run_exchange(state, sheets, before, exchange.ceo_votes(s, game), set(INVESTORS), seed=2)
        exchange.book(s, game, out, turn_seq=5, phase=YEAR, now=T0)
        s.flush()
        after = repo.balances(s, game)
        assert sum(after.values()) == sum(before.values())
        # dividend 2 x 10 = 20; 3 shares at 4 (the nearest the last price, 3)
        assert after == {"FRANCE": 58, "ITALY": 51, "@ALICE": 11 + 14 + 12, "@BOB": 23 + 6, "@CAROL": 29 - 12}
        _check_invariants(s, game)
        assert out.state.ceos["FRANCE"] == "BOB"  # BOB 3 + CAROL 3 against ALICE 4
        kinds = {e.kind for e in money.entries(s, game) if e.turn_seq == 5}
        assert kinds == {
            LedgerKind.DIVIDEND_OUT,
            LedgerKind.DIVIDEND_IN,
            LedgerKind.PURCHASE,
            LedgerKind.SALE,
        }

    # ROLLBACK of the year's exchange phase: new entries restore money and shares
    with database.transaction() as s:
        game = repo.game_by_name(s, "ex1")
        assert money.roll_back(s, game, 5, phase=YEAR, now=T0) == 5
        assert exchange.roll_back_shares(s, game, 5, phase=YEAR, now=T0) == 2
        s.flush()
        assert repo.balances(s, game) == {"FRANCE": 78, "ITALY": 51, "@ALICE": 11, "@BOB": 23, "@CAROL": 29}
        assert exchange.load_market(s, game, snapshot).register["FRANCE"] == {"@ALICE": 7, "@BOB": 3}
        _check_invariants(s, game)
        # rolling back twice reverses nothing more
        assert exchange.roll_back_shares(s, game, 5, phase=YEAR, now=T0) == 0
