"""The outbox sender: delivers due outbox mail through a transport, with retries.

Each claimed mail is sent on its own: a failure is recorded for that mail alone and the
batch goes on. A permanent refusal (an SMTP 5xx about this message) gives up at once; any
other failure is retried later with exponential backoff, until `max_attempts`. The raw
bytes already carry our own Message-ID, so a mail sent twice (sent, then the database
missed `mark_sent`) can be recognised by whoever receives it.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import smtplib
import socket
import ssl
import threading
import time
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Protocol
from urllib.parse import parse_qs, unquote, urlsplit

from ..ports import Clock, Outbox, OutgoingMail
from . import LOGGER_NAME, backoff_delay

log = logging.getLogger(LOGGER_NAME)


class DeliveryError(Exception):
    """A failed delivery; `permanent` means retrying cannot help."""

    def __init__(self, message: str, *, permanent: bool = False):
        super().__init__(message)
        self.permanent = permanent


class TransportUnavailable(DeliveryError):
    """The relay cannot be reached at all: no mail of this batch can go now."""


class Transport(Protocol):
    def send(self, mail: OutgoingMail) -> None:
        """Deliver one mail or raise (DeliveryError, or anything else = temporary)."""
        ...

    def close(self) -> None:
        """Release connections at the end of a batch."""
        ...


class SmtpTransport:
    """Relays through an SMTP server with smtplib; one connection per batch."""

    def __init__(
        self,
        host: str,
        port: int = 25,
        *,
        starttls: bool = False,
        ssl: bool = False,
        username: str | None = None,
        password: str | None = None,
        timeout: float = 30.0,
        ssl_context: ssl.SSLContext | None = None,
        local_hostname: str | None = None,
    ):
        self.host, self.port = host, port
        self.starttls, self.implicit_tls = starttls, ssl
        self.username, self.password = username, password
        self.timeout = timeout
        self.ssl_context = ssl_context
        self.local_hostname = local_hostname
        self._conn: smtplib.SMTP | None = None

    def __repr__(self) -> str:
        return f"SmtpTransport({self.host!r}, {self.port})"

    def _connect(self) -> smtplib.SMTP:
        context = self.ssl_context or _default_context()
        conn: smtplib.SMTP
        try:
            if self.implicit_tls:
                conn = smtplib.SMTP_SSL(
                    self.host,
                    self.port,
                    timeout=self.timeout,
                    context=context,
                    local_hostname=self.local_hostname,
                )
            else:
                conn = smtplib.SMTP(
                    self.host, self.port, timeout=self.timeout, local_hostname=self.local_hostname
                )
        except (OSError, smtplib.SMTPException) as exc:
            raise TransportUnavailable(
                f"cannot connect to {self.host}:{self.port}: {_describe(exc)}"
            ) from exc
        try:
            conn.ehlo()
            if self.starttls:
                conn.starttls(context=context)
                conn.ehlo()
            if self.username:
                conn.login(self.username, self.password or "")
        except (OSError, smtplib.SMTPException) as exc:
            _quit(conn)
            # a refused login or STARTTLS is our configuration, not the mail: keep retrying
            raise TransportUnavailable(f"{self.host}:{self.port}: {_describe(exc)}") from exc
        return conn

    def send(self, mail: OutgoingMail) -> None:
        for attempt in (1, 2):
            if self._conn is None:
                self._conn = self._connect()
            try:
                # an internationalised address needs the relay's SMTPUTF8 (RFC 6531)
                utf8 = not all(a.isascii() for a in (mail.sender, *mail.recipients))
                refused = self._conn.sendmail(
                    mail.sender, list(mail.recipients), mail.raw, mail_options=("SMTPUTF8",) if utf8 else ()
                )
            except smtplib.SMTPNotSupportedError as exc:
                self._reset()
                raise DeliveryError(_describe(exc), permanent=True) from exc
            except smtplib.SMTPServerDisconnected as exc:
                self._conn = None
                if attempt == 2:
                    raise DeliveryError(f"server disconnected: {_describe(exc)}") from exc
                continue  # a kept connection may have timed out: once more on a fresh one
            except smtplib.SMTPRecipientsRefused as exc:
                self._reset()
                codes = [code for code, _ in exc.recipients.values()]
                raise DeliveryError(
                    f"all recipients refused: {_describe(exc)}", permanent=all(500 <= c < 600 for c in codes)
                ) from exc
            except smtplib.SMTPResponseException as exc:  # MAIL FROM or DATA refused
                self._reset()
                raise DeliveryError(_describe(exc), permanent=500 <= exc.smtp_code < 600) from exc
            except (OSError, smtplib.SMTPException) as exc:
                self._drop()
                raise DeliveryError(_describe(exc)) from exc
            if refused:
                # The outbox cannot record a partial delivery; the service sends one mail
                # per recipient where that matters.
                log.warning("mail %s (%s): some recipients refused: %s", mail.id, mail.message_id, refused)
            return

    def _reset(self) -> None:
        try:
            if self._conn is not None:
                self._conn.rset()
        except (OSError, smtplib.SMTPException):
            self._drop()

    def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                conn.close()
            except OSError:
                pass

    def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            _quit(conn)


class MaildirTransport:
    """Writes each mail into a Maildir (tmp/, then renamed into new/): the default outbox
    for a judge without a relay, readable with any mail client or `mailbox.Maildir`."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        self._counter = 0
        self._lock = threading.Lock()
        self._host = socket.gethostname().replace("/", "\\057").replace(":", "\\072")

    def __repr__(self) -> str:
        return f"MaildirTransport({str(self.path)!r})"

    def send(self, mail: OutgoingMail) -> None:
        for sub in ("tmp", "new", "cur"):
            (self.path / sub).mkdir(parents=True, exist_ok=True)
        with self._lock:
            self._counter += 1
            counter = self._counter
        now = time.time()
        name = (
            f"{int(now)}.M{int(now % 1 * 1e6)}P{os.getpid()}Q{counter}"
            f"R{random.getrandbits(32):08x}.{self._host}"
        )
        tmp = self.path / "tmp" / name
        with open(tmp, "xb") as fh:
            fh.write(mail.raw)
            fh.flush()
            os.fsync(fh.fileno())
        os.rename(tmp, self.path / "new" / name)
        _fsync_dir(self.path / "new")

    def close(self) -> None:
        pass


