"""Every note template is shown from a typed result, and names only what its type has.

Each `templates/notes/<note>.txt.j2` has one frozen dataclass whose `note` names it (found
anywhere under `payjudge/game/`, so a result may live beside its use case). Two checks:
each template renders from instances of its type (the environment's StrictUndefined fails
on a missing field on the path taken), and a walk of each template's syntax tree checks
every attribute read from `note.data` on every path, following `{% set %}` names, loops
over typed rows and indexing into them.
"""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import re
import types
import typing
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from jinja2 import nodes

import payjudge.game
from payjudge.game.context import REPLY_LIMITS, Note
from payjudge.game.gamerules import rules_table, status_counts
from payjudge.game.investors import Succession
from payjudge.game.notes.player import LedgerRow
from payjudge.game.notes.reports import (
    CommandHelp,
    GameRow,
    HelpEntry,
    InvestorRow,
    MapRow,
    PowerRow,
)
from payjudge.payola.exchange.market import Side
from payjudge.rules.names import PowerName
from payjudge.rules.phase import Phase
from payjudge.templating import environment, render, templates_dir
from payjudge.text.exchange import TradeLine
from payjudge.vocabulary import GameStatus, LedgerKind, SeatStatus
from tests.mypysnippet import run_mypy

F = PowerName("FRANCE")
G = PowerName("GERMANY")
S1901M = Phase.parse("S1901M")
F1901M = Phase.parse("F1901M")


def _result_types() -> dict[str, type]:
    """note name -> its type, from every module of payjudge.game."""
    found: dict[str, list[type]] = {}
    for info in pkgutil.walk_packages(payjudge.game.__path__, "payjudge.game."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and value.__module__ == module.__name__
                and dataclasses.is_dataclass(value)
                and isinstance(vars(value).get("note"), str)
            ):
                found.setdefault(value.note, []).append(value)
    twice = {name: kinds for name, kinds in found.items() if len(kinds) > 1}
    assert not twice, f"one note, several types: {twice}"
    return {name: kinds[0] for name, kinds in found.items()}


TYPES = _result_types()
TEMPLATES = sorted(p.name.removesuffix(".txt.j2") for p in (templates_dir() / "notes").glob("*.txt.j2"))


def _help() -> CommandHelp:
    entry = HelpEntry("SIGNON <P><game> <password>", "sign on")
    roles = ("opener", "player", "signed", "master")
    return CommandHelp(
        groups={role: [entry] for role in roles},
        exchange={role: [entry] for role in roles},
        exchange_settings=[HelpEntry("INVESTORS <n>", "how many investors")],
    )


_POWERS = [
    PowerRow(name=F, status=SeatStatus.PLAYING, centers=5, units=4, controller=None),
    PowerRow(name=G, status=SeatStatus.DUMMY, centers=None, units=None, controller=F),
]
_SUMMARY: dict[str, Any] = {
    "game": "pay7",
    "state": GameStatus.ACTIVE,
    "phase": S1901M.title,
    "deadline": "Sun 29 Nov 2026 18:00 UTC",
    "rules": ["BLIND"],
    "timing": "MOVE 2 DAYS",
    "powers": _POWERS,
    "open": 0,
    "late": [F],
    "waiting": [G],
    "result": None,
    "companies": [],
    "investors": [],
}

