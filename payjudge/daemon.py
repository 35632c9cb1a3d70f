"""`payjudge serve`: one asyncio process wiring the listener, the poller, the processor,
the outbox sender and the deadline scheduler together (the processor runs in a child
process, `service/worker.py`, but for a SQLite database in memory).

Truth lives in the database: the SMTP listener and the IMAP poller only store raw mail;
the processor handles stored messages in batches of transactions; the sender delivers committed
outbox rows; the scheduler keeps one date job per active game (read from the database at
start and moved when the game's row changes, see `_GameClock`) plus a periodic sweep,
with no misfire grace limit, so a deadline that passed while the daemon was down is
processed at start. One daemon per SQLite file (a lock file); several on one PostgreSQL.
"""

from __future__ import annotations

import asyncio
import fcntl
import logging
import signal
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import partial
from pathlib import Path
from typing import IO

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from .config import Config, ConfigError, configure_logging, redact, redact_url
from .game.timing import Timing
from .heartbeat import HeartbeatWriter, heartbeat_path
from .mail.listener import start_listener
from .mail.poller import ImapPoller, ImapSettings
from .mail.sender import OutboxSender, transport_from_url
from .memory import SystemClock
from .ports import Clock, InboundStore, Stored
from .service.deadlines import next_wakeup, tick_game
from .service.processor import process_pending
from .service.worker import ProcessorProcess
from .store import repo
from .store.db import Database, SchemaError, Unreachable, check_schema, check_url, sqlite_file
from .store.mailbox import SqlInbound, SqlOutbox
from .vocabulary import GameStatus

log = logging.getLogger("payjudge.daemon")


class DaemonError(RuntimeError):
    """The daemon cannot start (the message says why)."""


@dataclass
class _Notifying:
    """An InboundStore that wakes the processor when a new message is committed."""

    store: InboundStore
    wake: Callable[[], None]

    def store_inbound(self, raw: bytes, **kwargs) -> Stored:
        result = self.store.store_inbound(raw, **kwargs)
        if result is Stored.STORED:
            self.wake()
        return result

    def has_source_key(self, source_key: str) -> bool:
        return self.store.has_source_key(source_key)


