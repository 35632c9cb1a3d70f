"""What the simulated parties write: plausible mail in the judge's language (shared/spec/email.md).

Every function returns the body of one message (without its SIGNON line) from a seeded
`random.Random`; nothing here reads the database. Secrets carry a marker naming their owner
(`Marker`), so the checks can tell where each one went.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from payjudge.rules.position import Position
from payjudge.rules.possible import possible_adjustments, possible_orders

BAD_LINES = (
    "5 : A XYZ - QQQ",
    "2*5 $",
    "hello there, judge",
    "12 :",
    "-3 : A PAR H",
    "5 ~ F LON - NTH",
    "TRANSFER lots TO nobody",
    "VOTE MAYBE",
    "ACCEPT ZZZ",
    "99999999 $",
)


@dataclass(frozen=True)
class Marker:
    """A secret's tag: `SIM<seed>-<owner>-<to>-<n>`; `to` is `ALL` for a sheet's own secrets
    (`-` is never part of a power's name, so the parts read back unambiguously)."""

    seed: int
    owner: str
    to: str
    n: int

    def __str__(self) -> str:
        return f"SIM{self.seed}-{self.owner}-{self.to}-{self.n}"


def sheet(rng: random.Random, pos: Position, power: str, marker: Marker, *, blind: bool, rich: bool) -> str:
    """An offer sheet: bribes to the power's own units and some foreign ones, maybe savings,
    maybe a missing unit (Tin Cup ignores those silently), a comment with the marker."""
    lines = [f"% plans {marker}"]
    for owner, unit in _units(pos):
        own = str(owner) == power
        if not own and rng.random() > 0.25:
            continue
        orders = _sorted(possible_orders(pos, unit))
        if not orders:
            continue
        order = rng.choice(orders)
        # foreign bribes come in a few round amounts, so that ties happen (rules 4.4, 5.2)
        amount = rng.randint(0, 40 if rich else 9) if own else rng.choice((1, 2, 3, 5, 5, 10))
        kind = ":" if own or rng.random() < 0.5 else rng.choice(">@!&")
        if kind == "!" and rng.random() < 0.5:
            kind = ":"
        extra = ""
        if kind == ":" and len(orders) > 1 and rng.random() < 0.2:
            other = rng.choice(orders)
            if other != order:
                extra = f" | {str(other).split(' ', 2)[2]}"
        lines.append(f"{amount} {kind} {order}{extra}")
    if blind and rng.random() < 0.5:
        lines.append(f"{rng.randint(1, 5)} : A {_province(rng, pos)} H")
    if rng.random() < 0.25:
        lines.append(f"{rng.randint(1, 20)} $ % rainy day {marker}")
    return "\n".join(lines)


def _units(pos: Position) -> list:
    # in a fixed order: a set's order changes with the process's string hashing, and one
    # seed must give the same game in every process
    return sorted(pos.all_units(), key=lambda pu: (str(pu[0]), str(pu[1])))


def _sorted(orders: list) -> list:
    return sorted(orders, key=str)


def _province(rng: random.Random, pos: Position) -> str:
    land = sorted(str(p) for p in pos.map.provinces)
    return rng.choice(land) if land else "PAR"


def plain_sheet(pos: Position, power: str) -> str:
    """The sheet a power falls back on when its first was refused: its units hold, for free."""
    return "\n".join(f"0 : {unit} H" for owner, unit in _units(pos) if str(owner) == power)


def orders(rng: random.Random, pos: Position, power: str) -> str:
    """Retreats or adjustments, ordered as a player would (at most what is due)."""
    if pos.phase.is_retreats:
        out = []
        for d in sorted(pos.dislodged.get(power, ()), key=lambda d: str(d.unit)):  # type: ignore[call-overload]
            choices = _sorted(possible_orders(pos, d.unit))
            if choices:
                out.append(str(rng.choice(choices)))
        return "\n".join(out)
    need = abs(pos.adjustment(power))  # type: ignore[arg-type]
    options = _sorted(possible_adjustments(pos, power))  # type: ignore[arg-type]
    if not need or not options:
        return ""
    picks = rng.sample(options, min(need, len(options)))
    return "\n".join(str(o) for o in picks)


def acceptance(rng: random.Random, initial: str, others: list[str]) -> str:
    """An acceptance list: the power's own initial somewhere, some others, and a `?`."""
    names = rng.sample(others, rng.randint(0, min(3, len(others))))
    names.insert(rng.randint(0, len(names)), initial)
    return f"ACCEPT {''.join(names)}?"


def press(rng: random.Random, to: str, marker: Marker, *, grey: bool = False) -> str:
    options = " GREY" if grey else ""
    return f"PRESS TO {to}{options}\nA quiet word between us: {marker}\nENDPRESS"


def broadcast(rng: random.Random, seed: int) -> str:
    return f"BROADCAST\nGreetings to all from the simulator, game seed {seed}.\nENDPRESS"


def junk(rng: random.Random) -> str:
    return "\n".join(rng.sample(BAD_LINES, rng.randint(1, 3)))