# note name -> the values its type is built from, one per branch worth showing (a template
# with an `if` on a field gets each side)
FACTORIES: dict[str, list[Callable[[type], object]]] = {
    "absence": [lambda t: t(start="Mon 1 Dec 2026 00:00 UTC", end="Fri 5 Dec 2026 00:00 UTC")],
    "accepted": [lambda t: t(power=F, text="FEG?")],
    "acting_for": [lambda t: t(power=F), lambda t: t(power=None)],
    "address": [lambda t: t(address="new@example.org")],
    "answered": [lambda t: t(what="a draw", yes=True), lambda t: t(what="a draw", yes=False)],
    "balance": [
        lambda t: t(
            power=F,
            balance=40,
            sheet="10 F: A PAR H\n5 G: F KIE - DEN",
            phase=S1901M,
            movement=True,
            accept="F?",
            shares={"FRANCE": 3},
            entries=[
                LedgerRow(phase=S1901M, kind=LedgerKind.INCOME, amount=50, counterparty=None),
                LedgerRow(phase=S1901M, kind=LedgerKind.TRANSFER_OUT, amount=-10, counterparty="GERMANY"),
            ],
        ),
        lambda t: t(
            power="alice",
            balance=0,
            sheet=None,
            phase=Phase.parse("F1901R"),
            movement=False,
            accept=None,
            shares={},
            entries=[],
        ),
        lambda t: t(  # a forming game has no phase yet: it printed "for None"
            power=F,
            balance=0,
            sheet=None,
            phase=None,
            movement=False,
            accept="F?",
            shares={},
            entries=[],
        ),
    ],
    "ceo_set": [lambda t: t(company="FRANCE", ceo="alice"), lambda t: t(company="FRANCE", ceo=None)],
    "ceo_vote": [
        lambda t: t(company="FRANCE", candidate="bob"),
        lambda t: t(company="FRANCE", candidate=None),
    ],
    "cleared": [lambda t: t(power=F, phase=S1901M)],
    "control": [lambda t: t(power=G, controller=F), lambda t: t(power=G, controller=None)],
    "created": [
        lambda t: t(
            game="pay7",
            rules=["POWER_CHOICE"],
            timing="MOVE 2 DAYS",
            map="standard",
            seats=7,
            exchange=False,
            private=True,
            example="france",
        ),
        lambda t: t(
            game="ex1",
            rules=[],
            timing="MOVE 2 DAYS",
            map="standard",
            seats=4,
            exchange=True,
            private=False,
            example="austria",
        ),
        lambda t: t(
            game="pay8",
            rules=[],
            timing="MOVE 2 DAYS",
            map="standard",
            seats=7,
            exchange=False,
            private=False,
            example="austria",
        ),
    ],
    "deadline": [lambda t: t(deadline="Sun 29 Nov 2026 18:00 UTC")],
    "dividend": [
        lambda t: t(company="FRANCE", per_share=2, outstanding=10, treasury=50),
        lambda t: t(company="FRANCE", per_share=0, outstanding=10, treasury=50),
    ],
    "exchange_order": [
        lambda t: t(phase="S1901X", line=None, committed=0, cash=100, held=0, company_account=False),
        lambda t: t(
            phase="S1901X",
            line=TradeLine(Side.BUY, 3, "FRANCE", 10),
            committed=30,
            cash=100,
            held=0,
            company_account=False,
        ),
        lambda t: t(
            phase="S1901X",
            line=TradeLine(Side.SELL, 2, "FRANCE", 12),
            committed=0,
            cash=100,
            held=5,
            company_account=True,
        ),
    ],
    "game_ended": [
        lambda t: t(game="pay7", result={"type": "concession", "winner": "FRANCE"}),
        lambda t: t(game="pay7", result={"type": "draw", "powers": ["FRANCE", "GERMANY"]}),
        lambda t: t(game="ex1", result={"type": "investors", "ranking": [{"investor": "alice", "place": 1}]}),
        lambda t: t(game="pay7", result={"type": "victory", "winner": "FRANCE"}),
    ],
    "game_list": [
        lambda t: t(
            games=[
                GameRow(name="pay7", state=GameStatus.FORMING, phase=None, open=2, private=True),
                GameRow(name="pay8", state=GameStatus.ACTIVE, phase=S1901M, open=0, private=False),
            ]
        ),
        lambda t: t(games=[]),
    ],
    "game_started": [lambda t: t(game="pay7", deadline="Sun 29 Nov 2026 18:00 UTC")],
    "help": [lambda t: _help()],
    "help_rules": [lambda t: t(sections=rules_table(), counts=status_counts())],
    "history": [
        lambda t: t(game="pay7", results=["Spring 1901 Movement\n  A PAR - BUR."]),
        lambda t: t(game="pay7", results=[]),
    ],
    "investor_resigned": [
        lambda t: t(
            investor="alice",
            game="ex1",
            successions=(Succession("FRANCE", "bob"), Succession("GERMANY", None)),
        )
    ],
    "joined": [
        lambda t: t(game="pay7", power=F, left=2),
        lambda t: t(game="pay7", power=None, left=0),
    ],
    "map": [
        lambda t: t(on=True, shared=True),
        lambda t: t(on=True, shared=False),
        lambda t: t(on=False, shared=True),
    ],
    "map_list": [
        lambda t: t(
            maps=[
                MapRow(
                    name="standard",
                    powers=["FRANCE", "GERMANY"],
                    centres=34,
                    victory=18,
                    first_phase="Spring 1901 Movement",
                )
            ]
        )
    ],
    "observer_confirmed": [lambda t: t(game="pay7", name="WATCHER")],
    "observing": [
        lambda t: t(
            game="pay7",
            name="WATCHER",
            identity="watcher@pay7",
            code="abc123",
            address="w@example.org",
            days=3,
        )
    ],
    "omniscient": [lambda t: t(observer="WATCHER", on=True), lambda t: t(observer="WATCHER", on=False)],
    "orders": [
        lambda t: t(power=F, phase="W1901A", orders=["BUILD A PAR"], due=1),
        lambda t: t(power=F, phase="W1901A", orders=["REMOVE A PAR"], due=-2),
        lambda t: t(power=F, phase="W1901A", orders=[], due=0),
        lambda t: t(power=F, phase="F1901R", orders=["A PAR R BUR"], due=None),
    ],
    "password": [lambda t: t()],
    "press_sent": [
        lambda t: t(to=["FRANCE", "GERMANY"], broadcast=False),
        lambda t: t(to=[], broadcast=True),
    ],
    "previewed": [lambda t: t(phase=S1901M)],
    "processed": [
        lambda t: t(phase=S1901M, next=F1901M, late=[F], state=GameStatus.ACTIVE),
        lambda t: t(phase=S1901M, next=None, late=[], state=GameStatus.COMPLETED),
    ],
    "proposed": [lambda t: t(what="a draw of every survivor")],
    "reports_skipped": [lambda t: t(count=3, most=5), lambda t: t(count=1, most=5)],
    "resigned": [
        lambda t: t(power=F, game="pay7", forfeited=0),
        lambda t: t(power=F, game="pay7", forfeited=12),
    ],
    "rolled_back": [lambda t: t(phase=S1901M, restore=True), lambda t: t(phase=S1901M, restore=False)],
    "rule_always": [lambda t: t(name="NO_CHECK", summary="orders are not checked when sent")],
    "seat": [
        lambda t: t(power=F, status=SeatStatus.DUMMY),
        lambda t: t(power=F, status=SeatStatus.RESIGNED),
        lambda t: t(power=F, status=SeatStatus.PLAYING),
    ],
    "sheet": [
        lambda t: t(power=F, phase="S1901M", sheet="10 F: A PAR H", total=10, balance=5, over=True),
        lambda t: t(power=F, phase="S1901M", sheet="5 $", total=None, balance=5, over=False, counts=False),
    ],
    "signed_on": [
        lambda t: t(who="MASTER", game="pay7", phase=S1901M, state=GameStatus.ACTIVE),
        lambda t: t(who="FRANCE", game="pay7", phase=None, state=GameStatus.FORMING),
    ],
    "state": [
        lambda t: t(state=GameStatus.ACTIVE, deadline="Sun 29 Nov 2026 18:00 UTC"),
        lambda t: t(state=GameStatus.PAUSED, deadline=None),
    ],
    "summary": [
        lambda t: t(**_SUMMARY),
        lambda t: t(**{**_SUMMARY, "state": GameStatus.FORMING, "phase": None, "deadline": None, "open": 3}),
        lambda t: t(
            **{
                **_SUMMARY,
                "state": GameStatus.COMPLETED,
                "rules": ["EXCHANGE"],
                "powers": [_POWERS[0], dataclasses.replace(_POWERS[0], name=G, controller=None)],
                "late": [],
                "waiting": [],
                "result": {"type": "investors", "ranking": [{"investor": "alice", "place": 1}]},
                "companies": [_standing("FRANCE", "alice"), _standing("GERMANY", None)],
                "investors": [
                    InvestorRow(name="alice", status=SeatStatus.PLAYING),
                    InvestorRow(name="bob", status=SeatStatus.RESIGNED),
                ],
            }
        ),
    ],
    "timing": [lambda t: t(timing="MOVE 2 DAYS")],
    "took_over": [lambda t: t(power=F, game="pay7", deadline="Sun 29 Nov 2026 18:00 UTC")],
    "transferred": [lambda t: t(amount=10, to="GERMANY", before=50, after=40)],
    "vote": [lambda t: t(vote="3WAY")],
    "wait": [lambda t: t(wait=True, phase=S1901M.title), lambda t: t(wait=False, phase=S1901M.title)],
    "worth": [lambda t: t(company="FRANCE", phase="W1901A", worths=(("PAR", 3), ("BRE", 2)), allowance=10)],
}


