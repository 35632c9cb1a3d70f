"""An account's exchange orders as one typed value (text/exchange_orders.py): each kind of
line read into its own frozen value, how each line changes the sheet (trades replaced as a
whole by a message's first, DIVIDEND and each centre's WORTH by their latest), and the
stored text, which reads back to the same value (also the form stored before it existed)."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from payjudge.payola.exchange.market import Side
from payjudge.text.exchange import (
    CeoVoteLine,
    DividendLine,
    PassLine,
    TradeLine,
    WorthLine,
    normalized,
    parse_exchange_line,
)
from payjudge.text.exchange_orders import ExchangeOrders, read_exchange_orders
from payjudge.text.problems import LineError

COMPANIES = {"FRANCE": "FRANCE", "F": "FRANCE", "ITALY": "ITALY", "I": "ITALY"}
CENTRES = ("BRE", "MAR", "PAR", "ROM")


def parse(line: str):
    return parse_exchange_line(line, companies=COMPANIES, shares=10, centres=CENTRES)


def read(text: str) -> ExchangeOrders:
    return read_exchange_orders(text, companies=COMPANIES, shares=10, centres=CENTRES)


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("BUY 4 FRANCE AT 6", TradeLine(Side.BUY, 4, "FRANCE", 6)),
        ("buy 4 f at 6", TradeLine(Side.BUY, 4, "FRANCE", 6)),
        ("SELL 2 ITALY AT 3", TradeLine(Side.SELL, 2, "ITALY", 3)),
        ("PASS", PassLine()),
        ("DIVIDEND 0", DividendLine(0)),
        ("DIVIDEND 7", DividendLine(7)),
        ("WORTH PAR 20", WorthLine("PAR", 20)),
        ("WORTH 12", WorthLine(None, 12)),
        ("VOTE CEO F BOB", CeoVoteLine("FRANCE", "BOB")),
        ("VOTE CEO ITALY NONE", CeoVoteLine("ITALY", None)),
    ],
)
def test_each_order_is_its_own_frozen_value(line, value):
    parsed = parse(line)
    assert parsed == value and type(parsed) is type(value)
    assert dataclasses.is_dataclass(parsed) and type(parsed).__dataclass_params__.frozen
    assert parse(normalized(parsed)) == parsed  # the text form round-trips


def test_a_message_first_trade_replaces_the_trades_on_record():
    sheet = read("BUY 4 FRANCE AT 6\nSELL 1 ITALY AT 9")
    later = sheet.with_trade(TradeLine(Side.BUY, 1, "ITALY", 2), fresh=True)
    assert later.trades == (TradeLine(Side.BUY, 1, "ITALY", 2),)
    more = later.with_trade(TradeLine(Side.SELL, 3, "FRANCE", 5), fresh=False)
    assert [t.company for t in more.trades] == ["ITALY", "FRANCE"]
    assert sheet.trades == (TradeLine(Side.BUY, 4, "FRANCE", 6), TradeLine(Side.SELL, 1, "ITALY", 9))


def test_pass_and_trades_exclude_each_other():
    sheet = read("BUY 4 FRANCE AT 6").with_pass()
    assert sheet.passed and sheet.trades == () and str(sheet) == "PASS"
    again = sheet.with_trade(TradeLine(Side.BUY, 1, "FRANCE", 2), fresh=False)
    assert not again.passed and str(again) == "BUY 1 FRANCE AT 2"


def test_dividend_and_each_worth_are_replaced_by_their_latest_line():
    sheet = ExchangeOrders().with_dividend(DividendLine(2)).with_dividend(DividendLine(3))
    assert sheet.dividend == DividendLine(3)
    sheet = sheet.with_worth(16, ["BRE", "MAR", "PAR"]).with_worth(20, ["PAR"])
    assert sheet.worth_changes == {"BRE": 16, "MAR": 16, "PAR": 20}
    assert str(sheet) == "DIVIDEND 3\nWORTH BRE 16\nWORTH MAR 16\nWORTH PAR 20"


def test_the_stored_text_is_trades_first_and_reads_back():
    # what the judge stored before the value existed: the lines in the order last changed
    old = "DIVIDEND 2\nBUY 1 FRANCE AT 5\nWORTH BRE 14\nWORTH PAR 14\n"
    sheet = read(old)
    assert str(sheet) == "BUY 1 FRANCE AT 5\nDIVIDEND 2\nWORTH BRE 14\nWORTH PAR 14"
    assert read(str(sheet)) == sheet
    assert read("") == ExchangeOrders() and str(ExchangeOrders()) == ""


@pytest.mark.parametrize("text", ["VOTE CEO FRANCE BOB", "WORTH 12", "SHORT 1 FRANCE"])
def test_a_stored_sheet_holds_only_sheet_lines(text):
    with pytest.raises(LineError):
        read(text)


def test_with_line_takes_every_kind_of_sheet_line():
    sheet = ExchangeOrders()
    for line in ("SELL 2 ITALY AT 3", "DIVIDEND 1", "WORTH ROM 4"):
        sheet = sheet.with_line(parse(line))
    assert str(sheet) == "SELL 2 ITALY AT 3\nDIVIDEND 1\nWORTH ROM 4"
    assert sheet.with_line(PassLine()).trades == ()
    with pytest.raises(ValueError):
        sheet.with_line(WorthLine(None, 3))


trade = st.builds(
    TradeLine,
    side=st.sampled_from(Side),
    shares=st.integers(1, 10),
    company=st.sampled_from(["FRANCE", "ITALY"]),
    price=st.integers(1, 9999),
)
sheet_line = st.one_of(
    trade,
    st.just(PassLine()),
    st.builds(DividendLine, st.integers(0, 9999)),
    st.builds(WorthLine, st.sampled_from(CENTRES), st.integers(0, 500)),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(sheet_line, st.booleans()), max_size=12))
def test_any_sheet_reads_back_from_its_stored_text(lines):
    sheet = ExchangeOrders()
    for line, fresh in lines:
        sheet = sheet.with_line(line, fresh=fresh)
    assert read(str(sheet)) == sheet
    assert not (sheet.passed and sheet.trades)
    assert len({w.centre for w in sheet.worths}) == len(sheet.worths)
