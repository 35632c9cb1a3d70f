"""Whole Payola games by mail on DPjudge's maps (issue 10, items 4 and 6), installed with
`payjudge map install` into a maps directory of the test's own: ancmed, youngstown, 1898
(a Winter start), hundred (3 powers, its own FLOW) and chaos (34 powers, a Winter start).

Every phase the money is checked: the ledger moves exactly by what the statements say was
paid, and across a year's end by the tax of rule 6.2 on the centres then owned, as the
income reports say; the opening balance is paid once, also on a Winter start.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from payjudge.cli import main
from payjudge.game import money
from payjudge.game.state import GameState, find_game
from payjudge.payola.income import income, income_due
from payjudge.rules.adjustments import allowance
from payjudge.rules.flags import Flag
from payjudge.rules.possible import possible_adjustments, possible_orders

from .judge import TestJudge

DPJUDGE = Path(__file__).resolve().parents[3] / "shared" / "dpjudge-maps"
if not DPJUDGE.is_dir():
    DPJUDGE = Path("/work/shared/dpjudge-maps")
pytestmark = pytest.mark.skipif(
    not DPJUDGE.is_dir(), reason="DPjudge's map files (../shared/dpjudge-maps) are not here"
)
GM = "gm@pj.test"


def addr(power: str) -> str:
    return f"{power.lower().replace('_', '')}@pj.test"


class Game:
    """A game on an installed map, every seat taken by a player who writes mail."""

    def __init__(
        self, database, tmp_path: Path, monkeypatch, map_name: str, game: str, settings: str = ""
    ) -> None:
        maps_dir = tmp_path / "maps"
        monkeypatch.setenv("PAYJUDGE_MAPS_DIR", str(maps_dir))
        monkeypatch.setenv("PAYJUDGE_DATA_DIR", str(tmp_path / "data"))
        path = next(
            p
            for p in (DPJUDGE / "trials" / f"{map_name}.map", DPJUDGE / "maps" / f"{map_name}.map")
            if p.is_file()
        )
        result = CliRunner().invoke(main, ["map", "install", str(path)])
        assert result.exit_code == 0, result.output
        self.maps_dir = maps_dir
        self.name = game
        self.judge = TestJudge(database)
        self.judge.config = replace(self.judge.config, maps_dir=str(maps_dir))
        self.judge.send(
            GM,
            f"CREATE {game} masterpw\nRULE POWER_CHOICE\nMAP {map_name}\nTIMING MOVE 2D\n{settings}SIGNOFF\n",
        )
        reply = self.judge.last_reply(GM)
        assert "has been created" in reply, reply
        with self.judge.db.transaction() as s:
            self.powers = list(GameState(s, find_game(s, game), maps_dir).map.power_names)
        for p in self.powers:
            self.judge.send(addr(p), f"JOIN {p.lower()}@{game} pw-{p.lower()}\n")
        self.start = self.snapshot()[0].phase
        self.incomes = 0  # the phases after which income was paid
        self.paid = 0  # AgP paid for accepted offers, all phases

    def signon(self, power: str) -> str:
        return f"SIGNON {power.lower()}@{self.name} pw-{power.lower()}"

    def snapshot(self):
        with self.judge.db.transaction() as s:
            st = GameState(s, find_game(s, self.name), self.maps_dir)
            return st.position, dict(money.balances(s, st.game)), st.game.state, str(st.game.phase), st.rules

    def play_phase(self, rng: random.Random) -> None:
        pos, _, _, _, rules = self.snapshot()
        for p in self.powers:
            if pos.phase.is_movement:
                if not pos.units.get(p):
                    continue
                body = self.random_sheet(rng, pos, p)
            elif pos.phase.is_retreats:
                ds = pos.dislodged.get(p)
                if not ds:
                    continue
                body = "\n".join(str(rng.choice(possible_orders(pos, d.unit))) for d in ds)
            else:
                need = abs(allowance(pos, p, rules.flags))  # MOBILIZE: one build, no centre
                opts = possible_adjustments(pos, p, rules.flags)  # the map's RULE lines count
                if not opts or not need:
                    continue
                body = "\n".join(str(o) for o in opts[:need])
            self.judge.send(addr(p), f"{self.signon(p)}\n{body}\n")
            reply = self.judge.last_reply(addr(p))
            assert "was processed" in reply, reply

    @staticmethod
    def random_sheet(rng: random.Random, pos, power: str) -> str:
        """Offers for the power's own units and a few others': holds and moves to a
        neighbour (possible_orders would enumerate every convoy, slow on youngstown)."""
        m = pos.map
        lines = []
        for owner, unit in pos.all_units():
            if owner == power or rng.random() < 0.1:
                if unit.type.value == "A":
                    targets = sorted(m.army_adjacency.get(unit.province, ()))
                else:
                    targets = sorted(str(loc) for loc in m.fleet_adjacency.get(unit.location, ()))
                order = f"{unit} H"
                if targets and rng.random() < 0.7:
                    order = f"{unit} - {rng.choice(targets)}"
                amount = rng.randint(0 if owner == power else 1, 6)
                lines.append(f"{amount} : {order}")
        return "\n".join(lines)

    def play(self, years: int, seed: int) -> list[str]:
        """Play `years` game years from the first phase, checking the money every phase;
        the phases played."""
        rng = random.Random(seed)
        pos, *_ = self.snapshot()
        last = pos.phase.year + years - 1
        played = []
        for _ in range(8 * years):
            pos, before, state, phase, rules = self.snapshot()
            if state != "active" or pos.phase.year > last:
                break
            self.play_phase(rng)
            sent = len(self.judge.sent)
            self.judge.tick(days=3)
            after_pos, after, state, new_phase, _ = self.snapshot()
            assert new_phase != phase, f"{phase} was not processed"
            played.append(phase)
            mails = self.judge.sent[sent:]
            paid = {
                m.to[0]: int(re.search(r"Total cost of your accepted offers: +(\d+) AgP", m.body).group(1))
                for m in mails
                if m.kind == "statement"
            }
            reported = {
                m.to[0]: int(re.search(r"Current balance: +(\d+) AgP", m.body).group(1))
                for m in mails
                if m.kind == "income"
            }
            year_end = income_due(pos.phase, after_pos.phase, self.start, rules)
            for p in self.powers:
                spent = before[p] - paid.get(addr(p), 0)
                assert spent >= 0
                if year_end:
                    tax = income(sorted(after_pos.centers.get(p, ())), after_pos, rules)
                    assert after[p] == spent + tax, (phase, p, before[p], after[p])
                    assert reported[addr(p)] == after[p], (phase, p)
                else:
                    assert after[p] == spent, (phase, p, before[p], after[p])
                    assert not reported
            if not pos.phase.is_movement:
                assert not paid
            self.incomes += year_end
            self.paid += sum(paid.values())
        return played


def rule62(centres: int, victory: int) -> int:
    return sum(max(victory - i, 0) for i in range(1, centres + 1))


def test_a_winter_start_pays_the_opening_balance_once(database, tmp_path, monkeypatch):
    """1898 starts in Winter 1898: the opening balance is the income before Spring 1899,
    not paid again at the end of 1898 (it used to be, twice in all). Under its MOBILIZE
    each power owns one centre, the one it builds on: 17 AgP each (issue 26)."""
    game = Game(database, tmp_path, monkeypatch, "1898", "y1898")
    pos, balances, state, phase, _ = game.snapshot()
    assert (state, phase) == ("active", "W1898A")
    assert not any(pos.centers.values())
    opening = {p: rule62(1, 18) for p in game.powers}
    assert balances == opening and opening["RUSSIA"] == 17 and opening["FRANCE"] == 17
    game.play_phase(random.Random(1))
    game.judge.tick(days=3)
    pos, balances, _, phase, _ = game.snapshot()
    assert phase == "S1899M"
    assert balances == opening
    assert not [m for m in game.judge.sent if m.kind == "income"]


def test_income_every_movement_phase(database, tmp_path, monkeypatch):
    """Rule 6.6, `INCOME EVERY MOVEMENT`: the tax is paid before every movement phase
    (here Fall 1901 and Spring 1902), not only at the year's end."""
    game = Game(database, tmp_path, monkeypatch, "ancmed", "anc6", "INCOME EVERY MOVEMENT\n")
    played = game.play(1, seed=6)
    assert played[0] == "S1M" and "W1A" in played
    assert game.incomes == 2
    reports = [m for m in game.judge.sent if m.kind == "income"]
    assert any("FOR Fall 1 Movement" in m.body for m in reports)
    assert any("FOR THE YEAR 1" in m.body for m in reports)