def _standing(company: str, ceo: str | None) -> object:
    # the summary's company rows are the Exchange use case's own type
    standing = typing.get_type_hints(TYPES["summary"])["companies"]
    return typing.get_args(standing)[0](company=company, ceo=ceo, outstanding=4, shares=10)


def test_every_template_has_one_type_and_every_type_a_template():
    assert sorted(TYPES) == TEMPLATES


def test_every_type_has_a_factory():
    assert sorted(FACTORIES) == sorted(TYPES)


def _instances() -> Iterator[tuple[str, object]]:
    for name in sorted(FACTORIES):
        for i, make in enumerate(FACTORIES[name]):
            yield f"{name}-{i}", make(TYPES[name])


@pytest.mark.parametrize(("case", "value"), list(_instances()), ids=lambda x: x if isinstance(x, str) else "")
def test_a_template_renders_from_its_type(case, value):
    assert dataclasses.is_dataclass(value)
    assert type(value).__dataclass_params__.frozen, f"{type(value).__name__} is not frozen"
    note = Note(value.note, 1, value)
    text = render(f"notes/{value.note}.txt.j2", note=note, limits=REPLY_LIMITS)
    assert text.strip(), case
    assert "None" not in text.replace("NONE", ""), text  # a missing value printed


# -- the names a template reads, against the fields of its type --------------------------