def transport_from_url(url: str, *, timeout: float = 30.0) -> Transport:
    """`maildir:PATH`, or `smtp://[user:password@]host[:port][?starttls=1]`
    (`smtps://` for implicit TLS; user and password %-decoded)."""
    if url.startswith("maildir:"):
        path = url[len("maildir:") :]
        if path.startswith("//"):
            path = urlsplit(url).path
        if not path:
            raise ValueError("maildir: needs a path, e.g. maildir:/var/lib/payjudge/outbox")
        return MaildirTransport(unquote(path))
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        # (the URL is not quoted: it may hold the relay's password)
        scheme = f"{parts.scheme}://" if parts.scheme else "no scheme"
        raise ValueError(f"must be smtp://host:port, smtps://host:port or maildir:PATH, not {scheme}")
    query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
    implicit = parts.scheme == "smtps"
    return SmtpTransport(
        parts.hostname,
        parts.port or (465 if implicit else 25),
        starttls=query.get("starttls", "").lower() in ("1", "yes", "true"),
        ssl=implicit,
        username=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password else None,
        timeout=float(query.get("timeout", timeout)),
    )


@dataclass
class SendResult:
    sent: int = 0
    retrying: int = 0
    given_up: int = 0

    @property
    def total(self) -> int:
        return self.sent + self.retrying + self.given_up


