"""One simulated game, played through the real message path and checked at every step.

`play(seed, years)` draws the game (`world.draw`), stores every party's mail as the listener
stores it, processes it with `service.processor.process_pending`, moves the clock and lets
`service.deadlines.tick_all` take the deadlines (`tests/service/judge.py`'s TestJudge), and
reads the rendered mail back from the outbox. After every message and every phase it checks
the judge's promises (`checks`); a broken promise becomes a `Failure` naming the seed and the
step, so `tools/simulate.py --seed S --games 1` plays it again.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import random
import re
import shutil
import tempfile
import time
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import select

from payjudge.config import Config
from payjudge.game import money
from payjudge.game.state import GameState, find_game
from payjudge.rules import visibility
from payjudge.rules.calendar import calendar_of
from payjudge.rules.flag_registry import lookup
from payjudge.rules.flags import Flag
from payjudge.rules.mapfile import load_variant
from payjudge.rules.names import PowerName
from payjudge.rules.phase import Phase
from payjudge.rules.serial import position_to_json
from payjudge.service.replay import replay
from payjudge.store.db import Database, upgrade
from payjudge.store.models import InboundMessage
from payjudge.vocabulary import InboundState
from payjudge.web.app import make_app
from tests.service.judge import Mail, TestJudge

from . import checks, letters
from .letters import Marker
from .world import Setup, draw, maps_folder

MASTER = "gm@sim.test"
OBSERVER = "kibitz@sim.test"
# a forged OBSERVE that never confirms: its one reply is all it may ever get (issue 26: the
# judge is no relay)
STRANGER = "stranger@sim.test"
MASTER_PW = "mpwQ7"  # checked never to appear in mail, like every password here


@dataclass(frozen=True)
class Failure:
    seed: int
    step: int
    kind: str
    detail: str

    def __str__(self) -> str:
        return f"seed {self.seed} step {self.step} [{self.kind}]: {self.detail}"


@dataclass
class Outcome:
    seed: int
    setup: Setup
    phases: int = 0
    messages: int = 0
    ended: str = ""
    failures: list[Failure] = field(default_factory=list)
    seconds: float = 0.0
    pictures: int = 0  # mails that carried a picture


_template: dict[str, Path] = {}


def _fresh_database(folder: Path, name: str) -> Database:
    """A migrated SQLite file: a copy of one migrated once per process (migrating is slow)."""
    if "path" not in _template:
        base = Path(tempfile.mkdtemp(prefix="pj-sim-template-"))
        upgrade(f"sqlite:///{base / 'template.sqlite'}")
        _template["path"] = base / "template.sqlite"
    target = folder / f"{name}.sqlite"
    shutil.copyfile(_template["path"], target)
    return Database(f"sqlite:///{target}")


class SimJudge(TestJudge):
    """TestJudge, telling which outgoing mail answered which message."""

    __test__ = False
    _ids = itertools.count(1)

    def post(self, sender: str, body: str, subject: str = "sim") -> tuple[str, list[Mail]]:
        start = len(self.sent)
        msgid = f"sim{next(self._ids)}.{time.monotonic_ns()}@sim.test"
        raw = (
            f"From: {sender}\r\nTo: {self.config.judge_address}\r\nSubject: {subject}\r\n"
            f"Message-ID: <{msgid}>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n"
        ).encode()
        self.clock.advance(seconds=1)
        from payjudge.store.mailbox import SqlInbound

        SqlInbound(self.db, self.clock).store_inbound(raw, source="smtp")
        self.process()
        return msgid, self.sent[start:]

    def advance(self, **delta) -> list[Mail]:
        start = len(self.sent)
        self.tick(**delta)
        return self.sent[start:]


@dataclass
class Party:
    """A power's seat as the simulator plays it: its current player's address and password."""

    power: str
    initial: str
    address: str
    password: str
    past: set[str] = field(default_factory=set)
    investor: bool = False

    def signon(self, game: str) -> str:
        if self.investor:
            return f"SIGNON {self.initial.lower()}@{game} {self.password}"
        return f"SIGNON {self.initial}{game} {self.password}"


class Game:
    def __init__(self, seed: int, years: int, folder: Path, *, web: bool = True, replay_check: bool = True):
        self.seed = seed
        self.years = years
        self.rng = random.Random(seed * 7919 + 1)
        self.setup = draw(seed)
        self.outcome = Outcome(seed, self.setup)
        self.folder = folder
        self.db = _fresh_database(folder, self.setup.name)
        config = Config(
            judge_address="judge@sim.test",
            settle_seconds=0,
            rate_limit_per_hour=10**9,
            data_dir=folder,
            maps_dir=str(maps_folder() or folder / "no-maps"),
        )
        self.judge = SimJudge(self.db, config)
        self.parties: dict[str, Party] = {}
        self.investors: dict[str, Party] = {}
        self.passwords: set[str] = {MASTER_PW, "obsQ7pw"}
        self.step = 0
        self.markers = itertools.count(1)
        self.grey_press: list[tuple[str, str]] = []  # (sender, marker) of grey press sent
        self.opened: dict[str, tuple] = {}  # phase -> (position, balances) when it opened
        self.web = web
        self.replay_check = replay_check
        self.loop = asyncio.new_event_loop() if web else None
        self.client: TestClient | None = None

    # -- failures ---------------------------------------------------------------------
    def fail(self, kind: str, detail: str) -> None:
        if sum(f.kind == kind for f in self.outcome.failures) < 5:
            self.outcome.failures.append(Failure(self.seed, self.step, kind, detail[:2000]))

    # -- the store, read -----------------------------------------------------------------
    def state(self) -> tuple[str, str | None, object]:
        with self.db.transaction() as s:
            game = find_game(s, self.setup.name)
            if game is None:
                return "none", None, None
            st = GameState(s, game, self.judge.config.maps_path)
            return str(game.state), (str(game.phase) if game.phase else None), st.position

    def snapshot(self) -> tuple:
        with self.db.transaction() as s:
            game = find_game(s, self.setup.name)
            st = GameState(s, game, self.judge.config.maps_path)
            pos = st.position
            return (
                position_to_json(pos) if pos is not None else None,
                dict(money.balances(s, game)),
                str(game.phase),
            )

    def control(self) -> dict[str, str]:
        with self.db.transaction() as s:
            game = find_game(s, self.setup.name)
            return (
                {str(k): str(v) for k, v in GameState(s, game, self.judge.config.maps_path).control().items()}
                if game
                else {}
            )

    # -- mail -------------------------------------------------------------------------
    def send(self, sender: str, body: str, *, what: str) -> str:
        """One message through the judge, and every check that follows a message."""
        self.step += 1
        self.outcome.messages += 1
        msgid, mails = self.judge.post(sender, body)
        replies = [m for m in mails if m.kind == "reply" and sender in m.to and f"<{msgid}>" in _header(m)]
        if len(replies) != 1:
            self.fail("one reply", f"{what} from {sender} got {len(replies)} replies: {body[:300]!r}")
        self._inbound_state(msgid, what)
        self.check_mail(mails)
        self.check_hidden_dummies(mails)
        self.check_money(what)
        return replies[0].body if replies else ""

    def _inbound_state(self, msgid: str, what: str) -> None:
        with self.db.transaction() as s:
            row = s.scalar(select(InboundMessage).where(InboundMessage.message_id.in_((msgid, f"<{msgid}>"))))
            if row is None or row.state is not InboundState.DONE:
                state = row.state if row is not None else "missing"
                lines = (row.error or "").strip().splitlines() if row is not None else []
                error = f"{lines[-1]} | {' '.join(x.strip() for x in lines[-7:-1])}" if lines else ""
                self.fail("quarantine", f"{what}: message is {state}: {error}")

    def check_mail(self, mails: list[Mail]) -> None:
        self.outcome.pictures += sum(b"Content-Type: image/png" in mail.raw for mail in mails)
        for mail in mails:
            if STRANGER in mail.to and mail.kind != "reply":
                self.fail("relay", f"an unconfirmed observer got a {mail.kind} mail '{mail.subject}'")
        status, *_ = self.state()
        if status in ("completed", "terminated"):
            return
        control = self.control()
        allowed: dict[str, frozenset[str]] = {}
        for party in [*self.parties.values(), *self.investors.values()]:
            allowed[party.power] = frozenset({party.address, *party.past})
        for dummy, boss in control.items():
            if boss in allowed and dummy in allowed:
                allowed[dummy] = allowed[dummy] | allowed[boss]
        words = {p: checks.private_words_of(p) for p in self.parties} if not self.setup.exchange else {}
        for problem in checks.privacy(
            mails,
            seed=self.seed,
            allowed=allowed,
            master=MASTER,
            observers=frozenset({OBSERVER}),
            passwords=self.passwords,
            private_words=words,
        ):
            kind, _, rest = problem.partition(": ")
            if kind in ("program value", "password"):
                self.fail(kind, rest)
            else:
                self.fail("privacy", problem)

    def check_hidden_dummies(self, mails: list[Mail]) -> None:
        """HIDE_DUMMIES (seed 003) hides who controls whom: no results mail but the
        Master's says that a power is a vassal or controlled."""
        if not self.setup.has(Flag.HIDE_DUMMIES):
            return
        for mail in mails:
            if MASTER in mail.to or mail.kind != "results":
                continue
            for words in ("vassal", "controlled by"):
                if words in mail.body:
                    line = next(x for x in mail.body.splitlines() if words in x)
                    self.fail(
                        "HIDE_DUMMIES", f"{mail.kind} '{mail.subject}' to {list(mail.to)}: {line.strip()}"
                    )

    def check_blind(self, mails: list[Mail], before, after, control_before: dict[str, str]) -> None:
        """BLIND: each power's results name only foreign units it saw (rules/visibility),
        computed here from the positions before and after the phase. A controller also gets
        the share of each power it controls, so its address may show what those saw too."""
        if not self.setup.blind or before is None or after is None:
            return
        bosses = {**control_before, **self.control()}
        rules = visibility.Rules.of(f for f in (lookup(n) for n in self.setup.flags) if f is not None)
        for party in self.parties.values():
            mine = [m for m in mails if m.kind == "results" and m.to == (party.address,)]
            if not mine:
                continue
            power = PowerName(party.power)
            viewers = [power, *(PowerName(d) for d, boss in bosses.items() if boss == party.power)]
            seen: dict[str, set[str]] = {}
            for pos in (before, after):
                for viewer in viewers:
                    for owner, province in visibility.snapshot(pos, viewer, rules).units:
                        seen.setdefault(str(owner), set()).add(str(province).split("/")[0])
            frozen = {k: frozenset(v) for k, v in seen.items()}
            own_after = frozenset(str(u.province).split("/")[0] for u in after.units.get(power, ()))
            for mail in mine:
                for problem in checks.blind_sight(
                    mail.body, party.power, frozen, own_after or frozenset({"-"})
                ):
                    self.fail("BLIND sight", problem)

    def check_money(self, what: str) -> None:
        with self.db.transaction() as s:
            game = find_game(s, self.setup.name)
            if game is None:
                return
            problems = checks.ledger(
                s,
                game,
                zerosum=self.setup.has(Flag.ZEROSUM),
                hoarding=not self.setup.has(Flag.NO_HOARDING),
                maps_dir=self.judge.config.maps_path,
            )
        for problem in problems:
            self.fail("money", f"after {what}: {problem}")

    def check_web(self) -> None:
        if self.loop is None:
            return
        if self.client is None:
            app = make_app(self.db, self.judge.config, self.judge.clock.now)

            async def start() -> TestClient:
                client = TestClient(TestServer(app))
                await client.start_server()
                return client

            self.client = self.loop.run_until_complete(start())

        async def get(path: str) -> tuple[int, str]:
            assert self.client is not None
            async with self.client.get(path) as r:
                return r.status, await r.text()

        for path in ("/", f"/game/{self.setup.name}"):
            _SERVER_ERRORS.clear()
            status, text = self.loop.run_until_complete(get(path))
            if status != 200:
                why = _SERVER_ERRORS[-1] if _SERVER_ERRORS else text[-300:]
                self.fail("status page", f"GET {path} answered {status}: {why}")
        self.check_own_pages()

    def check_own_pages(self) -> None:
        """The HTTP leg of the privacy promise: each played power signs in on the web with
        its password and reads its own page, which must carry no other party's marker, no
        other power's desk and no password; the Master's page must open too."""
        if self.client is None or self.loop is None:
            return
        if self.setup.exchange:
            self.check_investor_pages()
            return
        seated = self.seated()
        control = self.control()
        pages = [
            (p.power, p.initial, p.password)
            for p in self.parties.values()
            if seated.get(p.power) == "playing"
        ]
        for power, initial, password in [*pages, (MASTER, "M", MASTER_PW)]:
            status, text = self.loop.run_until_complete(self._own_page(initial, password))
            what = f"{power}'s own page"
            if status != 200:
                self.fail("web", f"{what} answered {status}: {text[-300:]}")
                continue
            if power == MASTER:
                continue
            mine = {power} | {d for d, boss in control.items() if boss == power}
            for found in checks.markers_in(text):
                if found.owner not in mine and found.to not in mine:
                    self.fail("privacy", f"{what} shows {found} ({found.owner}'s secret)")
            for other in self.parties:
                if other not in mine and f'id="desk-{other}"' in text:
                    self.fail("privacy", f"{what} shows {other}'s desk")
            for secret in self.passwords:
                if secret and secret in text:
                    self.fail("password", f"{what} quotes a password")
            self.check_grey_on_page(what, text, mine)

    def check_investor_pages(self) -> None:
        """An Exchange game's investors sign in as by mail (their names) and read their own
        pages, which must carry no other investor's account and no password. (Markers are
        not checked here: a new CEO rightly reads the company's sheet its predecessor
        wrote.)"""
        assert self.loop is not None
        with self.db.transaction() as s:
            game = find_game(s, self.setup.name)
            playing = {
                f"@{seat.investor_name}"
                for seat in game.seats
                if seat.investor_name and seat.status == "playing"
            }
        for party in self.investors.values():
            if party.power not in playing:
                continue
            status, text = self.loop.run_until_complete(self._own_page(party.initial, party.password))
            what = f"{party.initial}'s own page"
            if status != 200:
                self.fail("web", f"{what} answered {status}: {text[-300:]}")
                continue
            for other in self.investors:
                if other != party.power and f'id="desk-{other}"' in text:
                    self.fail("privacy", f"{what} shows {other}'s account")
            for secret in self.passwords:
                if secret and secret in text:
                    self.fail("password", f"{what} quotes a password")

    def check_grey_on_page(self, what: str, text: str, mine: set[str]) -> None:
        """Grey press on its reader's page names its sender no more than its mail did."""
        for head, body in re.findall(r'<h3 class="press-head">(.*?)</h3>\s*<pre>(.*?)</pre>', text, re.S):
            for sender, mark in self.grey_press:
                if sender not in mine and mark in body and sender.title() in head:
                    self.fail("privacy", f"{what} names {sender} as the sender of its grey press")

    async def _own_page(self, initial: str, password: str) -> tuple[int, str]:
        assert self.client is not None
        name = self.setup.name
        self.client.session.cookie_jar.clear()
        async with self.client.get(f"/login?game={name}") as r:
            form = await r.text()
        token = re.search(r'name="csrf" value="([^"]+)"', form)
        if token is None:
            return 500, form
        data = {"csrf": token.group(1), "game": name, "who": initial, "password": password}
        async with self.client.post("/login", data=data, allow_redirects=False) as r:
            if r.status != 303:
                return r.status, await r.text()
        async with self.client.get(f"/game/{name}/mine", allow_redirects=False) as r:
            return r.status, await r.text()

    def marker(self, owner: str, to: str = "ALL") -> Marker:
        return Marker(self.seed, owner, to, next(self.markers))

    # -- the game ----------------------------------------------------------------------
    def play(self) -> Outcome:
        start = time.monotonic()
        try:
            if self.create() and self.join():
                self.run_phases()
                self.finish()
        except _Stop:
            self.outcome.ended = "stuck"
        except Exception as exc:  # a crash of the simulator itself is a finding too
            self.fail("simulator", "".join(traceback.format_exception(exc))[-2000:])
        finally:
            if self.client is not None and self.loop is not None:
                self.loop.run_until_complete(self.client.close())
            if self.loop is not None:
                self.loop.close()
            self.db.dispose()
        self.outcome.seconds = time.monotonic() - start
        return self.outcome

    def create(self) -> bool:
        reply = self.send(MASTER, self.setup.create_mail(MASTER_PW), what="CREATE")
        created = "has been created" in reply
        if not self.setup.valid:
            if created:
                self.fail("create", f"CREATE accepted refused flags {self.setup.flags}")
            elif "ERRORS" not in reply and "refused" not in reply.lower() and "cannot" not in reply:
                self.fail("create", f"refused CREATE without a clear reason: {reply[-600:]}")
            self.outcome.ended = "refused"
            return False
        if not created:
            self.fail("create", f"CREATE of {self.setup.flags} {self.setup.settings} refused: {reply[-800:]}")
            self.outcome.ended = "refused"
            return False
        return True

    def join(self) -> bool:
        name = self.setup.name
        reply = self.send(OBSERVER, f"OBSERVE kibitz@{name} obsQ7pw", what="OBSERVE")
        code = re.search(rf"CONFIRM (kibitz@{re.escape(name)}) (\S+)", reply, re.IGNORECASE)
        if code is None:
            self.fail("observer", f"OBSERVE's reply gives no CONFIRM code: {reply[-400:]!r}")
        else:
            self.send(OBSERVER, f"CONFIRM {code.group(1)} {code.group(2)}", what="CONFIRM")
        self.send(STRANGER, f"OBSERVE spam@{name} spamQ7pw", what="OBSERVE unconfirmed")
        if self.setup.exchange:
            count = next(int(s.split()[1]) for s in self.setup.settings if s.startswith("INVESTORS"))
            for i in range(count):
                who = f"INV{i}"
                party = Party(
                    f"@{who}",
                    who,
                    f"{who.lower()}.{self.seed}@sim.test",
                    f"ipw{self.seed}x{i}",
                    investor=True,
                )
                self.investors[party.power] = party
                self.passwords.add(party.password)
                self.send(party.address, f"JOIN {who.lower()}@{name} {party.password}", what="JOIN")
        else:
            for power in self.setup.powers:
                initial = self.setup.initials[power]
                party = Party(
                    power, initial, f"{power.lower()}.{self.seed}@sim.test", f"ppw{self.seed}{initial}"
                )
                self.parties[power] = party
                self.passwords.add(party.password)
                self.send(party.address, f"JOIN {power.lower()}@{name} {party.password}", what="JOIN")
        status, *_ = self.state()
        if status == "forming":
            self.master("ACTIVATE", what="ACTIVATE")
            status, *_ = self.state()
        if status != "active":
            self.fail("start", f"the game is {status} after every seat joined")
            return False
        if self.parties and self.rng.random() < 0.3:
            # a dummy from the start: its units are bribed by everyone (rules 4.4, 6.5, 6.7)
            victim = self.rng.choice(list(self.parties.values()))
            self.master(f"DUMMY {victim.power}", what="DUMMY at the start")
        return True

    def master(self, body: str, *, what: str) -> str:
        return self.send(MASTER, f"SIGNON M{self.setup.name} {MASTER_PW}\n{body}", what=what)

    def as_party(self, party: Party, body: str, *, what: str) -> str:
        return self.send(party.address, f"{party.signon(self.setup.name)}\n{body}", what=what)

    def run_phases(self) -> None:
        first_year = None
        for _ in range(self.years * 6 + 10):
            status, phase, pos = self.state()
            if status != "active" or pos is None:
                if status == "paused":
                    self.master("ACTIVATE", what="ACTIVATE after PAUSE")
                    continue
                break
            year = pos.phase.year  # type: ignore[attr-defined]
            first_year = year if first_year is None else first_year
            if year >= first_year + self.years:
                break
            self.note_opened(phase)
            self.phase_mail(pos)
            self.side_mail(pos)
            self.master_mail(phase)
            self.advance(phase)
            self.check_web()

    def note_opened(self, phase: str | None) -> None:
        snap = self.snapshot()
        if phase not in self.opened:
            self.opened[phase or ""] = snap

    def parties_of(self, pos) -> list[Party]:
        if self.setup.exchange:
            return list(self.investors.values())
        seated = self.seated()
        return [p for p in self.parties.values() if seated.get(p.power) == "playing"]

    def seated(self) -> dict[str, str]:
        with self.db.transaction() as s:
            game = find_game(s, self.setup.name)
            return {str(seat.power): str(seat.status) for seat in game.seats if seat.power}

    def phase_mail(self, pos) -> None:
        if self.setup.exchange:
            return self.exchange_mail(pos)
        for party in self.parties_of(pos):
            if pos.phase.is_movement:
                if not pos.units.get(party.power):
                    continue
                body = letters.sheet(
                    self.rng,
                    pos,
                    party.power,
                    self.marker(party.power),
                    blind=self.setup.blind,
                    rich=self.rng.random() < 0.2,
                )
                if self.rng.random() < 0.3:
                    others = [p.initial for p in self.parties.values() if p is not party]
                    body += "\n" + letters.acceptance(self.rng, party.initial, others)
                reply = self.as_party(party, body, what=f"{party.power}'s sheet")
                if "NOT processed" in reply or "ERRORS" in reply:
                    plain = letters.plain_sheet(pos, party.power)
                    if plain:
                        self.as_party(party, plain, what=f"{party.power}'s plain sheet")
            elif pos.phase.is_retreats or pos.phase.is_adjustments:
                body = letters.orders(self.rng, pos, party.power)
                if self.setup.blind and pos.phase.is_adjustments and pos.adjustment(party.power) <= 0:
                    homes = self.home_centres(pos, party.power)
                    if homes and self.rng.random() < 0.3:
                        # a build that is not due: the player knows its own status (seed 003)
                        body = f"BUILD A {self.rng.choice(homes)}"
                if body:
                    self.as_party(party, body, what=f"{party.power}'s orders")

    def ceos(self) -> dict[str, str]:
        with self.db.transaction() as s:
            game = find_game(s, self.setup.name)
            market = GameState(s, game, self.judge.config.maps_path).market() or {}
            return {str(k): str(v) for k, v in (market.get("ceos") or {}).items() if v}

    @staticmethod
    def home_centres(pos, power: str) -> list[str]:
        home = pos.map.power(power)
        return sorted(str(c) for c in home.homes) if home is not None else []

    def exchange_mail(self, pos) -> None:
        companies = list(self.setup.powers)
        ceos = self.ceos()
        for party in self.investors.values():
            runs = [c for c, who in ceos.items() if who == party.initial]
            if pos.phase.is_exchange:
                lines = []
                for company in self.rng.sample(companies, 2):
                    verb = self.rng.choice(("BUY", "SELL", "BUY"))
                    lines.append(f"{verb} {self.rng.randint(1, 4)} {company} AT {self.rng.randint(1, 6)}")
                if self.rng.random() < 0.5:
                    lines.append(f"VOTE CEO {self.rng.choice(companies)} {party.initial}")
                if self.rng.random() < 0.2:
                    lines = ["PASS"]
                for company in runs:  # the CEO's part comes last: FOR holds to the end
                    if self.rng.random() < 0.5:
                        lines += [f"FOR {company}", f"DIVIDEND {self.rng.randint(0, 3)}"]
                self.as_party(party, "\n".join(lines), what=f"{party.power}'s trades")
            elif pos.phase.is_movement:
                # an investor bribes only foreign units: every unit is foreign to it
                body = letters.sheet(self.rng, pos, "", self.marker(party.power), blind=False, rich=False)
                for company in runs:
                    if pos.units.get(company):
                        mark = self.marker(party.power)
                        body += f"\nFOR {company}\n" + letters.sheet(
                            self.rng, pos, company, mark, blind=False, rich=False
                        )
                self.as_party(party, body, what=f"{party.power}'s bribes")
            elif party.investor and runs:
                lines = []
                for company in runs:
                    orders = letters.orders(self.rng, pos, company)
                    if orders:
                        lines += [f"FOR {company}", orders]
                if lines:
                    self.as_party(party, "\n".join(lines), what=f"{party.power}'s orders as CEO")

    def side_mail(self, pos) -> None:
        """The mail beside the orders: press, transfers, questions, bad lines, votes."""
        name = self.setup.name
        players = self.parties_of(pos)
        for party in players:
            roll = self.rng.random()
            if party.investor and roll < 0.25:
                roll = 0.3 + roll / 5  # no press or transfers between investors: questions and bad lines
            if roll < 0.12:
                other = self.rng.choice([p for p in self.parties.values() if p is not party])
                grey = self.setup.has(Flag.GREY_PRESS) or (
                    self.setup.has(Flag.WHITE_GREY) and self.rng.random() < 0.5
                )
                mark = self.marker(party.power, other.power)
                body = letters.press(self.rng, other.initial, mark, grey=grey)
                self.press_delivered(party, body, str(mark), other.power)
            elif roll < 0.17:
                self.as_party(
                    party, letters.broadcast(self.rng, self.seed), what=f"{party.power}'s broadcast"
                )
            elif roll < 0.25:
                other = self.rng.choice([p for p in self.parties.values() if p is not party])
                self.as_party(party, f"TRANSFER {self.rng.randint(1, 15)} TO {other.power}", what="TRANSFER")
            elif roll < 0.28:
                self.as_party(party, letters.junk(self.rng), what="bad lines")
            elif roll < 0.30:
                word = self.rng.choice(("SIGNIN", "SINGON", "SIGN-ON", "RESING"))
                who = f"{party.initial}{name}" if not party.investor else f"{party.initial.lower()}@{name}"
                self.send(party.address, f"{word} {who} {party.password}", what="misspelt opener")
            elif roll < 0.34:
                self.as_party(
                    party, self.rng.choice(("BALANCE", "STATUS", "SET WAIT", "SET NOWAIT")), what="query"
                )
            elif roll < 0.36:
                self.send(
                    party.address, f"{self.rng.choice(('SUMMARY', 'HISTORY'))} {name}", what="SUMMARY/HISTORY"
                )
            elif roll < 0.37:
                self.send(party.address, "HELP", what="HELP")
            elif roll < 0.375 and pos.phase.year > 1 and not party.investor:
                self.resign_and_takeover(party)

    def press_delivered(self, party: Party, body: str, mark: str, to: str) -> None:
        """Press the judge says it sent reaches someone: its addressee, the addressee's
        controller, or the Master; never only the sender."""
        start = len(self.judge.sent)
        reply = self.as_party(party, body, what=f"{party.power}'s press to {to}")
        if "Press sent" not in reply:
            return
        if " GREY" in body.partition("\n")[0]:
            self.grey_press.append((party.power, mark))  # its readers' pages must not name it
        got: set[str] = set()
        for mail in self.judge.sent[start:]:
            if mail.kind != "reply" and mark in mail.body:
                got |= set(mail.to)
        if not got - {party.address}:
            status = self.seated().get(to, "?")
            boss = self.control().get(to, "nobody")
            self.fail(
                "press lost",
                f"{party.power}'s press to {to} ({status}, controlled by {boss}) was reported sent, "
                "but no mail carries it",
            )

    def resign_and_takeover(self, party: Party) -> None:
        name = self.setup.name
        self.send(party.address, f"RESIGN {party.initial}{name} {party.password}", what="RESIGN")
        new_address = f"{party.power.lower()}.{self.seed}.{self.step}@sim.test"
        new_password = f"tpw{self.seed}{party.initial}{self.step}"
        self.passwords.add(new_password)
        self.send(new_address, f"TAKEOVER {party.initial}{name} {new_password}", what="TAKEOVER")
        with self.db.transaction() as s:
            game = find_game(s, name)
            seat = GameState(s, game, self.judge.config.maps_path).seat(party.power)  # type: ignore[arg-type]
            address = seat.address if seat is not None else None
        if address == new_address:
            party.past.add(party.address)
            party.address, party.password = new_address, new_password

    def master_mail(self, phase: str | None) -> None:
        roll = self.rng.random()
        if roll < 0.05:
            self.master("PREVIEW", what="PREVIEW")
        elif roll < 0.08:
            self.master("PAUSE", what="PAUSE")
            self.master("ACTIVATE", what="ACTIVATE after PAUSE")
        elif roll < 0.11 and self.parties:
            victim = self.rng.choice(list(self.parties.values()))
            self.master(f"DUMMY {victim.power}", what="DUMMY")
            players = [p for p in self.parties.values() if p is not victim]
            if players and self.rng.random() < 0.7:
                boss = self.rng.choice(players)
                self.master(f"CONTROL {victim.power} BY {boss.power}", what="CONTROL")
                for_body = f"FOR {victim.power}\nBALANCE"
                self.as_party(boss, for_body, what="FOR a controlled power")
                if self.rng.random() < 0.5:
                    self.master(f"UNCONTROL {victim.power}", what="UNCONTROL")
            if self.rng.random() < 0.5:
                self.master(f"REVIVE {victim.power}", what="REVIVE")
                self.send(
                    victim.address,
                    f"TAKEOVER {victim.initial}{self.setup.name} {victim.password}",
                    what="TAKEOVER",
                )

    def advance(self, phase: str | None) -> None:
        """The phase ends by PROCESS, by its deadline, or by the ROLLBACK of the one before."""
        roll = self.rng.random()
        start = len(self.judge.sent)
        *_, before = self.state()
        control_before = self.control()
        if roll < 0.3:
            self.master(self.rng.choice(("PROCESS", "PROCESS!")), what="PROCESS")
        for _ in range(12):
            status, now, _pos = self.state()
            if now != phase or status != "active":
                break
            self.step += 1
            mails = self.judge.advance(hours=12)
            self.check_mail(mails)
            self.check_hidden_dummies(mails)
            self.check_money(f"the deadline of {phase}")
        status, now, _pos = self.state()
        if now == phase and status == "active":
            self.master("PROCESS!", what="PROCESS! of a stuck phase")
            status, now, _pos = self.state()
            if now == phase and status == "active":
                self.fail("stuck", f"{phase} is not processed by deadline nor by PROCESS!")
                raise _Stop
        if now != phase:
            self.outcome.phases += 1
            self.check_blind(self.judge.sent[start:], before, _pos, control_before)
        if now != phase and status == "active" and roll > 0.93 and phase in self.opened:
            self.rollback(phase)

    def rollback(self, phase: str | None) -> None:
        # named as the Master reads it: on hundred A1430A, not the stored W1425A
        game_map = load_variant(self.setup.map_name, self.judge.config.maps_path)
        shown = calendar_of(game_map).short(Phase.parse(phase)) if phase else phase
        self.master(f"ROLLBACK {shown}", what=f"ROLLBACK {shown} ({phase})")
        after = self.snapshot()
        before = self.opened[phase or ""]
        if after != before:
            diff = [name for name, a, b in zip(("position", "balances", "phase"), before, after) if a != b]
            self.fail("rollback", f"ROLLBACK {phase} did not restore {diff}: {before[1:]} vs {after[1:]}")

    def finish(self) -> None:
        status, _phase, pos = self.state()
        if status == "active" and pos is not None and self.rng.random() < 0.5:
            for party in self.parties_of(pos):
                self.as_party(party, "VOTE DRAW", what="VOTE DRAW")
            status, *_ = self.state()
        self.outcome.ended = status
        self.check_web()
        if self.replay_check:
            self.check_replay()

    def check_replay(self) -> None:
        target = _fresh_database(self.folder, f"{self.setup.name}-replay")
        try:
            config = replace(self.judge.config)
            report = replay(self.db, target, self.setup.name, config)
            if not report.ok:
                self.fail("replay", "; ".join(report.differences)[:1500])
        finally:
            target.dispose()


