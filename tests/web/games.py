"""Two games for the status page's tests, played by mail: `pay7` running (Spring 1901
played: moves, a support, a bounce) and `done7`, ended by a draw."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from payjudge.store.db import Database
from tests.dbfix import migrated_sqlite
from tests.service.judge import TestJudge

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
GM = "gm@pj.test"


def addr(power: str, game: str = "pay7") -> str:
    return f"{power.lower()}.{game}@pj.test"


def _start(judge: TestJudge, name: str) -> None:
    judge.send(GM, f"CREATE {name} masterpw\nRULE POWER_CHOICE\nTIMING MOVE 2D\nSIGNOFF\n")
    judge.observe(f"kibitz.{name}@pj.test", f"kibitz@{name}", "watchpw")
    for p in POWERS:
        judge.send(addr(p, name), f"JOIN {p.lower()}@{name} pw-{p.lower()}\n")


def _sheet(judge: TestJudge, name: str, power: str, text: str) -> None:
    judge.send(addr(power, name), f"SIGNON {power[0]}{name} pw-{power.lower()}\n{text}\n")


def play(tmp_path: Path) -> tuple[str, TestJudge]:
    """A migrated SQLite file with both games; returns its URL (and the judge)."""
    url = migrated_sqlite(tmp_path / "judge.sqlite")
    judge = TestJudge(Database(url))
    judge.config = replace(judge.config, data_dir=tmp_path)
    _start(judge, "pay7")
    _sheet(
        judge, "pay7", "FRANCE", "% secret-of-FRANCE\n9 : A PAR - BUR\n4 : A MAR S A PAR - BUR\nACCEPT FEG?"
    )
    _sheet(judge, "pay7", "GERMANY", "% secret-of-GERMANY\n3 : A MUN - BUR\n2 : F KIE - HOL")
    _sheet(judge, "pay7", "ENGLAND", "5 : F LON - NTH\n5 : F EDI - NWG")
    judge.send(GM, "SIGNON Mpay7 masterpw\nPROCESS!\n")
    _start(judge, "done7")
    for p in POWERS:
        _sheet(judge, "done7", p, "VOTE DRAW")
    return url, judge
