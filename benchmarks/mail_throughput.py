"""Mail throughput and deadline precision of `payjudge serve` (issue 5, item 6).

    .venv/bin/python benchmarks/mail_throughput.py [--db sqlite,postgresql] [--burst 1000]
        [--clients 8] [--rates 20,50] [--paced 300] [--games 1000] [--spread 180] [--firing N]
        [--games-db sqlite|postgresql] [--skip-games] [--skip-throughput]

The daemon runs as a real subprocess (`.venv/bin/payjudge serve`, configured through the
environment as in production) and mails its replies to a real SMTP server: an aiosmtpd
sink in this process, which notes when each reply arrives and which message it answers
(In-Reply-To). PostgreSQL is a private cluster started here with its default durability
settings (fsync and synchronous commit on); SQLite is the daemon's default file (WAL,
synchronous=NORMAL).

1. **Throughput** (per database): one game with seven players exists; a burst of
   `--burst` messages goes out through `--clients` SMTP connections at once, in a mix
   of 40 % HELP, 30 % LIST and 30 % SIGNON + a fresh offer sheet from one of six powers
   (the seventh never sends, so the phase is never processed meanwhile). *Accepted*:
   messages per second answered 250 by the listener (first send to last 250).
   *Answered*: messages per second whose reply reached the sink (first send to last
   reply). Latency: from the start of a message's SMTP transaction to its reply at the
   sink; under a burst this is mostly queueing.
2. **Latency at a steady rate**: the same mix sent open-loop at each of `--rates`
   messages per second (`--paced` messages each); latency is measured from the moment a
   message was due to go out, so a client falling behind counts against the judge.
3. **Deadlines** (SQLite, or PostgreSQL with `--games-db`): `--games` active games
   whose phase is ready (every sheet in; a settle delay of an hour, so only the
   deadline processes them), with deadlines spread evenly over `--spread` seconds,
   starting a minute after the daemon starts.
   Lateness = the turn's `processed_at` (when the daemon's deadline job began) minus the
   deadline, and the arrival of the phase's results mail at the sink minus the deadline
   (the whole path: processing, commit, outbox, SMTP). The daemon's resident memory
   (VmRSS) is sampled every half second.

Machine: the project's 2-core VM, shared with the benchmark's own clients and sink.
"""

from __future__ import annotations

import argparse
import random
import shutil
import smtplib
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.parser import BytesHeaderParser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.daemon import script as g  # noqa: E402
from tests.daemon.builder import build_ready_games  # noqa: E402
from tests.daemon.harness import JUDGE, JudgeProcess, make_mail, wait_until  # noqa: E402
from tests.servers import free_port  # noqa: E402

GAME = "bench"
SHEET_POWERS = g.POWERS[:6]  # Turkey never sends: the phase stays open


# -- the SMTP sink ------------------------------------------------------------------------


@dataclass
class Arrival:
    at: float  # time.monotonic()
    wall: float  # time.time()
    in_reply_to: str | None
    subject: str


@dataclass
class SinkHandler:
    arrivals: list[Arrival] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_DATA(self, server, session, envelope):
        at, wall = time.monotonic(), time.time()
        headers = BytesHeaderParser().parsebytes(envelope.original_content)
        arrival = Arrival(at, wall, headers.get("In-Reply-To"), str(headers.get("Subject", "")))
        with self.lock:
            self.arrivals.append(arrival)
        return "250 2.0.0 OK"

    def replies(self) -> dict[str, float]:
        with self.lock:
            return {a.in_reply_to: a.at for a in self.arrivals if a.in_reply_to}

    def clear(self) -> None:
        with self.lock:
            self.arrivals.clear()


def start_sink():
    from aiosmtpd.controller import Controller

    handler = SinkHandler()
    controller = Controller(handler, hostname="127.0.0.1", port=free_port(), ready_timeout=10)
    controller.start()
    return controller, handler