def test_income_setting_is_checked_by_create(database, tmp_path, monkeypatch):
    judge = TestJudge(database)
    judge.send(GM, "CREATE inc1 masterpw\nINCOME EVERY WEEK\nSIGNOFF\n")
    assert "INCOME needs EVERY YEAR or EVERY MOVEMENT" in judge.last_reply(GM)
    judge.send(GM, "CREATE inc2 masterpw\nRULE ZEROSUM\nINCOME EVERY MOVEMENT\nSIGNOFF\n")
    assert "ZEROSUM game has no tax income" in judge.last_reply(GM)
    judge.send(GM, "CREATE inc3 masterpw\nINCOME EVERY YEAR\nSIGNOFF\n")
    assert "has been created" in judge.last_reply(GM)


# map, first phase, powers, victory, a few opening balances (rule 6.2)
GAMES = [
    ("ancmed", "S1M", 5, 18, {"ROME": 17 + 16 + 15}),
    ("youngstown", "S1901M", 10, 37, {"RUSSIA": sum(range(31, 37)), "CHINA": 36 + 35 + 34}),
    ("1898", "W1898A", 7, 18, {"RUSSIA": 17, "TURKEY": 17}),  # MOBILIZE: one centre each
    ("hundred", "S1425M", 3, 9, {"ENGLAND": 8 + 7 + 6 + 5 + 4, "FRANCE": 8 + 7 + 6 + 5}),
    ("chaos", "W1900A", 34, 18, {"PARIS": 17, "WARSAW": 17}),
    ("void", "F1900M", 36, 18, {"WALES": 17 // 2, "YORKSHIRE": 8}),
]


@pytest.mark.slow
@pytest.mark.parametrize("map_name, first, count, victory, openings", GAMES, ids=[g[0] for g in GAMES])
def test_two_years_of_payola_by_mail(
    database, tmp_path, monkeypatch, map_name, first, count, victory, openings
):
    game = Game(database, tmp_path, monkeypatch, map_name, "v" + map_name[:6])
    pos, balances, state, phase, _ = game.snapshot()
    assert (state, phase, len(game.powers), pos.map.victory) == ("active", first, count, victory)
    mobilize = Flag.MOBILIZE.value in pos.map.rule_flags()  # one undetermined home centre
    assert balances == {
        p: rule62(len(pos.centers[p]), victory)
        if pos.centers.get(p)
        else rule62(1, victory)
        if mobilize
        else rule62(len(pos.units.get(p, ())), victory) // 2
        for p in game.powers
    }
    assert {p: balances[p] for p in openings} == openings
    played = game.play(2, seed=len(map_name))
    assert played[0] == first
    years = sorted({int(re.sub(r"\D", "", p)) for p in played})
    assert len(years) == 2
    # income at each year's end, but not at the end of a Winter start's first year
    assert game.incomes == (1 if first.startswith("W") else 2)
    assert game.paid > 0


def test_void_opening_is_half_the_income_of_its_units(database, tmp_path, monkeypatch):
    """Rule 6.2: void's 36 powers start with a unit and no centre, in Fall 1900: each gets
    half of what one centre pays (17 // 2)."""
    game = Game(database, tmp_path, monkeypatch, "void", "void1")
    _pos, balances, state, phase, _ = game.snapshot()
    assert (state, phase, len(game.powers)) == ("active", "F1900M", 36)
    assert set(balances.values()) == {8} and len(balances) == 36


def test_a_power_without_an_initial_signs_on_by_name_and_is_named_in_lists(database, tmp_path, monkeypatch):
    """zeus's _INDIA has no initial (DPjudge's `_`): its player signs on as _india@game,
    and acceptance lists write it by name, apart from the initials: `B _INDIA ?`."""
    game = Game(database, tmp_path, monkeypatch, "zeus", "zeus1")
    india = addr("_INDIA")
    welcome = next(m for m in game.judge.sent if m.kind == "welcome" and india in m.to)
    assert "SIGNON _india@zeus1" in welcome.body and "_INDIA,?" in welcome.body
    game.judge.send(india, f"{game.signon('_INDIA')}\nACCEPT B,_INDIA,?\nBALANCE\n")
    reply = game.judge.last_reply(india)
    assert "Acceptance list: B,_INDIA,?" in reply, reply
    game.judge.send(addr("BRITAIN"), f"{game.signon('BRITAIN')}\nACCEPT B _india F?\n")
    game.judge.send(addr("BRITAIN"), f"{game.signon('BRITAIN')}\nBALANCE\n")
    assert "Acceptance list: B,_INDIA,F,?" in game.judge.last_reply(addr("BRITAIN"))
    game.judge.send(addr("BRITAIN"), f"{game.signon('BRITAIN')}\nACCEPT BX?\n")
    assert "powers without one by name: _INDIA" in game.judge.last_reply(addr("BRITAIN"))


def test_create_refuses_a_map_whose_flow_is_off_the_cycle(database, tmp_path):
    """A year of Spring and Winter only cannot be played on payjudge's cycle: CREATE says
    why, naming the phases the map's FLOW gives."""
    maps_dir = tmp_path / "maps"
    maps_dir.mkdir()
    (maps_dir / "nofall.map").write_text("USE standard\nFLOW SPRING:MOVEMENT,RETREATS WINTER:ADJUSTMENTS\n")
    judge = TestJudge(database)
    judge.config = replace(judge.config, maps_dir=str(maps_dir))
    judge.send(GM, "CREATE nofall1 masterpw\nMAP nofall\nSIGNOFF\n")
    reply = judge.last_reply(GM)
    assert "map nofall cannot be played" in reply and "WINTER 1901 A" in reply, reply
    assert "has been created" not in reply
