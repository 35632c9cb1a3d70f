"""`payjudge serve`: one asyncio process wiring the listener, the poller, the processor,
the outbox sender and the deadline scheduler together.

Truth lives in the database: the SMTP listener and the IMAP poller only store raw mail;
the processor handles stored messages one per transaction; the sender delivers committed
outbox rows; the scheduler keeps one date job per active game (rebuilt from the database
at start and after every change) plus a periodic sweep, with no misfire grace limit, so a
deadline that passed while the daemon was down is processed at start.
"""

from __future__ import annotations

import asyncio
import fcntl
import logging
import signal
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import IO, Sequence

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from .config import Config
from .mail.listener import start_listener
from .mail.poller import ImapPoller, ImapSettings
from .mail.sender import OutboxSender, transport_from_url
from .memory import SystemClock
from .ports import Clock, InboundStore, Stored
from .service.deadlines import next_wakeup, tick_all, tick_game
from .service.processor import process_pending
from .store.db import Database
from .store.mailbox import SqlInbound, SqlOutbox
from .store import repo

log = logging.getLogger("payjudge.daemon")


class DaemonError(RuntimeError):
    """The daemon cannot start (the message says why)."""


@dataclass
class _Notifying:
    """An InboundStore that wakes the processor when a new message is committed."""

    store: InboundStore
    wake: callable

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
    listen_port: int | None = None      # the port really bound (after start)

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
        cfg.data_dir.mkdir(parents=True, exist_ok=True)
        single = _one_daemon_per_sqlite_file(cfg.database_url)
        try:
            await self._serve(loop, stop)
        finally:
            if single is not None:
                single.close()

    async def _serve(self, loop: asyncio.AbstractEventLoop, stop: asyncio.Event) -> None:
        cfg = self.config
        self.db = db = self.db or Database(cfg.database_url)
        inbound_wake = asyncio.Event()

        def wake_processor() -> None:
            loop.call_soon_threadsafe(inbound_wake.set)

        inbound = _Notifying(SqlInbound(db, self.clock), wake_processor)
        outbox = SqlOutbox(db)
        sender = OutboxSender(outbox, transport_from_url(cfg.outbound_url), self.clock)
        tasks: list[asyncio.Task] = []
        server = None
        if cfg.listen is not None:
            host, port = cfg.listen
            server = await start_listener(inbound, host, port, local_domains=cfg.domains,
                                          local_addresses=(cfg.judge_address,),
                                          size_limit=cfg.max_message_bytes, hostname="payjudge")
            self.listen_port = server.sockets[0].getsockname()[1]
        if cfg.imap_url:
            poller = ImapPoller(inbound, ImapSettings.from_url(cfg.imap_url))
            tasks.append(asyncio.create_task(poller.run(stop), name="imap-poller"))
        tasks.append(asyncio.create_task(sender.run(stop, interval=5.0), name="outbox-sender"))
        scheduler = AsyncIOScheduler(timezone="UTC")

        async def processor() -> None:
            while not stop.is_set():
                inbound_wake.clear()
                try:
                    count = await asyncio.to_thread(process_pending, db, cfg, self.clock)
                except Exception:
                    log.exception("processing stored messages failed; retrying")
                    count = 0
                if count:
                    sender.wake()
                    await asyncio.to_thread(self._reschedule, scheduler)
                    continue
                try:
                    await asyncio.wait_for(inbound_wake.wait(), timeout=2.0)
                except asyncio.TimeoutError:
                    pass

        async def sweep() -> None:
            try:
                actions = await asyncio.to_thread(tick_all, db, cfg, self.clock.now())
            except Exception:
                log.exception("deadline sweep failed")
                return
            if actions:
                sender.wake()
            await asyncio.to_thread(self._reschedule, scheduler)

        async def deadline(game_id: int) -> None:
            try:
                action = await asyncio.to_thread(tick_game, db, cfg, game_id, self.clock.now())
            except Exception:
                log.exception("deadline job failed for game %s", game_id)
                return
            if action:
                sender.wake()
            await asyncio.to_thread(self._reschedule, scheduler)

        self._deadline_job = deadline
        scheduler.add_job(sweep, "interval", seconds=cfg.sweep_seconds, id="sweep",
                          misfire_grace_time=None, coalesce=True, max_instances=1)
        scheduler.start()
        await sweep()   # deadlines that passed while the daemon was down
        tasks.append(asyncio.create_task(processor(), name="processor"))
        log.info("payjudge serving (database %s, outbound %s)", _safe(cfg.database_url), cfg.outbound_url)
        try:
            await stop.wait()
        finally:
            scheduler.shutdown(wait=False)
            if server is not None:
                server.close()
                await server.wait_closed()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            outbox.close()
            db.dispose()

    def _reschedule(self, scheduler: AsyncIOScheduler) -> None:
        """One date job per active game at its next wake-up, rebuilt from the database."""
        settle = timedelta(seconds=self.config.settle_seconds)
        with self.db.transaction() as s:
            games = repo.games(s, ("active",))
            wanted = {g.id: next_wakeup(g, settle) for g in games}
        now = self.clock.now()
        for job in scheduler.get_jobs():
            if job.id.startswith("deadline:") and int(job.id.split(":")[1]) not in wanted:
                job.remove()
        for game_id, when in wanted.items():
            if when is None:
                continue
            scheduler.add_job(self._deadline_job, "date", run_date=max(when, now), args=[game_id],
                              id=f"deadline:{game_id}", replace_existing=True,
                              misfire_grace_time=None)


def _one_daemon_per_sqlite_file(url: str) -> IO | None:
    """Hold a lock file beside a SQLite database for the daemon's lifetime: a second
    daemon on the same file would send the same outbox mail (SqlOutbox relies on this)."""
    if not url.startswith("sqlite:///"):
        return None
    path = Path(url[len("sqlite:///"):].split("?", 1)[0] + ".daemon-lock")
    handle = open(path, "a+")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise DaemonError(f"another payjudge serve is already using {path.with_suffix('')}") from None
    return handle


def _safe(url: str) -> str:
    """A database URL without its password, for the log."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        creds, host = rest.rsplit("@", 1)
        return f"{scheme}://{creds.split(':')[0]}:***@{host}"
    return url


def serve(config: Config, argv: Sequence[str] = ()) -> None:
    logging.basicConfig(level=getattr(logging, config.log_level.upper(), logging.INFO),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("apscheduler").setLevel(logging.WARNING)
    logging.getLogger("mail.log").setLevel(logging.WARNING)
    try:
        asyncio.run(Daemon(config).run())
    except DaemonError as exc:
        log.error("%s", exc)
        raise SystemExit(1) from None
