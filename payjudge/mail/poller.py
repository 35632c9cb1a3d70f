"""The IMAP poller: copies new mail from a mailbox into the inbound store.

Every message left in the mailbox is a message to store (the mailbox is the judge's
queue; `Processed` is its archive). Each one is fetched with BODY.PEEK[] (so it stays
unseen), stored under the key `mailbox:UIDVALIDITY:UID`, and only after the store has
committed is it flagged \\Seen and moved to the processed folder. A crash between the
commit and the move leaves a message the store already knows: it is moved without being
fetched again. A message the store refuses stays unseen and is tried again next poll.

IMAPClient is synchronous: `poll_once` runs in the caller's thread and `run` drives it
from asyncio through `asyncio.to_thread`. The server's IDLE wakes the loop when it is
advertised; otherwise it polls every `poll_interval` seconds.

A refused login (a wrong password) is not an outage that passes: it is logged at ERROR
naming the account (`user@host:port`, never the password) and retried every
`login_retry` seconds. What the poller last managed (its last login, the last time its
connection was seen working, the failure it is in) is a `PollerStatus`, handed to
`report` at each change, so the daemon can publish it for `payjudge health`.
"""

from __future__ import annotations

import asyncio
import logging
import random
import socket
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from ssl import SSLContext  # (the settings have a field named `ssl`)
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientAbortError, IMAPClientError, LoginError

from ..ports import InboundStore, Stored
from . import LOGGER_NAME, backoff_delay

log = logging.getLogger(LOGGER_NAME)

# What makes the poller drop its connection and reconnect (with backoff).
CONNECTION_ERRORS = (IMAPClientAbortError, IMAPClientError, OSError, EOFError)
SEEN = b"\\Seen"
DELETED = b"\\Deleted"


@dataclass(frozen=True)
class ImapSettings:
    host: str
    user: str
    password: str = field(repr=False)
    port: int | None = None  # default: 993 with ssl, else 143
    mailbox: str = "INBOX"
    processed_folder: str = "Processed"
    ssl: bool = False  # implicit TLS (imaps, port 993)
    starttls: bool = False  # STARTTLS on a plain connection
    ssl_context: SSLContext | None = field(default=None, repr=False, compare=False)
    timeout: float = 30.0  # every socket operation
    idle_timeout: float = 300.0  # re-issue IDLE (and re-scan) at least this often
    idle_slice: float = 1.0  # how often an IDLE wait checks for a stop request
    poll_interval: float = 60.0  # without IDLE
    use_idle: bool = True
    use_move: bool = True  # MOVE when advertised; else COPY + \\Deleted + EXPUNGE
    backoff_base: float = 1.0
    backoff_max: float = 300.0
    login_retry: float = 60.0  # after the server refused the login (the password may be mended)
    fetch_batch: int = 20

    @property
    def account(self) -> str:
        """`user@host:port`: how a log line or a health check names the mailbox's account."""
        port = self.port or (993 if self.ssl else 143)
        return f"{self.user}@{self.host}:{port}"

    @classmethod
    def from_url(cls, url: str, **overrides: Any) -> ImapSettings:
        """`imap://user:password@host[:port][/MAILBOX][?processed=FOLDER&starttls=1]`,
        or `imaps://…` for implicit TLS. User and password are %-decoded."""
        parts = urlsplit(url)
        if parts.scheme not in ("imap", "imaps"):
            raise ValueError(f"not an IMAP URL: {parts.scheme}://…")
        if not parts.hostname or parts.username is None:
            raise ValueError("an IMAP URL needs a user and a host: imap://user:password@host/INBOX")
        query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        values: dict[str, Any] = {
            "host": parts.hostname,
            "port": parts.port,
            "user": unquote(parts.username),
            "password": unquote(parts.password or ""),
            "ssl": parts.scheme == "imaps",
            "starttls": query.get("starttls", "").lower() in ("1", "yes", "true"),
        }
        mailbox = unquote(parts.path.lstrip("/"))
        if mailbox:
            values["mailbox"] = mailbox
        if query.get("processed"):
            values["processed_folder"] = query["processed"]
        values.update(overrides)
        return cls(**values)