# -- the message mix ----------------------------------------------------------------------


def mix(n: int, rng: random.Random) -> list[tuple[str, str, str, bytes]]:
    """(kind, Message-ID, envelope sender, bytes) for n messages."""
    out = []
    for i in range(n):
        roll = rng.random()
        if roll < 0.4:
            kind, sender, body = "HELP", f"reader{rng.randrange(50)}@players.test", "HELP"
        elif roll < 0.7:
            kind, sender, body = "LIST", f"reader{rng.randrange(50)}@players.test", "LIST"
        else:
            power = rng.choice(SHEET_POWERS)
            lines = [
                f"{rng.randint(1, 3)} : {line.split(':', 1)[1].strip()}" for line in g.SPRING_1901[power]
            ]
            kind, sender, body = "SHEET", g.address(power), g.sheet_body(power, lines, GAME)
        msgid, raw = make_mail(sender, body, f"bench {i}")
        out.append((kind, msgid, sender, raw))
    return out


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


# -- 1. a burst ---------------------------------------------------------------------------


def burst(port: int, sink: SinkHandler, messages, clients: int) -> dict:
    sink.clear()
    started: dict[str, float] = {}
    accepted: dict[str, float] = {}
    lock = threading.Lock()
    failures = []

    def client(chunk) -> None:
        conn = smtplib.SMTP("127.0.0.1", port, timeout=120)
        try:
            for _kind, msgid, sender, raw in chunk:
                t = time.monotonic()
                try:
                    conn.sendmail(sender, [JUDGE], raw)
                except smtplib.SMTPException as exc:
                    failures.append(f"{msgid}: {exc}")
                    continue
                with lock:
                    started[msgid] = t
                    accepted[msgid] = time.monotonic()
        finally:
            conn.quit()

    t0 = time.monotonic()
    threads = [threading.Thread(target=client, args=(messages[i::clients],)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    t_accepted = max(accepted.values())
    wait_until(
        lambda: len(set(sink.replies()) & set(accepted)) >= len(accepted),
        600,
        "every reply of the burst",
        interval=0.2,
    )
    replies = sink.replies()
    t_answered = max(replies[m] for m in accepted)
    latency = [replies[m] - started[m] for m in accepted]
    return {
        "n": len(messages),
        "failed": len(failures),
        "accepted_per_s": len(accepted) / (t_accepted - t0),
        "answered_per_s": len(accepted) / (t_answered - t0),
        "p50": percentile(latency, 50),
        "p99": percentile(latency, 99),
        "max": max(latency),
    }


# -- 2. a steady rate ---------------------------------------------------------------------


def paced(port: int, sink: SinkHandler, messages, rate: float) -> dict:
    sink.clear()
    due: dict[str, float] = {}
    failures = []
    local = threading.local()

    def send(item, when: float) -> None:
        _kind, _msgid, sender, raw = item
        delay = when - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        conn = getattr(local, "conn", None)
        if conn is None:
            conn = local.conn = smtplib.SMTP("127.0.0.1", port, timeout=120)
        try:
            conn.sendmail(sender, [JUDGE], raw)
        except smtplib.SMTPException as exc:
            failures.append(str(exc))

    t0 = time.monotonic() + 0.5
    with ThreadPoolExecutor(max_workers=8) as pool:
        for i, item in enumerate(messages):
            when = t0 + i / rate
            due[item[1]] = when
            pool.submit(send, item, when)
    wait_until(
        lambda: len(set(sink.replies()) & set(due)) >= len(due) - len(failures),
        600,
        "every reply at a steady rate",
        interval=0.2,
    )
    replies = sink.replies()
    latency = [replies[m] - due[m] for m in due if m in replies]
    return {
        "rate": rate,
        "n": len(messages),
        "failed": len(failures),
        "p50": percentile(latency, 50),
        "p99": percentile(latency, 99),
        "max": max(latency),
    }


def throughput(kind: str, db_url: str | None, sink_url: str, sink: SinkHandler, args) -> dict:
    judge = JudgeProcess(
        outbound=sink_url, db_url=db_url, settle=3600, sweep=30, env={"PAYJUDGE_LOG_LEVEL": "WARNING"}
    )
    try:
        judge.upgrade()
        build_ready_games(judge.db_url, [GAME], sheets=False, cheap_hashes=False)
        judge.start()
        rng = random.Random(1)
        # warm up (imports, connection pools, first templates), then measure
        burst(judge.port, sink, mix(50, rng), args.clients)
        result = {"db": kind, "burst": burst(judge.port, sink, mix(args.burst, rng), args.clients)}
        result["paced"] = [paced(judge.port, sink, mix(args.paced, rng), rate) for rate in args.rates]
        result["rss_mib"] = judge.rss_kib() / 1024
        quarantined = judge.scalar("SELECT count(*) FROM inbound_message WHERE state = 'quarantined'")
        result["quarantined"] = quarantined
        return result
    finally:
        judge.stop()
        shutil.rmtree(judge.data_dir, ignore_errors=True)


# -- 3. a thousand games ------------------------------------------------------------------


def clone_games(db_url: str, template: str, count: int) -> list[str]:
    """Copy a started game `count` times, straight in SQL (as a judge with many games
    would have them): the game, its seats, turn, sheets, acceptance lists and ledger."""
    from sqlalchemy import create_engine, insert, select

    from payjudge.store.models import Acceptance, Game, LedgerEntry, Seat, Submission, Turn

    engine = create_engine(db_url)
    names = []
    try:
        with engine.begin() as conn:
            game = conn.execute(select(Game.__table__).where(Game.name == template)).mappings().one()
            gid = game["id"]
            per_table = {}
            for model in (Seat, Turn, Submission, Acceptance, LedgerEntry):
                table = model.__table__
                per_table[model] = [
                    dict(r) for r in conn.execute(select(table).where(table.c.game_id == gid)).mappings()
                ]
            for i in range(count):
                name = f"{template}{i:04d}"
                names.append(name)
                row = {k: v for k, v in game.items() if k != "id"}
                row["name"] = name
                new_gid = conn.execute(insert(Game.__table__).values(**row)).inserted_primary_key[0]
                turn_ids = {}
                for turn in per_table[Turn]:
                    values = {k: v for k, v in turn.items() if k != "id"}
                    values["game_id"] = new_gid
                    turn_ids[turn["id"]] = conn.execute(
                        insert(Turn.__table__).values(**values)
                    ).inserted_primary_key[0]
                for model in (Seat, Submission, Acceptance, LedgerEntry):
                    rows = []
                    for r in per_table[model]:
                        values = {k: v for k, v in r.items() if k != "id"}
                        values["game_id"] = new_gid
                        if model is Submission:
                            values["turn_id"] = turn_ids[r["turn_id"]]
                            values["inbound_id"] = None
                        rows.append(values)
                    if rows:
                        conn.execute(insert(model.__table__), rows)
    finally:
        engine.dispose()
    return names


def deadlines(sink_url: str, sink: SinkHandler, args, db_url: str | None = None) -> dict:
    from sqlalchemy import create_engine, text

    judge = JudgeProcess(
        outbound=sink_url, db_url=db_url, settle=3600, sweep=30, env={"PAYJUDGE_LOG_LEVEL": "WARNING"}
    )
    try:
        judge.upgrade()
        # a usual PBEM timing: the phase after the deadline is not reminded at once
        build_ready_games(judge.db_url, ["many"], timing="MOVE 2D RETREAT 1D ADJUST 1D")
        names = ["many"] + clone_games(judge.db_url, "many", args.games - 1)
        first = datetime.now(UTC) + timedelta(seconds=args.lead)
        # `--firing` of the games have their deadline within the run, spread evenly over
        # `--spread` seconds; the others (a judge's usual state: deadlines days apart)
        # over the two days after it, so they weigh on start-up, memory and every
        # refresh of the scheduler without being processed during the run
        firing = names[: args.firing or len(names)]
        step = timedelta(seconds=args.spread / max(1, len(firing) - 1))
        later = names[len(firing) :]
        later_step = timedelta(days=2) / max(1, len(later))
        due = {}
        engine = create_engine(judge.db_url)
        with engine.begin() as conn:
            rows = []
            for i, name in enumerate(firing):
                due[name] = first + step * i
                rows.append({"d": due[name].replace(tzinfo=None), "n": name})
            for i, name in enumerate(later):
                when = first + timedelta(seconds=args.spread + 3600) + later_step * i
                rows.append({"d": when.replace(tzinfo=None), "n": name})
            conn.execute(text("UPDATE game SET deadline = :d WHERE name = :n"), rows)
        engine.dispose()
        sink.clear()
        samples: list[tuple[float, float]] = []
        t_start = time.monotonic()
        judge.start(timeout=300)
        ready_after = time.monotonic() - t_start
        print(f"daemon listening after {ready_after:.1f} s", flush=True)
        if args.on_start:
            args.on_start(judge)
        stop = threading.Event()

        def sample() -> None:
            while not stop.is_set():
                try:
                    samples.append((time.monotonic() - t_start, judge.rss_kib() / 1024))
                except (OSError, ValueError):
                    pass
                stop.wait(0.5)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        idle_rss = None
        deadline_wall = (first - datetime.now(UTC)).total_seconds()
        if deadline_wall > 1:
            time.sleep(deadline_wall - 1)
            idle_rss = judge.rss_kib() / 1024
        total = len(firing)
        wait_until(
            lambda: judge.scalar("SELECT count(*) FROM turn WHERE status = 'processed'") >= total,
            args.spread + 300,
            "every deadline processed",
            interval=1.0,
        )
        wait_until(
            lambda: sum(1 for a in list(sink.arrivals) if a.subject.startswith("Diplomacy results")) >= total,
            300,
            "every results mail",
            interval=0.5,
        )
        stop.set()
        sampler.join()
        rows = judge.query(
            "SELECT g.name, t.processed_at FROM turn t JOIN game g ON g.id = t.game_id "
            "WHERE t.status = 'processed'"
        )
        rows = [(name, at) for name, at in rows if name in due]
        processed = []
        for name, at in rows:
            at = at if isinstance(at, datetime) else datetime.fromisoformat(str(at))
            at = at.replace(tzinfo=UTC) if at.tzinfo is None else at
            processed.append((at - due[name]).total_seconds())
        arrived = []
        for a in list(sink.arrivals):
            if a.subject.startswith("Diplomacy results"):
                name = a.subject.split()[2]
                arrived.append(a.wall - due[name].timestamp())
        turns = judge.scalar("SELECT count(*) FROM turn")
        worst = sorted(((late, name) for (name, _), late in zip(rows, processed)), reverse=True)[:5]
        print("latest deadlines:", ", ".join(f"{name} {late:.2f} s" for late, name in worst), flush=True)
        return {
            "games": len(names),
            "firing": total,
            "startup_s": ready_after,
            "fired_p50": percentile(processed, 50),
            "fired_p99": percentile(processed, 99),
            "fired_max": max(processed),
            "mail_p50": percentile(arrived, 50),
            "mail_p99": percentile(arrived, 99),
            "mail_max": max(arrived),
            "duplicates": turns - len(names) - total,
            "rss_idle_mib": idle_rss,
            "rss_max_mib": max(r for _, r in samples),
        }
    finally:
        judge.stop()
        shutil.rmtree(judge.data_dir, ignore_errors=True)


# -- main ---------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default="sqlite,postgresql")
    parser.add_argument("--burst", type=int, default=1000)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--rates", default="20,50")
    parser.add_argument("--paced", type=int, default=300)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--spread", type=float, default=180.0)
    parser.add_argument(
        "--firing",
        type=int,
        default=0,
        help="how many games have their deadline within the run (default: all)",
    )
    parser.add_argument(
        "--lead", type=float, default=60.0, help="seconds from the daemon's start to the first deadline"
    )
    parser.add_argument("--games-db", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--skip-games", action="store_true")
    parser.add_argument("--skip-throughput", action="store_true")
    args = parser.parse_args()
    args.on_start = None
    args.rates = [float(r) for r in args.rates.split(",") if r]

    controller, sink = start_sink()
    sink_url = f"smtp://127.0.0.1:{controller.port}"
    results = []
    pg = None
    try:
        for kind in [k for k in args.db.split(",") if k and not args.skip_throughput]:
            db_url = None
            if kind == "postgresql":
                from tests.daemon.pgserver import PrivatePostgres

                pg = PrivatePostgres(
                    settings={"fsync": "on", "synchronous_commit": "on", "full_page_writes": "on"}
                ).start()
                db_url = pg.create_database("bench")
            print(f"[{kind}] throughput ...", flush=True)
            results.append(throughput(kind, db_url, sink_url, sink, args))
            if pg is not None:
                pg.remove()
                pg = None
        games = None
        if not args.skip_games:
            db_url = None
            if args.games_db == "postgresql":
                from tests.daemon.pgserver import PrivatePostgres

                pg = PrivatePostgres(
                    settings={"fsync": "on", "synchronous_commit": "on", "full_page_writes": "on"}
                ).start()
                db_url = pg.create_database("games")
            print(f"[{args.games_db}] {args.games} games, deadlines over {args.spread:.0f} s ...", flush=True)
            games = deadlines(sink_url, sink, args, db_url)
            games["db"] = args.games_db
    finally:
        if pg is not None:
            pg.remove()
        controller.stop()

    print()
    print(
        "| database | burst | accepted msg/s | answered msg/s | p50 latency | p99 latency |"
        " max latency | daemon RSS |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in results:
        b = r["burst"]
        print(
            f"| {r['db']} | {b['n']} | {b['accepted_per_s']:.0f} | {b['answered_per_s']:.0f} |"
            f" {b['p50'] * 1000:.0f} ms | {b['p99'] * 1000:.0f} ms | {b['max'] * 1000:.0f} ms |"
            f" {r['rss_mib']:.0f} MiB |"
        )
    print()
    print("| database | steady rate | messages | p50 latency | p99 latency | max latency |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for r in results:
        for p in r["paced"]:
            print(
                f"| {r['db']} | {p['rate']:.0f} msg/s | {p['n']} | {p['p50'] * 1000:.0f} ms |"
                f" {p['p99'] * 1000:.0f} ms | {p['max'] * 1000:.0f} ms |"
            )
    if games:
        print()
        print(
            "| active games | start-up | deadline job late p50 / p99 / max |"
            " results mail at the sink p50 / p99 / max | phases processed twice |"
            " RSS idle / peak |"
        )
        print("| ---: | ---: | ---: | ---: | ---: | ---: |")
        print(
            f"| {games['games']} ({games['firing']} due, {games['db']}) | {games['startup_s']:.1f} s |"
            f" {games['fired_p50']:.2f} / {games['fired_p99']:.2f} / {games['fired_max']:.2f} s |"
            f" {games['mail_p50']:.2f} / {games['mail_p99']:.2f} / {games['mail_max']:.2f} s |"
            f" {games['duplicates']} |"
            f" {games['rss_idle_mib'] or float('nan'):.0f} / {games['rss_max_mib']:.0f} MiB |"
        )
    for r in results:
        if r["burst"]["failed"] or r["quarantined"]:
            print(f"WARNING {r['db']}: {r['burst']['failed']} refused, {r['quarantined']} quarantined")


if __name__ == "__main__":
    main()
