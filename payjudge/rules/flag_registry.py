"""The registry of rule flags: one declaration per flag of DPjudge's catalog (seed 003).

CREATE, `payjudge auction`, `HELP RULES`, docs/rules.md and the engines all read this table:
a flag's status says whether a game may use it, `implies` what it brings with it (as the
catalog says), `excludes` what it cannot be combined with. Descriptions are ours. The
declarations are kept by section (`flags_game.py`, `flags_play.py`, `flags_payola.py`);
here they become the registry, with the closure of a set of flags and the answers to a
game's choice of flags (`assess`).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from types import MappingProxyType
from typing import Final

from .flags import Flag as F
from .flags import FlagInfo, Status
from .flags_game import GAME_FLAGS
from .flags_payola import PAYOLA_FLAGS
from .flags_play import PLAY_FLAGS

_DECLARATIONS: Final = (*GAME_FLAGS, *PLAY_FLAGS, *PAYOLA_FLAGS)


def _symmetric(declarations: tuple[FlagInfo, ...]) -> dict[F, FlagInfo]:
    """Index the declarations; an exclusion declared on one side holds on both."""
    others: dict[F, set[F]] = {d.flag: set(d.excludes) for d in declarations}
    for d in declarations:
        for other in d.excludes:
            others[other].add(d.flag)
    out = {}
    for d in declarations:
        out[d.flag] = replace(d, excludes=frozenset(others[d.flag]))
    return out


REGISTRY: Mapping[F, FlagInfo] = MappingProxyType(_symmetric(_DECLARATIONS))

# what `RULE !X` may disable, for messages: "!HIDE_DUMMIES with BLIND"
_DISABLEABLE: Final = ", ".join(
    f"!{off.value} with {info.name}"
    for info in REGISTRY.values()
    for off in sorted(info.disable, key=list(F).index)
)

# every name a Master may write, canonical and alias, upper case
NAMES: Final[Mapping[str, F]] = MappingProxyType(
    {**{f.value: f for f in REGISTRY}, **{a: d.flag for d in REGISTRY.values() for a in d.aliases}}
)


def lookup(name: str) -> F | None:
    """The flag a Master's word names (any case, aliases included), or None."""
    return NAMES.get(name.strip().upper())


def _expand(start: Iterable[F], in_force: frozenset[F], off: frozenset[F] = frozenset()) -> frozenset[F]:
    # a default is dropped when the flag that countermands it is in force (`in_force`);
    # the flags `off` (disabled with `RULE !X`) are never brought
    have = set(start)
    todo = list(have)
    while todo:
        info = REGISTRY[todo.pop()]
        brought = set(info.implies) | {f for f, unless in info.defaults if unless not in in_force}
        for flag in brought - have - off:
            have.add(flag)
            todo.append(flag)
    return frozenset(have)


def closure(flags: Iterable[F], off: Iterable[F] = ()) -> frozenset[F]:
    """The flags in force when `flags` are named: with those they imply, again and again, and
    their defaults unless a flag in force countermands them (LATE_CHANGES for CIVIL_DISORDER).
    The flags `off` (the Master's `RULE !X`, checked by `assess`) are not brought."""
    return _closure(frozenset(flags), frozenset(off))


@lru_cache(maxsize=256)  # a game names the same few flags at every phase
def _closure(named: frozenset[F], off: frozenset[F] = frozenset()) -> frozenset[F]:
    hard = _expand(named, frozenset(REGISTRY), off)  # implications only: every default dropped
    return _expand(named, hard, off)


def split_off(names: Iterable[str]) -> tuple[list[str], list[str]]:
    """The names a Master wrote, as (flags named, flags disabled): `!X` disables X."""
    named: list[str] = []
    off: list[str] = []
    for raw in names:
        name = str(raw).strip().upper()
        if name.startswith("!"):
            off.append(name[1:].strip())
        elif name:
            named.append(name)
    return named, off


class Verdict(enum.Enum):
    UNKNOWN = "unknown"
    NOT_YET = "not yet"
    NOT_DISABLED = "cannot be disabled"
    NOT_ALLOWED = "not allowed"
    ALWAYS = "always in force"
    CONFLICT = "conflict"


@dataclass(frozen=True)
class Answer:
    """What the registry answers about one named flag, or about two that cannot go together.

    `names` are the words the Master wrote (one, or the two that clash); `flags` the flags
    concerned (for a conflict: the two that exclude each other, maybe brought by `names`)."""

    verdict: Verdict
    names: tuple[str, ...]
    flags: tuple[F, ...] = ()

    @property
    def refused(self) -> bool:
        return self.verdict is not Verdict.ALWAYS

    @property
    def message(self) -> str:
        if self.verdict is Verdict.UNKNOWN:
            return f"unknown rule {self.names[0]}"
        info = REGISTRY[self.flags[0]]
        if self.verdict is Verdict.NOT_DISABLED:
            if len(self.names) > 1:
                return f"RULE {self.names[0]} contradicts RULE {self.names[1]}"
            bringers = [f.value for f in self.flags[1:]]
            if not bringers:
                return (
                    f"RULE {self.names[0]}: only a rule that another named rule brings may be "
                    f"disabled, and no rule named here brings {info.name}"
                )
            return (
                f"RULE {self.names[0]}: {info.name}, which {' and '.join(bringers)} "
                f"{'brings' if len(bringers) == 1 else 'bring'}, "
                f"cannot be disabled (only {_DISABLEABLE} can)"
            )
        if self.verdict is Verdict.NOT_YET:
            return f"RULE {self.names[0]} is not supported yet"
        if self.verdict is Verdict.NOT_ALLOWED:
            return f"RULE {self.names[0]} is not allowed: {info.reason}"
        if self.verdict is Verdict.ALWAYS:
            return f"RULE {self.names[0]} is always in force in a Payola game ({info.summary})"
        sides = [
            name if lookup(name) is flag else f"{name} (which brings {flag.value})"
            for name, flag in zip(self.names, self.flags)
        ]
        return f"{sides[0]} and {sides[1]} cannot be used together"