@dataclass
class Daemon:
    config: Config
    clock: Clock = field(default_factory=SystemClock)
    db: Database | None = None
    listen_port: int | None = None  # the port really bound (after start)
    http_port: int | None = None  # the status page's port (after start), if it is on
    sole: bool = field(default=False, init=False)  # the only processor of its SQLite file

    async def run(self, stop: asyncio.Event | None = None) -> None:
        cfg = self.config
        loop = asyncio.get_running_loop()
        # the IMAP poller holds a worker thread while it IDLEs; the default pool is small
        loop.set_default_executor(ThreadPoolExecutor(max_workers=16, thread_name_prefix="payjudge"))
        stop = stop or asyncio.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            try:
                loop.add_signal_handler(sig, stop.set)
            except (NotImplementedError, RuntimeError):  # not the main thread (tests)
                pass
        try:
            cfg.data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DaemonError(f"PAYJUDGE_DATA_DIR {cfg.data_dir}: {exc.strerror}") from None
        single = _one_daemon_per_sqlite_file(cfg.database_url)
        self.sole = single is not None
        try:
            try:
                # a database nobody migrated would answer every mail 451, forever
                await asyncio.to_thread(check_schema, cfg.database_url)
            except (SchemaError, Unreachable) as exc:
                raise DaemonError(
                    f"the database (PAYJUDGE_DB_URL) {redact_url(cfg.database_url)}: "
                    f"{redact(str(exc), cfg.database_url)}"
                ) from None
            try:
                await self._serve(loop, stop)
            except OSError as exc:
                # an address it cannot listen on (in use, not this machine's): the
                # settings' fault, said in one line (the message names the address)
                raise DaemonError(f"cannot start: {redact(str(exc), cfg.database_url)}") from None
        finally:
            if single is not None:
                single.close()

    async def _serve(self, loop: asyncio.AbstractEventLoop, stop: asyncio.Event) -> None:
        cfg = self.config
        self.db = db = self.db or Database(cfg.database_url, busy_seconds=cfg.sqlite_busy_seconds)
        if self.sole:
            # the only processor of this file: what a killed one was reading is taken again
            # now, not when its lease runs out (one kill mid-message costs nothing)
            with db.transaction() as s:
                freed = repo.end_leases(s, self.clock.now())
            if freed:
                log.info("%d message(s) a stopped processor was reading are taken again", freed)
        inbound_wake = asyncio.Event()
        # The processor runs in a process of its own (service/worker.py); on a SQLite
        # database in memory, and under a clock a test moves, it is a thread of this one.
        worker: ProcessorProcess | None = None
        shared = db.engine.dialect.name == "postgresql" or sqlite_file(cfg.database_url) is not None
        own_process = shared and isinstance(self.clock, SystemClock)

        def wake_processor() -> None:
            if worker is not None:
                worker.wake()
            else:
                loop.call_soon_threadsafe(inbound_wake.set)

        inbound = _Notifying(SqlInbound(db, self.clock), wake_processor)
        outbox = SqlOutbox(db, batch_marks=True)
        sender = OutboxSender(outbox, transport_from_url(cfg.outbound_url), self.clock)
        tasks: list[asyncio.Task] = []
        server = None
        if cfg.listen is not None:
            host, port = cfg.listen
            server = await start_listener(
                inbound,
                host,
                port,
                local_domains=cfg.domains,
                local_addresses=(cfg.judge_address,),
                size_limit=cfg.max_message_bytes,
                hostname="payjudge",
                timeout=cfg.smtp_timeout_seconds,
                session_seconds=cfg.smtp_session_seconds,
                max_commands=cfg.smtp_max_commands,
                max_connections=cfg.smtp_max_connections,
                max_per_client=cfg.smtp_max_per_client,
            )
            self.listen_port = server.sockets[0].getsockname()[1]
        http = None
        if cfg.http is not None:
            from .web.app import start_http  # aiohttp is loaded only when the page is on

            http, self.http_port = await start_http(db, cfg, *cfg.http, now=self.clock.now, inbound=inbound)
        if cfg.imap_url:
            imap = ImapSettings.from_url(cfg.imap_url)
            beat = HeartbeatWriter(heartbeat_path(cfg.data_dir), imap)
            poller = ImapPoller(inbound, imap, report=beat)
            beat(poller.status)  # started, not logged in yet: `payjudge health` counts from now
            tasks.append(asyncio.create_task(poller.run(stop), name="imap-poller"))
        tasks.append(asyncio.create_task(sender.run(stop, interval=5.0), name="outbox-sender"))
        scheduler = AsyncIOScheduler(timezone="UTC")
        clock = _GameClock(db, cfg, self.clock, scheduler, sender)

        # Messages are processed on one thread of their own: the password checks
        # (argon2, 19 MiB each) then reuse one allocator arena, where a pool of threads
        # would each keep its own (the daemon's memory grew to 300 MiB under a burst).
        processing = ThreadPoolExecutor(max_workers=1, thread_name_prefix="payjudge-processor")

        async def processor() -> None:
            while not stop.is_set():
                inbound_wake.clear()
                try:
                    # each batch's replies go out as soon as it is committed
                    count = await loop.run_in_executor(
                        processing, partial(process_pending, db, cfg, self.clock, committed=sender.wake)
                    )
                except Exception:
                    log.exception("processing stored messages failed; retrying")
                    count = 0
                if count:
                    sender.wake()
                    clock.poke()  # a game made ready is processed early (not waited for)
                    continue
                try:
                    await asyncio.wait_for(inbound_wake.wait(), timeout=2.0)
                except TimeoutError:
                    pass

        async def sweep() -> None:
            await clock.refresh(tick=True)

        scheduler.add_job(
            sweep,
            "interval",
            seconds=cfg.sweep_seconds,
            id="sweep",
            misfire_grace_time=None,
            coalesce=True,
            max_instances=1,
        )
        scheduler.start()
        worker_task = None
        if own_process:

            def committed() -> None:
                sender.wake()
                clock.poke()  # a game made ready is processed early (not waited for)

            worker = ProcessorProcess(cfg, committed)
            worker_task = asyncio.create_task(worker.run(stop), name="processor-process")
        else:
            tasks.append(asyncio.create_task(processor(), name="processor"))
        await sweep()  # deadlines that passed while the daemon was down
        log.info(
            "payjudge serving (database %s, outbound %s)",
            redact_url(cfg.database_url),
            redact_url(cfg.outbound_url),
        )
        try:
            await stop.wait()
            log.info("payjudge stopping")
        finally:
            scheduler.shutdown(wait=False)
            if server is not None:
                server.close()
                await server.wait_closed()
            if http is not None:
                await http.cleanup()
            if worker_task is not None:  # it stops its process: let it finish its transaction
                await asyncio.gather(worker_task, return_exceptions=True)
            for task in tasks:
                task.cancel()
            clock.close()
            await asyncio.gather(*tasks, return_exceptions=True)
            processing.shutdown(wait=True)
            outbox.close()
            db.dispose()
            log.info("payjudge stopped")