@dataclass
class OutboxSender:
    outbox: Outbox
    transport: Transport
    clock: Clock
    batch_limit: int = 50
    retry_base: timedelta = timedelta(minutes=1)
    retry_max: timedelta = timedelta(hours=6)
    max_attempts: int = 15  # about three days with the defaults
    rng: random.Random = field(default_factory=random.Random)
    _wake: asyncio.Event | None = field(default=None, init=False, repr=False)
    _loop: asyncio.AbstractEventLoop | None = field(default=None, init=False, repr=False)

    def send_due(self, *, keep_open: bool = False) -> SendResult:
        """Send every due mail once (at most `batch_limit`); blocking, run it in a thread.
        With `keep_open` the transport's connection stays open for the next pass (`run`
        closes it once a pass finds nothing to send)."""
        result = SendResult()
        mails = self.outbox.claim_due(self.clock.now(), self.batch_limit)
        try:
            unavailable: TransportUnavailable | None = None
            for mail in mails:
                if unavailable is not None:
                    self._failed(mail, unavailable, result)
                    continue
                try:
                    self.transport.send(mail)
                except TransportUnavailable as exc:
                    unavailable = exc  # don't wait out a dead relay once per mail
                    self._failed(mail, exc, result)
                except Exception as exc:
                    self._failed(mail, exc, result)
                else:
                    self._sent(mail, result)
        finally:
            if not keep_open or unavailable is not None:
                self._close()
        if mails:
            log.info(
                "outbox: %d sent, %d to retry, %d given up", result.sent, result.retrying, result.given_up
            )
        return result

    def _close(self) -> None:
        try:
            self.transport.close()
        except Exception:
            log.exception("closing %r", self.transport)

    def _sent(self, mail: OutgoingMail, result: SendResult) -> None:
        result.sent += 1
        try:
            self.outbox.mark_sent(mail.id, self.clock.now())
        except Exception:
            # it went out; it will go out again, recognisable by its Message-ID
            log.exception("mail %s (%s) was sent but could not be marked sent", mail.id, mail.message_id)

    def _failed(self, mail: OutgoingMail, exc: Exception, result: SendResult) -> None:
        error = _describe(exc)
        permanent = isinstance(exc, DeliveryError) and exc.permanent
        now = self.clock.now()
        retry_at = None
        if not permanent and mail.attempts + 1 < self.max_attempts:
            delay = backoff_delay(
                mail.attempts, self.retry_base.total_seconds(), self.retry_max.total_seconds(), self.rng
            )
            retry_at = now + timedelta(seconds=delay)
        if retry_at is None:
            result.given_up += 1
            log.error(
                "mail %s (%s) to %s given up after %d attempts: %s",
                mail.id,
                mail.message_id,
                ", ".join(mail.recipients),
                mail.attempts + 1,
                error,
            )
        else:
            result.retrying += 1
            log.warning(
                "mail %s (%s) to %s failed (attempt %d), retry at %s: %s",
                mail.id,
                mail.message_id,
                ", ".join(mail.recipients),
                mail.attempts + 1,
                retry_at.isoformat(timespec="seconds"),
                error,
            )
        try:
            self.outbox.mark_failed(mail.id, now, error, retry_at)
        except Exception:
            log.exception("mail %s (%s): could not record the failure", mail.id, mail.message_id)

    def wake(self) -> None:
        """Send now instead of at the next interval; callable from any thread."""
        loop, event = self._loop, self._wake
        if loop is None or event is None:
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            event.set()
        else:
            loop.call_soon_threadsafe(event.set)

    async def run(self, stop_event: asyncio.Event, interval: float = 5.0) -> None:
        """Send due mail every `interval` seconds (or at once after `wake()`) until stopped.
        Passes that follow each other keep one connection to the relay (under load a
        pass follows every batch of processed messages); a pass that finds nothing to
        send closes it."""
        self._loop, self._wake = asyncio.get_running_loop(), asyncio.Event()
        try:
            while not stop_event.is_set():
                self._wake.clear()
                try:
                    result = await asyncio.to_thread(self.send_due, keep_open=True)
                except Exception:
                    log.exception("outbox sender pass failed")
                    result = SendResult()
                if result.total >= self.batch_limit:
                    continue  # more may be waiting
                if result.total == 0:
                    await asyncio.to_thread(self._close)
                stop_wait = asyncio.ensure_future(stop_event.wait())
                wake_wait = asyncio.ensure_future(self._wake.wait())
                try:
                    await asyncio.wait(
                        {stop_wait, wake_wait}, timeout=interval, return_when=asyncio.FIRST_COMPLETED
                    )
                finally:
                    stop_wait.cancel()
                    wake_wait.cancel()
        finally:
            self._loop = self._wake = None
            await asyncio.to_thread(self._close)


def _describe(exc: BaseException) -> str:
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        return "; ".join(f"{rcpt}: {code} {_text(msg)}" for rcpt, (code, msg) in exc.recipients.items())
    if isinstance(exc, smtplib.SMTPResponseException):
        return f"{exc.smtp_code} {_text(exc.smtp_error)}"
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _text(value: bytes | str) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _quit(conn: smtplib.SMTP) -> None:
    try:
        conn.quit()
    except (OSError, smtplib.SMTPException):
        try:
            conn.close()
        except OSError:
            pass


def _default_context() -> ssl.SSLContext:
    return ssl.create_default_context()


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