def assess(names: Iterable[str]) -> tuple[Answer, ...]:
    """Every answer about the flags a game asks for: each name that is unknown, not (yet)
    allowed or always in force, then each pair that cannot be combined, including pairs
    formed by what the named flags bring with them. A game may use `names` when no answer
    is `refused`."""
    answers: list[Answer] = []
    named, off_names = split_off(names)
    written = _assess_named(named, answers)
    off = _assess_off(off_names, written, answers)
    in_force = closure(written, off)
    answers += _assess_requires(written, in_force, off)
    answers += _assess_clashes(written, in_force, off)
    return tuple(answers)


# the answer about a flag named whose status is not SUPPORTED
_STATUS_VERDICTS: Final = {
    Status.NOT_YET: Verdict.NOT_YET,
    Status.NOT_ALLOWED: Verdict.NOT_ALLOWED,
    Status.ALWAYS: Verdict.ALWAYS,
}


def _assess_named(named: list[str], answers: list[Answer]) -> dict[F, str]:
    """The flags named, each with the name it was first written under; the unknown names
    and the flags not (yet) allowed or always in force are added to `answers`."""
    written: dict[F, str] = {}
    for name in named:
        flag = lookup(name)
        if flag is None:
            answers.append(Answer(Verdict.UNKNOWN, (name,)))
            continue
        if flag in written:
            continue
        written[flag] = name
        status = REGISTRY[flag].status
        if status is not Status.SUPPORTED:
            answers.append(Answer(_STATUS_VERDICTS[status], (name,), (flag,)))
    return written


def _assess_requires(written: dict[F, str], in_force: frozenset[F], off: frozenset[F]) -> list[Answer]:
    """A flag allowed only beside another (FICTIONAL_OK, SHOW_PHANTOM: only with BLIND)."""
    answers = []
    for flag, name in written.items():
        lacking = next((f for f in _expand({flag}, in_force, off) if REGISTRY[f].requires - in_force), None)
        if lacking is not None and REGISTRY[flag].status is Status.SUPPORTED:
            answers.append(Answer(Verdict.NOT_ALLOWED, (name,), (lacking,)))
    return answers


def _assess_clashes(written: dict[F, str], in_force: frozenset[F], off: frozenset[F]) -> list[Answer]:
    """Each pair of flags in force that exclude each other, once, named by the flags
    written that bring them, in the order they were written."""
    reach = {flag: _expand({flag}, in_force, off) for flag in written}
    order = list(written)
    clashes: list[tuple[int, int, Answer]] = []
    for a in sorted(in_force, key=_ORDER.__getitem__):
        for b in sorted(REGISTRY[a].excludes & in_force, key=_ORDER.__getitem__):
            if _ORDER[b] < _ORDER[a]:
                continue  # each pair once
            by_a = next(f for f in order if a in reach[f])
            by_b = next(
                (f for f in order if b in reach[f] and f is not by_a), next(f for f in order if b in reach[f])
            )
            sides = sorted([(order.index(by_a), a), (order.index(by_b), b)], key=lambda s: s[0])
            answer = Answer(
                Verdict.CONFLICT, tuple(written[order[i]] for i, _ in sides), tuple(f for _, f in sides)
            )
            clashes.append((sides[0][0], sides[1][0], answer))
    return [answer for *_, answer in sorted(clashes, key=lambda c: (c[0], c[1]))]


def _assess_off(off_names: list[str], written: dict[F, str], answers: list[Answer]) -> frozenset[F]:
    """The flags `RULE !X` disables, each checked: X must be brought by a flag named (or
    brought in turn), every flag that brings it must allow it to be disabled (`disable`),
    and X must not be named as well. Refusals are added to `answers`."""
    brought = closure(written)
    off: set[F] = set()
    for name in off_names:
        flag = lookup(name)
        if flag is None:
            answers.append(Answer(Verdict.UNKNOWN, (f"!{name}",)))
            continue
        if flag in off:
            continue
        if flag in written:
            answers.append(Answer(Verdict.NOT_DISABLED, (f"!{name}", written[flag]), (flag,)))
            continue
        bringers = tuple(f for f in sorted(brought, key=_ORDER.__getitem__) if flag in REGISTRY[f].implies)
        if not bringers or any(flag not in REGISTRY[f].disable for f in bringers):
            answers.append(Answer(Verdict.NOT_DISABLED, (f"!{name}",), (flag, *bringers)))
            continue
        off.add(flag)
    return frozenset(off)


_ORDER: Final = {flag: i for i, flag in enumerate(F)}
