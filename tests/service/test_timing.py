"""TIMING: deadlines snap to a time of day, skip days off and absences, in the game's zone."""

from datetime import UTC, datetime, timedelta

import pytest

from payjudge.game.timing import Timing, TimingError, show_time
from payjudge.rules.phase import PhaseType

UTC = UTC


def test_defaults():
    t = Timing.parse("")
    now = datetime(2026, 3, 2, 14, 7, tzinfo=UTC)
    assert t.deadline(PhaseType.MOVEMENT, now) == datetime(2026, 3, 5, 14, 7, tzinfo=UTC)
    assert t.deadline(PhaseType.RETREATS, now) == datetime(2026, 3, 3, 14, 7, tzinfo=UTC)


@pytest.mark.parametrize(
    "text, now, expected",
    [
        # AT snaps to the first such time at or after (length - 8 hours)
        (
            "MOVE 1D AT 12:00",
            datetime(2026, 3, 2, 14, 0, tzinfo=UTC),
            datetime(2026, 3, 3, 12, 0, tzinfo=UTC),
        ),
        (
            "MOVE 1D AT 12:00",
            datetime(2026, 3, 2, 11, 0, tzinfo=UTC),
            datetime(2026, 3, 3, 12, 0, tzinfo=UTC),
        ),
        (
            "MOVE 2D AT 18:00 ZONE Europe/Paris",
            datetime(2026, 7, 1, 9, 0, tzinfo=UTC),
            datetime(2026, 7, 3, 16, 0, tzinfo=UTC),
        ),  # 18:00 CEST
        # a short phase is not snapped
        (
            "MOVE 6H AT 12:00",
            datetime(2026, 3, 2, 14, 0, tzinfo=UTC),
            datetime(2026, 3, 2, 20, 0, tzinfo=UTC),
        ),
        # weekends off: Friday + 1 day lands on Saturday -> Monday
        (
            "MOVE 1D DAYS -MTWTF-",
            datetime(2026, 3, 6, 10, 0, tzinfo=UTC),
            datetime(2026, 3, 9, 10, 0, tzinfo=UTC),
        ),
    ],
)
def test_deadlines(text, now, expected):
    assert Timing.parse(text).deadline(PhaseType.MOVEMENT, now) == expected


def test_absence_pushes_the_deadline():
    t = Timing.parse("MOVE 2D")
    now = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)
    away = ((datetime(2026, 3, 3, 0, 0, tzinfo=UTC), datetime(2026, 3, 8, 0, 0, tzinfo=UTC)),)
    assert t.deadline(PhaseType.MOVEMENT, now, absences=away) == datetime(2026, 3, 8, 0, 0, tzinfo=UTC)


def test_round_trip_and_errors():
    t = Timing.parse(
        "MOVE 3D RETREAT 12H ADJUST 1D AT 18:00 DAYS -MTWTF- WARN 1D,4H GRACE 2D ZONE Europe/Paris"
    )
    assert Timing.from_json(t.to_json()) == t
    assert t.warn == (timedelta(days=1), timedelta(hours=4))
    for bad in ("MOVE 3X", "AT 25:00", "DAYS MTW", "ZONE Mars/Olympus", "SOON 1D", "MOVE"):
        with pytest.raises(TimingError):
            Timing.parse(bad)


def test_times_are_shown_absolute_with_their_zone():
    when = datetime(2026, 7, 3, 16, 0, tzinfo=UTC)
    assert show_time(when, "Europe/Paris") == "Fri 03 Jul 2026 18:00 CEST"
    assert show_time(when) == "Fri 03 Jul 2026 16:00 UTC"


def test_exchange_phases_take_their_own_length_or_the_adjust_length():
    """Exchange Payola (docs/exchange.md): `TIMING … EXCHANGE 2D`; without it, ADJUST's."""
    t = Timing.parse("ADJUST 1D EXCHANGE 2D")
    assert t.length(PhaseType.EXCHANGE) == timedelta(days=2)
    assert Timing.from_json(t.to_json()) == t
    assert "EXCHANGE 2D" in t.describe()
    plain = Timing.parse("ADJUST 12H")
    assert plain.length(PhaseType.EXCHANGE) == timedelta(hours=12)
    assert "exchange" not in plain.to_json() and "EXCHANGE" not in plain.describe()