class LoginRefused(Exception):
    """The IMAP server refused the login: a wrong user or password, not an outage. The
    message names the account and what the server said, never the password."""


@dataclass(frozen=True)
class PollerStatus:
    """What the poller last managed, for a health check (times in UTC)."""

    account: str  # user@host:port
    started_at: datetime
    logged_in_at: datetime | None = None  # its last successful login
    alive_at: datetime | None = None  # the last time its connection was seen working
    failure: str | None = None  # while failing: what went wrong last (one line)
    refused: bool = False  # the failure is a refused login


@dataclass
class PollResult:
    stored: int = 0
    duplicates: int = 0
    already_known: int = 0  # stored before; only the move was missing
    failed: int = 0  # left unseen for the next poll

    def __iadd__(self, other: PollResult) -> PollResult:
        self.stored += other.stored
        self.duplicates += other.duplicates
        self.already_known += other.already_known
        self.failed += other.failed
        return self


class ImapPoller:
    def __init__(
        self,
        store: InboundStore,
        settings: ImapSettings,
        *,
        rng: random.Random | None = None,
        report: Callable[[PollerStatus], None] | None = None,
    ):
        self.store = store
        self.settings = settings
        self.rng = rng or random.Random()
        self.status = PollerStatus(settings.account, _now())
        self.report = report  # told every new `status` (from the poller's threads)
        self._client: IMAPClient | None = None
        self._uidvalidity: int | None = None
        self._stopping = threading.Event()
        self.idling = False  # inside IDLE, waiting for the server (for health checks and tests)
        self._lock = threading.Lock()  # one IMAP conversation at a time

    # -- connection -------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        return self._client is not None

    def _connect(self) -> IMAPClient:
        s = self.settings
        context = s.ssl_context or (ssl.create_default_context() if (s.ssl or s.starttls) else None)
        client = IMAPClient(
            s.host, port=s.port, ssl=s.ssl, ssl_context=context if s.ssl else None, timeout=s.timeout
        )
        try:
            if s.starttls:
                client.starttls(context)
            try:
                client.login(s.user, s.password)
            except LoginError as exc:
                said = _server_words(exc).replace(s.password, "***") if s.password else _server_words(exc)
                if "[UNAVAILABLE]" in said.upper():  # RFC 5530: its password store is down, for now
                    raise IMAPClientError(f"the IMAP server cannot log {s.account} in now: {said}") from None
                raise LoginRefused(f"the IMAP server refused the login of {s.account}: {said}") from None
            self._update(logged_in_at=_now())
            if not client.folder_exists(s.processed_folder):
                try:
                    client.create_folder(s.processed_folder)
                except IMAPClientError:
                    # another poller may have created it in the meantime
                    if not client.folder_exists(s.processed_folder):
                        raise
            selected = client.select_folder(s.mailbox)
        except BaseException:
            _close_quietly(client)
            raise
        uidvalidity = int(selected[b"UIDVALIDITY"])
        if self._uidvalidity is not None and uidvalidity != self._uidvalidity:
            log.warning(
                "UIDVALIDITY of %s changed from %s to %s; Message-IDs will catch duplicates",
                s.mailbox,
                self._uidvalidity,
                uidvalidity,
            )
        self._uidvalidity = uidvalidity
        self._client = client
        log.info(
            "IMAP connected to %s:%s as %s, %s UIDVALIDITY %s",
            s.host,
            client.port,
            s.user,
            s.mailbox,
            uidvalidity,
        )
        return client

    def _drop(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            _close_quietly(client)

    def close(self) -> None:
        """Log out (best effort)."""
        with self._lock:
            client, self._client = self._client, None
            if client is not None:
                try:
                    client.logout()
                except Exception:
                    _close_quietly(client)

    # -- one pass ---------------------------------------------------------------------

    def poll_once(self) -> PollResult:
        """Store every message in the mailbox once. Connects if needed. On a connection
        failure the connection is dropped and the error raised (the next call reconnects)."""
        with self._lock:
            try:
                client = self._client or self._connect()
                result = self._poll(client)
            except CONNECTION_ERRORS:
                self._drop()
                raise
            self._alive()
            return result

    def _update(self, **changes: Any) -> None:
        self.status = replace(self.status, **changes)
        if self.report is not None:
            try:
                self.report(self.status)
            except Exception:  # a health file that cannot be written never stops the mail
                log.exception("could not publish the IMAP poller's status")

    def _alive(self) -> None:
        """The connection was seen working: no failure now."""
        self._update(alive_at=_now(), failure=None, refused=False)

    def _poll(self, client: IMAPClient) -> PollResult:
        s = self.settings
        result = PollResult()
        # A selected mailbox only learns of new mail at a sync point; SEARCH is not one
        # (Dovecot syncs after answering it), NOOP is.
        client.noop()
        uids = sorted(client.search(["NOT", "DELETED"]))
        for start in range(0, len(uids), s.fetch_batch):
            batch = uids[start : start + s.fetch_batch]
            to_fetch = []
            for uid in batch:
                key = self._key(uid)
                try:
                    known = self.store.has_source_key(key)
                except Exception:
                    log.exception("cannot check %s in the store; left for the next poll", key)
                    result.failed += 1
                    continue
                if known:
                    result.already_known += 1
                    self._archive(client, uid)
                else:
                    to_fetch.append(uid)
            if to_fetch:
                fetched = client.fetch(to_fetch, ["BODY.PEEK[]"])
                for uid in to_fetch:
                    data = fetched.get(uid)
                    if data is None or b"BODY[]" not in data:
                        continue  # expunged meanwhile by someone else
                    result += self._store(client, uid, data[b"BODY[]"])
        if uids:
            log.info("IMAP poll of %s: %s", s.mailbox, result)
        return result

    def _key(self, uid: int) -> str:
        return f"{self.settings.mailbox}:{self._uidvalidity}:{uid}"

    def _store(self, client: IMAPClient, uid: int, raw: bytes) -> PollResult:
        key = self._key(uid)
        try:
            outcome = self.store.store_inbound(bytes(raw), source="imap", source_key=key)
        except Exception:
            log.exception("could not store IMAP message %s; left unseen for the next poll", key)
            return PollResult(failed=1)
        self._archive(client, uid)
        if outcome is Stored.DUPLICATE:
            log.info("IMAP message %s was a duplicate", key)
            return PollResult(duplicates=1)
        return PollResult(stored=1)

    def _archive(self, client: IMAPClient, uid: int) -> None:
        """Flag \\Seen and move to the processed folder; only after the store committed."""
        folder = self.settings.processed_folder
        try:
            client.add_flags([uid], [SEEN], silent=True)
            if self.settings.use_move and client.has_capability("MOVE"):
                client.move([uid], folder)
            else:
                client.copy([uid], folder)
                client.add_flags([uid], [DELETED], silent=True)
                if client.has_capability("UIDPLUS"):
                    client.uid_expunge([uid])
                else:
                    client.expunge()
        except IMAPClientAbortError:
            raise
        except IMAPClientError:
            # stored already: the next poll finds the key and retries the move
            log.exception("could not move IMAP message %s to %s", self._key(uid), folder)

    # -- waiting for mail ---------------------------------------------------------------

    def wait_for_mail(self) -> bool:
        """Block until the server reports new mail, the IDLE period ends, or `stop()`.
        Returns False when IDLE is not available (the caller then sleeps instead)."""
        s = self.settings
        with self._lock:
            client = self._client
            if client is None or not s.use_idle or not client.has_capability("IDLE"):
                return False
            try:
                client.idle()
                self.idling = True
                try:
                    deadline = time.monotonic() + s.idle_timeout
                    while not self._stopping.is_set():
                        remaining = deadline - time.monotonic()
                        if remaining <= 0:
                            break
                        wait = min(s.idle_slice, remaining)
                        started = time.monotonic()
                        responses = client.idle_check(timeout=wait)
                        if any(_is_new_mail(r) for r in responses):
                            break
                        if not responses and time.monotonic() - started < wait / 2:
                            # readable but nothing parsed: the server closed the connection
                            break
                finally:
                    self.idling = False
                    client.idle_done()
            except CONNECTION_ERRORS:
                self._drop()
                raise
            self._alive()
            return True

    def stop(self) -> None:
        self._stopping.set()

    async def run(self, stop_event: asyncio.Event) -> None:
        """Poll until `stop_event` is set; reconnect with backoff on any failure."""
        self._stopping.clear()
        relay = asyncio.create_task(self._relay_stop(stop_event))
        failures = 0  # consecutive connection failures
        store_failures = 0  # consecutive polls that left messages behind
        try:
            while not stop_event.is_set():
                try:
                    result = await asyncio.to_thread(self.poll_once)
                    failures = 0
                    if stop_event.is_set():
                        break
                    if result.failed:
                        # the store is failing: retry soon rather than at the next new mail
                        store_failures += 1
                        await _sleep_until(
                            stop_event,
                            backoff_delay(
                                store_failures - 1,
                                self.settings.backoff_base,
                                min(self.settings.backoff_max, self.settings.poll_interval),
                                self.rng,
                            ),
                        )
                        continue
                    store_failures = 0
                    if not await asyncio.to_thread(self.wait_for_mail):
                        await _sleep_until(stop_event, self.settings.poll_interval)
                except LoginRefused as exc:
                    # not a passing outage: it lasts until someone mends the password
                    delay = self.settings.login_retry
                    log.error("%s; trying again in %.0f s", exc, delay)
                    self._update(failure=str(exc), refused=True)
                    self._drop()
                    await _sleep_until(stop_event, delay)
                except Exception as exc:
                    delay = backoff_delay(
                        failures, self.settings.backoff_base, self.settings.backoff_max, self.rng
                    )
                    failures += 1
                    level = logging.WARNING if isinstance(exc, CONNECTION_ERRORS) else logging.ERROR
                    log.log(
                        level,
                        "IMAP poller of %s failed (%s: %s); reconnecting in %.1f s",
                        self.settings.account,
                        type(exc).__name__,
                        exc,
                        delay,
                        exc_info=not isinstance(exc, CONNECTION_ERRORS),
                    )
                    self._update(failure=" ".join(f"{type(exc).__name__}: {exc}".split()), refused=False)
                    self._drop()
                    await _sleep_until(stop_event, delay)
        finally:
            relay.cancel()
            await asyncio.to_thread(self.close)

    async def _relay_stop(self, stop_event: asyncio.Event) -> None:
        await stop_event.wait()
        self._stopping.set()


def _now() -> datetime:
    return datetime.now(UTC)


def _server_words(exc: Exception) -> str:
    """What the server answered, as text (IMAPClient gives the repr of its bytes)."""
    text = str(exc)
    if text.startswith(("b'", 'b"')) and text.endswith(text[1]):
        text = text[2:-1]
    return " ".join(text.split()) or type(exc).__name__


def _is_new_mail(response: Any) -> bool:
    return isinstance(response, tuple) and len(response) >= 2 and response[1] in (b"EXISTS", b"RECENT")


def _close_quietly(client: IMAPClient) -> None:
    try:
        client.shutdown()
    except Exception:
        try:
            sock = client.socket()
            sock.shutdown(socket.SHUT_RDWR)
            sock.close()
        except Exception:
            pass


async def _sleep_until(stop_event: asyncio.Event, seconds: float) -> None:
    try:
        await asyncio.wait_for(stop_event.wait(), timeout=seconds)
    except TimeoutError:
        pass