POKE_SECONDS = 0.5


class _GameClock:
    """What the clock does to the active games, kept cheap with a thousand of them.

    A refresh reads every active game's id, version, deadline and readiness (one light
    query, no write lock on SQLite) and works out the next wake-up (`next_wakeup`) only of
    the games whose row changed. With `tick` it then ticks (`tick_game`, under the game's
    lock) the games that are due or changed since their last tick: that is how a game
    whose last orders just came in is found ready, and the first refresh ticks them all
    (deadlines passed while the daemon was down). Last, each game's date job is moved if
    its time changed, on the loop's thread.

    A wake-up already past that a tick has seen and left as it was (a reminder offset
    that a ready game never sends) is not set again: the job goes to the next time still
    to come, so nothing spins and the deadline keeps its own job. Games with a past
    wake-up are still ticked by every sweep (late notices repeat)."""

    def __init__(
        self, db: Database, config: Config, now: Clock, scheduler: AsyncIOScheduler, sender: OutboxSender
    ):
        self.db, self.config, self.now = db, config, now
        self.scheduler, self.sender = scheduler, sender
        self.settle = timedelta(seconds=config.settle_seconds)
        self._lock = asyncio.Lock()  # one refresh at a time
        self._known: dict[int, _Wake] = {}  # game → its row key and wake-ups
        self._planned: dict[int, datetime] = {}  # game → the time its job is set for
        self._ticked: dict[int, tuple] = {}  # game → its row key when last ticked
        self._dirty = False
        self._poker: asyncio.Future | None = None

    async def refresh(self, *, tick: bool, only: list[int] | None = None) -> None:
        """Read the games again (`only` these, when given) and move their jobs; with
        `tick`, tick those due or changed first."""
        async with self._lock:
            try:
                current = await asyncio.to_thread(self._read, only)
                # the jobs first: the first refresh ticks every game (10,000 ticks take
                # a minute), and the deadlines to come must not wait for that
                self._plan(current, only, skip_due=tick)
                if tick:
                    now = self.now.now()
                    todo = [
                        gid
                        for gid, w in current.items()
                        if self._ticked.get(gid) != w.key or (w.due is not None and w.due <= now)
                    ]
                    if todo:
                        await asyncio.to_thread(self._tick, todo, now)
                        for gid in todo:  # the key *before* the tick: a changed game is ticked once more
                            self._ticked[gid] = current[gid].key
                        current = await asyncio.to_thread(self._read, only)
                self._plan(current, only)
            except Exception:
                log.exception("the deadline scheduler could not read the games; retrying at the next sweep")

    def poke(self) -> None:
        """Ask for a refresh with ticks soon, without waiting for it; requests made while
        one is under way are served by one more refresh after it."""
        self._dirty = True
        if self._poker is None or self._poker.done():
            self._poker = asyncio.ensure_future(self._drain())

    def close(self) -> None:
        if self._poker is not None:
            self._poker.cancel()

    async def _drain(self) -> None:
        while self._dirty:
            self._dirty = False
            await self.refresh(tick=True)
            if self._dirty:
                # Under a stream of commits (a burst of mail) refreshes would follow each
                # other without a pause, each ticking the games the mail changed under
                # their row locks, against the processor that holds them: at most one
                # every POKE_SECONDS then (a game made ready waits that much longer).
                await asyncio.sleep(POKE_SECONDS)

    async def deadline(self, game_id: int) -> None:
        known = self._known.get(game_id)
        try:
            action = await asyncio.to_thread(tick_game, self.db, self.config, game_id, self.now.now())
        except Exception:
            log.exception("deadline job failed for game %s", game_id)
            return
        if known is not None:
            self._ticked[game_id] = known.key
        if action:
            self.sender.wake()
        # this game's row only: re-reading every game after each deadline made a day of
        # deadlines cost games × games (10,000 rows read per deadline)
        await self.refresh(tick=False, only=[game_id])

    def _read(self, only: list[int] | None = None) -> dict[int, _Wake]:
        now = self.now.now()
        with self.db.reading() as s:
            keys = repo.active_game_keys(s, only)
            changed = [
                gid
                for gid, key in keys.items()
                if gid not in self._known
                or self._known[gid].key != key
                or _passed(self._known[gid].later, now)
            ]
            for row in repo.schedule_rows(s, changed):
                self._known[row.id] = _Wake(
                    keys[row.id], next_wakeup(row, self.settle), _next_after(row, self.settle, now)
                )
        for gone in (set(self._known) if only is None else set(only) & set(self._known)) - set(keys):
            del self._known[gone]
        return {gid: self._known[gid] for gid in keys if gid in self._known}

    def _tick(self, game_ids: list[int], now: datetime) -> None:
        acted = False
        for gid in game_ids:
            try:
                acted = bool(tick_game(self.db, self.config, gid, now)) or acted
            except Exception:  # one game's failure never stops the others
                log.exception("deadline handling failed for game %s", gid)
        if acted:
            self.sender.wake()

    def _plan(self, current: dict[int, _Wake], only: list[int] | None = None, skip_due: bool = False) -> None:
        """Move each game's job to its next wake-up; with `skip_due`, leave the games due
        and not ticked yet as they are (the caller is about to tick them)."""
        now = self.now.now()
        for gid, w in current.items():
            when: datetime | None
            if w.due is not None and w.due <= now and self._ticked.get(gid) != w.key:
                if skip_due:
                    continue
                when = now  # due and not looked at yet
            else:
                when = w.due if w.due is not None and w.due > now else w.later
            if when is None:
                self._unplan(gid)
            elif self._planned.get(gid) != when:
                self.scheduler.add_job(
                    self.deadline,
                    "date",
                    run_date=max(when, now),
                    args=[gid],
                    id=f"deadline:{gid}",
                    replace_existing=True,
                    misfire_grace_time=None,
                )
                self._planned[gid] = when
        for gid in (set(self._planned) if only is None else set(only) & set(self._planned)) - set(current):
            self._unplan(gid)

    def _unplan(self, gid: int) -> None:
        if self._planned.pop(gid, None) is not None:
            job = self.scheduler.get_job(f"deadline:{gid}")
            if job is not None:
                job.remove()


