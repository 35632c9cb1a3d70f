"""A game's TIMING: how long each phase lasts, when deadlines fall, reminders and grace.

`TIMING MOVE 3D RETREAT 1D ADJUST 1D AT 18:00 DAYS -MTWTF- WARN 1D,4H GRACE 2D ZONE Europe/Paris`

MOVE/RETREAT/ADJUST (or NEXT for the last two) give each phase type's length; AT snaps a
deadline of 12 hours or more to a time of day in the game's zone (first such time at or
after the length minus 8 hours, as DPjudge did); DAYS lists the days a deadline may fall
on (Sunday first, `-` for a day off); WARN the reminders before a deadline; GRACE how long
after a deadline late powers have before civil disorder. Pure: the caller passes the time.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..rules.phase import PhaseType
from ..text.numbers import whole_number
from ..text.problems import LineError


class TimingError(ValueError):
    pass


_DUR = re.compile(r"^(?:([0-9]+)W)?(?:([0-9]+)D)?(?:([0-9]+)H)?(?:([0-9]+)M)?$")
_MAX_DURATION = timedelta(days=3650)  # a phase longer than ten years is a typing mistake
_DAYS = "SMTWTFS"


def parse_duration(text: str) -> timedelta:
    m = _DUR.match(text.upper())
    if not m or not any(m.groups()):
        raise TimingError(f"not a duration: {text!r} (write e.g. 3D, 12H, 1D12H, 30M)")
    try:
        w, d, h, mi = (whole_number(g or "0", 10**9, what="the duration") for g in m.groups())
    except LineError as exc:
        raise TimingError(exc.message) from None
    delta = timedelta(weeks=w, days=d, hours=h, minutes=mi)
    if delta > _MAX_DURATION:
        raise TimingError(f"{text[:20]!r} is too long: at most ten years (3650D)")
    return delta


def format_duration(delta: timedelta) -> str:
    minutes = int(delta.total_seconds() // 60)
    days, rest = divmod(minutes, 1440)
    hours, mins = divmod(rest, 60)
    out = (f"{days}D" if days else "") + (f"{hours}H" if hours else "") + (f"{mins}M" if mins else "")
    return out or "0M"


@dataclass(frozen=True)
class Timing:
    move: timedelta = timedelta(days=3)
    retreat: timedelta = timedelta(days=1)
    adjust: timedelta = timedelta(days=1)
    exchange: timedelta | None = None  # Exchange Payola's exchange phases; None: as ADJUST
    at: time | None = None
    days: str = "SMTWTFS"
    warn: tuple[timedelta, ...] = (timedelta(hours=4),)
    grace: timedelta = timedelta(0)
    zone: str = "UTC"

    @classmethod
    def parse(cls, text: str) -> Timing:
        """`MOVE 3D RETREAT 1D …`: key and value pairs, each key read by its parser in `_KEYS`."""
        words = text.split()
        values: dict = {}
        for i in range(0, len(words), 2):
            key = words[i].upper()
            if i + 1 >= len(words):
                raise TimingError(f"TIMING {key} needs a value")
            value = words[i + 1]
            if key == "NEXT":  # the retreat and adjust lengths, unless given on their own
                values.setdefault("retreat", parse_duration(value))
                values.setdefault("adjust", parse_duration(value))
                continue
            if key not in _KEYS:
                raise TimingError(
                    f"unknown TIMING key {key!r} "
                    "(MOVE, RETREAT, ADJUST, EXCHANGE, NEXT, AT, DAYS, WARN, GRACE, ZONE)"
                )
            name, read = _KEYS[key]
            values[name] = read(value)
        return cls(**values)

    def to_json(self) -> dict:
        doc = {
            "move": format_duration(self.move),
            "retreat": format_duration(self.retreat),
            "adjust": format_duration(self.adjust),
            "at": self.at.strftime("%H:%M") if self.at else None,
            "days": self.days,
            "warn": [format_duration(w) for w in self.warn],
            "grace": format_duration(self.grace),
            "zone": self.zone,
        }
        if self.exchange is not None:  # only Exchange games have it
            doc["exchange"] = format_duration(self.exchange)
        return doc

    @classmethod
    def from_json(cls, doc: dict | None) -> Timing:
        if not doc:
            return cls()
        at = doc.get("at")
        return cls(
            move=parse_duration(doc["move"]),
            retreat=parse_duration(doc["retreat"]),
            adjust=parse_duration(doc["adjust"]),
            exchange=parse_duration(doc["exchange"]) if doc.get("exchange") else None,
            at=time.fromisoformat(at) if at else None,
            days=doc.get("days", "SMTWTFS"),
            warn=tuple(parse_duration(w) for w in doc.get("warn", [])),
            grace=parse_duration(doc.get("grace", "0M")),
            zone=doc.get("zone", "UTC"),
        )

    def describe(self) -> str:
        parts = [
            f"MOVE {format_duration(self.move)}",
            f"RETREAT {format_duration(self.retreat)}",
            f"ADJUST {format_duration(self.adjust)}",
        ]
        if self.exchange is not None:
            parts.append(f"EXCHANGE {format_duration(self.exchange)}")
        if self.at:
            parts.append(f"AT {self.at.strftime('%H:%M')}")
        if self.days != "SMTWTFS":
            parts.append(f"DAYS {self.days}")
        if self.warn:
            parts.append("WARN " + ",".join(format_duration(w) for w in self.warn))
        if self.grace:
            parts.append(f"GRACE {format_duration(self.grace)}")
        parts.append(f"ZONE {self.zone}")
        return " ".join(parts)

    def length(self, phase_type: PhaseType) -> timedelta:
        return {
            PhaseType.MOVEMENT: self.move,
            PhaseType.RETREATS: self.retreat,
            PhaseType.ADJUSTMENTS: self.adjust,
            PhaseType.EXCHANGE: self.adjust if self.exchange is None else self.exchange,
        }[phase_type]

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.zone)

    def deadline(
        self,
        phase_type: PhaseType,
        now: datetime,
        *,
        factor: int = 1,
        absences: tuple[tuple[datetime, datetime], ...] = (),
    ) -> datetime:
        """The deadline of a phase that opens `now` (timezone-aware UTC)."""
        length = self.length(phase_type) * factor
        when = now + length
        for _ in range(32):  # absences and days off may push it several times
            moved = when
            if self.at is not None and length >= timedelta(hours=12):
                moved = self._snap(moved - timedelta(hours=8), self.at)
            moved = self._allowed_day(moved)
            for start, end in absences:
                if start <= moved < end:
                    moved = end
            if moved == when:
                break
            when = moved
        return when.replace(second=0, microsecond=0)

    def _snap(self, earliest: datetime, at: time) -> datetime:
        local = earliest.astimezone(self.tz)
        candidate = datetime.combine(local.date(), at, tzinfo=self.tz)
        if candidate < local:
            candidate = datetime.combine(local.date() + timedelta(days=1), at, tzinfo=self.tz)
        return candidate.astimezone(UTC)

    def _allowed_day(self, when: datetime) -> datetime:
        if "-" not in self.days:
            return when
        local = when.astimezone(self.tz)
        for _ in range(7):
            index = (local.weekday() + 1) % 7  # Sunday first
            if self.days[index] != "-":
                break
            local = local + timedelta(days=1)
        return local.astimezone(UTC)


def show_time(when: datetime | None, zone: str = "UTC") -> str:
    """An absolute time with its zone, as every mail shows it."""
    if when is None:
        return "none"
    local = when.astimezone(ZoneInfo(zone))
    return local.strftime("%a %d %b %Y %H:%M ") + (local.tzname() or zone)


def _time_of_day(value: str) -> time:
    m = re.match(r"^([0-9]{1,2}):([0-9]{2})$", value)
    if not m or int(m.group(1)) > 23 or int(m.group(2)) > 59:
        raise TimingError(f"TIMING AT needs a time of day like 18:00, not {value!r}")
    return time(int(m.group(1)), int(m.group(2)))


def _days(value: str) -> str:
    if len(value) != 7 or value.strip("-") == "":
        raise TimingError(
            "TIMING DAYS needs seven letters from Sunday to Saturday, a dash for a day off (e.g. -MTWTF-)"
        )
    return value.upper()


def _warnings(value: str) -> tuple[timedelta, ...]:
    return tuple(parse_duration(v) for v in value.split(",") if v)


def _zone(value: str) -> str:
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError):
        raise TimingError(f"unknown time zone {value!r}") from None
    return value


# TIMING's keys (NEXT aside): the field of `Timing` each sets, and how its value is read
_KEYS: dict[str, tuple[str, Callable[[str], object]]] = {
    **dict.fromkeys(("MOVE", "MOVEMENT"), ("move", parse_duration)),
    **dict.fromkeys(("RETREAT", "RETREATS"), ("retreat", parse_duration)),
    **dict.fromkeys(("ADJUST", "ADJUSTMENT", "ADJUSTMENTS", "BUILD", "BUILDS"), ("adjust", parse_duration)),
    "EXCHANGE": ("exchange", parse_duration),
    "AT": ("at", _time_of_day),
    "DAYS": ("days", _days),
    "WARN": ("warn", _warnings),
    "GRACE": ("grace", parse_duration),
    "ZONE": ("zone", _zone),
}