class _Capture(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            frames = traceback.extract_tb(exc.__traceback__)[-3:]
            where = "; ".join(f"{f.filename.rsplit('/', 2)[-1]}:{f.lineno} {f.name}" for f in frames)
            _SERVER_ERRORS.append(f"{type(exc).__name__}: {exc} at {where}")


_SERVER_ERRORS: list[str] = []
logging.getLogger("aiohttp.server").addHandler(_Capture(logging.ERROR))
logging.getLogger("aiohttp.server").propagate = False


class _Stop(Exception):
    """A game that cannot go on (a stuck phase): its failure is already recorded."""


def _header(mail: Mail) -> str:
    head = mail.raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
    return head.decode("utf-8", "replace")


_drawing: list[Any] = []  # Pictures.attachments itself, while `without_pictures` stands in


def without_pictures() -> None:
    """Results mail without its picture: drawing and attaching a PNG is most of a phase's
    time, and pictures have tests of their own (tests/render, tests/service/test_pictures).
    `pictures_drawn` brings them back for one game."""
    from payjudge.game.pictures import Pictures

    def attachments(self, *args, **kwargs):
        return ()

    # (a stand-in for a method that is not there would skip nothing, as one did once the
    # method took its plural name, and the simulator drew every picture since)
    assert callable(getattr(Pictures, "attachments", None)), "Pictures.attachments is gone"
    if not _drawing:
        _drawing.append(Pictures.attachments)
    Pictures.attachments = attachments  # type: ignore[method-assign]


@contextmanager
def pictures_drawn() -> Iterator[None]:
    """The results pictures drawn and attached, as the judge does, for what runs inside."""
    from payjudge.game.pictures import Pictures

    stand_in = Pictures.attachments
    if _drawing:
        Pictures.attachments = _drawing[0]  # type: ignore[method-assign]
    try:
        yield
    finally:
        Pictures.attachments = stand_in  # type: ignore[method-assign]


def play(seed: int, years: int = 3, *, web: bool = True, replay_check: bool = True) -> Outcome:
    """Play the game of `seed` for at most `years` years, in a folder of its own."""
    folder = Path(tempfile.mkdtemp(prefix=f"pj-sim-{seed}-"))
    try:
        return Game(seed, years, folder, web=web, replay_check=replay_check).play()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