@dataclass(frozen=True)
class _Wake:
    key: tuple  # (version, deadline, ready_at): the row changed if it did
    due: datetime | None  # next_wakeup: when the clock next matters for the game
    later: datetime | None  # the first moment of those still to come (at reading)


def _passed(when: datetime | None, now: datetime) -> bool:
    return when is not None and when <= now


def _next_after(game, settle: timedelta, now: datetime) -> datetime | None:
    """The earliest of a game's clock moments (those `next_wakeup` takes the first of)
    that is still to come."""
    if game.state is not GameStatus.ACTIVE:
        return None
    if game.deadline is None:  # NO_DEADLINE: only readiness moves the game
        ready = game.ready_at + settle if game.ready_at is not None else None
        return ready if ready is not None and ready > now else None
    timing = Timing.from_json(game.timing)
    times = [game.deadline, *(game.deadline - offset for offset in timing.warn)]
    if game.ready_at is not None:
        times.append(game.ready_at + settle)
    if timing.grace:
        times.append(game.deadline + timing.grace)
    future = [t for t in times if t > now]
    return min(future) if future else None


def _one_daemon_per_sqlite_file(url: str) -> IO | None:
    """Hold a lock file beside a SQLite database for the daemon's lifetime: a second
    daemon on the same file would send the same outbox mail (SqlOutbox relies on this)."""
    if not url.startswith("sqlite:///"):
        return None
    path = Path(url[len("sqlite:///") :].split("?", 1)[0] + ".daemon-lock")
    handle = open(path, "a+")  # noqa: SIM115 (held open, and locked, for the daemon's lifetime)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise DaemonError(f"another payjudge serve is already using {path.with_suffix('')}") from None
    return handle


_URL_SETTINGS: tuple[tuple[str, Callable[[Config], str], Callable[[str], object]], ...] = (
    ("PAYJUDGE_DB_URL", lambda c: c.database_url, check_url),
    ("PAYJUDGE_OUTBOUND", lambda c: c.outbound_url, transport_from_url),
    ("PAYJUDGE_IMAP_URL", lambda c: c.imap_url, ImapSettings.from_url),
)


def check_settings(config: Config) -> None:
    """Read every setting the daemon will use, before it starts anything: a mistake is a
    ConfigError of one line naming the setting, its URL shown without the password
    (whatever the parser's own message quoted)."""
    config.listen, config.http  # noqa: B018 (each raises ConfigError itself)
    for name, value, read in _URL_SETTINGS:
        url = value(config)
        if not url:
            continue
        try:
            read(url)
        except ValueError as exc:
            raise ConfigError(f"{name} {redact_url(url)}: {redact(str(exc), url)}") from None


def serve(config: Config) -> None:
    configure_logging(config)
    try:
        check_settings(config)
        asyncio.run(Daemon(config).run())
    except (DaemonError, ConfigError) as exc:
        log.error("%s", exc)
        raise SystemExit(1) from None