def _element(hint: Any) -> Any:
    """A list's or tuple's element type (tuple[X, ...]); None for anything else."""
    if typing.get_origin(hint) in (list, tuple):
        args = [a for a in typing.get_args(hint) if a is not Ellipsis]
        return args[0] if len(args) == 1 else None
    return None


def _dataclass(hint: Any) -> type | None:
    """The dataclass a hint names, `X | None` included; None for anything else."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        kinds = [a for a in typing.get_args(hint) if a is not type(None)]
        hint = kinds[0] if len(kinds) == 1 else None
    return hint if isinstance(hint, type) and dataclasses.is_dataclass(hint) else None


class _Reader:
    """Walks one template: `scope` maps a name to the type it holds where it is read."""

    def __init__(self, note_type: type):
        self.problems: list[str] = []
        self.note_type = note_type

    def type_of(self, node: nodes.Node, scope: dict[str, Any]) -> Any:
        if isinstance(node, nodes.Name):
            return scope.get(node.name)
        if isinstance(node, nodes.Getattr):
            if isinstance(node.node, nodes.Name) and node.node.name == "note" and node.attr == "data":
                return self.note_type
            owner = _dataclass(self.type_of(node.node, scope))
            return typing.get_type_hints(owner).get(node.attr) if owner else None
        if isinstance(node, nodes.Getitem):
            return _element(self.type_of(node.node, scope))
        return None

    def check(self, node: nodes.Node, scope: dict[str, Any]) -> None:
        if isinstance(node, nodes.For):
            self.check(node.iter, scope)
            inner = dict(scope)
            element = _element(self.type_of(node.iter, scope))
            if isinstance(node.target, nodes.Name):
                inner[node.target.name] = element
            for child in node.body:
                self.check(child, inner)
            for child in node.else_:
                self.check(child, scope)
            return
        if isinstance(node, nodes.Assign) and isinstance(node.target, nodes.Name):
            self.check(node.node, scope)
            scope[node.target.name] = self.type_of(node.node, scope)  # for the lines after it
            return
        if isinstance(node, nodes.Getattr):
            owner = _dataclass(self.type_of(node.node, scope))
            known = {f.name for f in dataclasses.fields(owner)} | set(dir(owner)) if owner else set()
            if owner and node.attr not in known:
                self.problems.append(f"line {node.lineno}: {owner.__name__} has no field {node.attr!r}")
        for child in node.iter_child_nodes():
            self.check(child, scope)


def _problems(name: str, note_type: type) -> list[str]:
    source = (templates_dir() / "notes" / f"{name}.txt.j2").read_text()
    reader = _Reader(note_type)
    reader.check(environment().parse(source), {})
    return reader.problems


@pytest.mark.parametrize("name", TEMPLATES)
def test_a_template_names_only_fields_of_its_type(name):
    assert _problems(name, TYPES[name]) == []


@dataclasses.dataclass(frozen=True)
class _Row:
    name: str


@dataclasses.dataclass(frozen=True)
class _Example:
    rows: list[_Row]
    on: bool


def test_the_check_sees_a_misspelt_field_on_every_path():
    """The walk finds what rendering alone misses: a field read only on a branch not
    taken, inside a loop over typed rows, or through a `{% set %}` name."""

    def read(source: str) -> list[str]:
        reader = _Reader(_Example)
        reader.check(environment().parse(source), {})
        return reader.problems

    assert read("{% if note.data.on %}{{ note.data.rows }}{% endif %}") == []
    assert read("{% if not note.data.on %}{{ note.data.rowz }}{% endif %}") != []
    assert read("{% for r in note.data.rows %}{{ r.nmae }}{% endfor %}") != []
    assert read("{% set d = note.data %}{{ d.of }}") != []
    assert read("{{ note.data.rows[0].nam }}") != []
    assert read("{% for r in note.data.rows %}{{ r.name }}{% endfor %}{{ note.data.on }}") == []


# -- mypy checks what a handler gives the reply --------------------------------------------

ROOT = Path(__file__).resolve().parents[2]

# `# refused` marks each line mypy must refuse; every other line must pass
SNIPPET = """
from payjudge.game.context import Reply
from payjudge.game.notes.master import Previewed, SeatChanged, StateChanged
from payjudge.rules.names import PowerName
from payjudge.rules.phase import Phase
from payjudge.vocabulary import GameStatus, SeatStatus

