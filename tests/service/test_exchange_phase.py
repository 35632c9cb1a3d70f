"""An exchange phase as a turn of a game (game/exchange.py `process_exchange`), on SQLite
and PostgreSQL: the float W1900X, stored exchange sheets and votes, the turn closed and
Spring 1901 opened with the market after it; then a year's exchange W1901X with a
dividend, a trade, an election and new worths. Money and shares are checked after each.

Investor seats are made directly here: JOIN for investors is not built yet."""

from __future__ import annotations

import email
import email.policy
import re
from datetime import UTC, datetime

from payjudge.config import Config
from payjudge.game import exchange, money
from payjudge.game.mailer import Mailer
from payjudge.game.state import GameState
from payjudge.payola.exchange.worth import starting_worths
from payjudge.payola.rules import PayolaRules
from payjudge.rules.mapfile import load_variant
from payjudge.rules.phase import Phase
from payjudge.rules.position import Position
from payjudge.rules.serial import position_to_json
from payjudge.store import repo
from payjudge.store.models import Game, Seat, Turn
from payjudge.text.exchange_orders import ExchangeOrders, read_exchange_orders
from payjudge.vocabulary import GameStatus, LedgerKind, SeatKind, SeatStatus, TurnStatus

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
INVESTORS = ("ALICE", "BOB", "CAROL")


def _sheet(*lines: str) -> ExchangeOrders:
    """An exchange sheet as stored, from its lines."""
    standard = load_variant("standard")
    companies = {str(p): str(p) for p in standard.power_names}
    return read_exchange_orders(
        "\n".join(lines), companies=companies, shares=10, centres=standard.supply_centers
    )


STANDARD = load_variant("standard")
FLOAT = Phase.parse("W1900X")


def _start(s) -> Game:
    game = Game(
        name="ex1",
        variant="payola",
        map_name="standard",
        state=GameStatus.ACTIVE,
        master_address="m@x",
        master_password="h",
        rules=["EXCHANGE"],
        settings={"seed_base": "ab", "float": 1},
        timing={},
        created_at=T0,
        version=0,
        reminded=[],
        phase=FLOAT,
    )
    s.add(game)
    s.flush()
    for name in INVESTORS:
        s.add(
            Seat(
                game_id=game.id,
                kind=SeatKind.INVESTOR,
                investor_name=name,
                address=f"{name.lower()}@x",
                status=SeatStatus.PLAYING,
                joined_at=T0,
            )
        )
    position = Position.initial(STANDARD).replace(phase=FLOAT)
    for power in STANDARD.power_names:
        money.record(s, game, power, LedgerKind.OPENING, 48, turn_seq=0, phase=FLOAT, now=T0)
    state = exchange.open_market(
        s,
        game,
        STANDARD.power_names,
        INVESTORS,
        capital=50,
        shares=10,
        worths=starting_worths(position, PayolaRules()),
        reserve=1,
        turn_seq=0,
        phase=FLOAT,
        now=T0,
    )
    s.add(
        Turn(
            game_id=game.id,
            seq=1,
            phase=FLOAT,
            position=position_to_json(position),
            seed=1,
            status=TurnStatus.OPEN,
            opened_at=T0,
            market=exchange.market_json(state),
        )
    )
    s.flush()
    return game


def _invariants(s, game):
    assert all(v >= 0 for v in repo.balances(s, game).values())
    held = repo.holdings(s, game)
    for company in STANDARD.power_names:
        mine = [n for (c, _), n in held.items() if c == company]
        assert sum(mine) == 10 and all(n >= 0 for n in mine)