reply = Reply()
phase = Phase.parse("S1901M")
reply.result(1, Previewed(phase=phase))
reply.result(1, StateChanged(state=GameStatus.PAUSED, deadline=None))
reply.result(1, SeatChanged(power=PowerName("FRANCE"), status=SeatStatus.DUMMY))
reply.note("previewed", 1, phase=phase)  # refused: the untyped form is gone
reply.result(1, "previewed")  # refused: a template's name is no result
reply.result(1, {"phase": phase})  # refused: nor are loose values
reply.result(1, Previewed(phse=phase))  # refused: a misspelt field
reply.result(1, StateChanged(state=GameStatus.PAUSED))  # refused: a field left out
reply.result(1, StateChanged(state="paused", deadline=None))  # refused: a string for a state
reply.result(1, SeatChanged(power="FRANCE", status=SeatStatus.DUMMY))  # refused: a string for a power
"""


def test_mypy_refuses_a_note_that_is_not_its_type(tmp_path: Path) -> None:
    out, _ = run_mypy(tmp_path, SNIPPET)
    refused = {n for n, line in enumerate(SNIPPET.splitlines(), 1) if "# refused" in line}
    flagged = {int(m) for m in re.findall(r"snippet\.py:(\d+): error", out)}
    assert flagged == refused, out