def test_the_float_and_a_years_exchange_as_turns(database):
    with database.transaction() as s:
        game = _start(s)
        st = GameState(s, game)
        exchange.record_exchange_sheet(st, "@ALICE", _sheet("BUY 7 FRANCE AT 4", "BUY 2 ITALY AT 2"), now=T0)
        exchange.record_exchange_sheet(st, "@BOB", _sheet("BUY 5 FRANCE AT 3"), now=T0)
        exchange.record_exchange_sheet(st, "@BOB", _sheet("BUY 3 FRANCE AT 3"), now=T0)  # replaces the first
        exchange.record_exchange_sheet(st, "@CAROL", _sheet("PASS"), now=T0)
        exchange.record_exchange_sheet(st, "FRANCE", _sheet("DIVIDEND 5"), now=T0)  # no CEO yet: nothing
        exchange.set_ceo_vote(s, game, "CAROL", "FRANCE", "CAROL", now=T0)
        s.flush()
        total = sum(repo.balances(s, game).values())
        mailer = Mailer(s, Config(), T0)
        outcome, spring = exchange.process_exchange(st, now=T0, mailer=mailer)
        sent = {(m.recipients[0], m.subject) for m in mailer.queued}
        assert ("m@x", "Exchange results ex1 W1900X") in sent
        assert {r for r, subject in sent if subject.startswith("Exchange statement")} == {
            "alice@x",
            "bob@x",
            "carol@x",
        }
        assert not any("report" in subject for _, subject in sent)  # no year to report at the float
        assert spring.phase == Phase.parse("S1901M") and game.phase == spring.phase
        assert Position.initial(STANDARD).units == GameState(s, game).position.units
        assert sum(repo.balances(s, game).values()) == total
        _invariants(s, game)
        # FRANCE: 10 shares, bids 7 at 4 and 3 at 3, exactly the pool: the reserve's side (1)
        traded = [(c.company, c.price, c.volume) for c in outcome.clearings if c.volume]
        assert traded == [("FRANCE", 1, 10), ("ITALY", 1, 2)]
        assert spring.market["ceos"]["FRANCE"] == "ALICE" and spring.market["ceos"]["ITALY"] == "ALICE"
        assert spring.market["ceos"]["ENGLAND"] is None  # nobody holds it: unmanaged
        assert repo.balances(s, game)["@ALICE"] == 50 - 7 - 2

    # a year on: W1901X, FRANCE's CEO (ALICE) pays 2 a share and sets worths; BOB buys from
    # ALICE; BOB and CAROL vote BOB
    with database.transaction() as s:
        game = repo.game_by_name(s, "ex1")
        st = GameState(s, game)
        spring = st.turn
        year = Phase.parse("W1901X")
        spring.status = TurnStatus.PROCESSED
        s.add(
            Turn(
                game_id=game.id,
                seq=spring.seq + 1,  # (the Diplomacy phases of 1901 are not played here)
                phase=year,
                position=position_to_json(Position.initial(STANDARD).replace(phase=year)),
                seed=2,
                status=TurnStatus.OPEN,
                opened_at=T0,
                market=spring.market,
            )
        )
        s.flush()
        st = GameState(s, game)
        exchange.record_exchange_sheet(
            st, "FRANCE", _sheet("DIVIDEND 2", "WORTH PAR 20", "WORTH BRE 12"), now=T0
        )
        exchange.record_exchange_sheet(st, "@ALICE", _sheet("SELL 4 FRANCE AT 2"), now=T0)
        exchange.record_exchange_sheet(st, "@BOB", _sheet("BUY 4 FRANCE AT 3"), now=T0)
        exchange.set_ceo_vote(s, game, "BOB", "FRANCE", "BOB", now=T0)
        exchange.set_ceo_vote(s, game, "ALICE", "FRANCE", "ALICE", now=T0)
        s.flush()
        before = repo.balances(s, game)
        mailer = Mailer(s, Config(), T0)
        outcome, spring = exchange.process_exchange(st, now=T0, mailer=mailer, income={"FRANCE": 48})
        after = repo.balances(s, game)
        # the bodies (the headers' Message-IDs are random hex, where a balance could show)
        mails = {
            (m.recipients[0], m.subject): email.message_from_bytes(m.raw, policy=email.policy.default)
            .get_body()
            .get_content()
            for m in mailer.queued
        }
        # privacy: the public results carry no balance and no holder who is not CEO
        results = mails[("alice@x", "Exchange results ex1 W1901X")]
        assert "CAROL" not in results and not re.search(rf"\b{after['@ALICE']}\b", results)
        # each statement goes to its owner alone and names nobody else
        bob = mails[("bob@x", "Exchange statement ex1 W1901X")]
        assert "ALICE" not in bob and "CAROL" not in bob
        # ALICE acted for FRANCE in this phase: the company statement is hers
        assert ("alice@x", "Company statement for FRANCE ex1 W1901X") in mails
        assert ("bob@x", "Company statement for FRANCE ex1 W1901X") not in mails
        # FRANCE's report to its stockholders after the trades (ALICE and BOB), not to CAROL
        report = {r for r, subject in mails if subject == "Annual stockholder report for FRANCE 1901"}
        assert report == {"alice@x", "bob@x"}
        assert "income this year: 48 AgP" in mails[("bob@x", "Annual stockholder report for FRANCE 1901")]
        assert sum(after.values()) == sum(before.values())
        _invariants(s, game)
        assert spring.phase == Phase.parse("S1902M")
        assert after["FRANCE"] == before["FRANCE"] - 20
        # ALICE: 7 x 2 dividend, 4 sold at 2 (the nearest the last price, 1, of 2 and 3)
        assert after["@ALICE"] == before["@ALICE"] + 14 + 8
        assert after["@BOB"] == before["@BOB"] + 6 - 8
        # ALICE 3 shares against BOB's 7: BOB runs FRANCE from now on
        assert spring.market["ceos"]["FRANCE"] == "BOB"
        assert spring.market["worths"]["PAR"] == 20 and spring.market["worths"]["BRE"] == 12
