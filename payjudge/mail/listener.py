"""The SMTP listener: accepts mail for the judge and stores it raw, on the caller's loop.

A message is acknowledged with 250 only after `InboundStore.store_inbound` has committed
it (a duplicate is acknowledged too). Any failure of ours answers 451, a temporary
failure, so the sending MTA keeps the message and retries: we never bounce mail because
our database hiccuped, and we never show an exception to the client.

What clients may hold is bounded (aiosmtpd 1.4): a message's data by `size_limit`
(more is read and dropped, then answered 552), a line by 1,001 bytes and a command by
512, and a connection by `timeout`, counted from its last command, so a client that
stalls in the middle of DATA is cut off and what it sent is freed. Since aiosmtpd keeps
the data as one object per line, a message of short lines takes several times its size:
the number of connections is bounded too, in all and per client address (421 beyond).
"""

from __future__ import annotations

import asyncio
import logging
import socket
import ssl
from collections.abc import Iterable

from aiosmtpd.smtp import SMTP, Envelope, Session

from ..ports import InboundStore, Stored
from . import LOGGER_NAME

log = logging.getLogger(LOGGER_NAME)

ACCEPTED = "250 2.0.0 Message accepted"
TEMPORARY_FAILURE = "451 4.3.0 Temporary failure, please retry"
TOO_MANY = b"421 4.7.0 Too many connections, try again later\r\n"
NO_SUCH_USER = "550 5.1.1 No such user here (not a relay)"


class InboundHandler:
    """The aiosmtpd handler: refuses foreign recipients, stores what it accepts."""

    def __init__(
        self, store: InboundStore, *, local_domains: Iterable[str] = (), local_addresses: Iterable[str] = ()
    ):
        self.store = store
        self.local_domains = frozenset(d.lower().strip().lstrip("@") for d in local_domains)
        self.local_addresses = frozenset(a.lower().strip() for a in local_addresses)
        if not self.local_domains and not self.local_addresses:
            raise ValueError("the listener needs local domains or local addresses to accept mail for")

    def is_local(self, address: str) -> bool:
        address = address.lower()
        local, at, domain = address.rpartition("@")
        if not at or not local:
            return False
        return address in self.local_addresses or domain in self.local_domains

    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, rcpt_options: list[str]
    ) -> str:
        if not self.is_local(address):
            log.info("refused recipient %s from %s", address, session.peer)
            return NO_SUCH_USER
        envelope.rcpt_tos.append(address)
        envelope.rcpt_options.extend(rcpt_options)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or b""
        # aiosmtpd reports the null sender of a bounce as "<>"; we store it as ""
        mail_from = "" if envelope.mail_from in (None, "", "<>") else envelope.mail_from
        try:
            outcome = await asyncio.to_thread(
                self.store.store_inbound,
                raw,
                source="smtp",
                envelope_from=mail_from,
                envelope_to=tuple(envelope.rcpt_tos),
            )
        except Exception:
            log.exception(
                "could not store a %d-byte message from %s (envelope from %r); answered 451",
                len(raw),
                session.peer,
                envelope.mail_from,
            )
            return TEMPORARY_FAILURE
        if outcome is Stored.DUPLICATE:
            log.info(
                "duplicate message from %s (envelope from %r) acknowledged", session.peer, envelope.mail_from
            )
        else:
            log.info(
                "stored a %d-byte message from %s (envelope from %r)",
                len(raw),
                session.peer,
                envelope.mail_from,
            )
        return ACCEPTED


class _Connections:
    """Counts open connections, in all and per client address."""

    def __init__(self, limit: int, per_client: int):
        self.limit, self.per_client = limit, per_client
        self.total = 0
        self.by_host: dict[str, int] = {}

    def enter(self, host: str) -> bool:
        if self.total >= self.limit or self.by_host.get(host, 0) >= self.per_client:
            return False
        self.total += 1
        self.by_host[host] = self.by_host.get(host, 0) + 1
        return True

    def leave(self, host: str) -> None:
        self.total -= 1
        left = self.by_host.get(host, 1) - 1
        if left:
            self.by_host[host] = left
        else:
            self.by_host.pop(host, None)


class _BoundedSMTP(SMTP):
    """aiosmtpd's SMTP that turns a connection away (421) beyond the limits."""

    def __init__(self, *args, connections: _Connections, **kwargs):
        super().__init__(*args, **kwargs)
        self._connections = connections
        self._host: str | None = None
        self._refused = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if self._host is None and not self._refused:  # not the STARTTLS upgrade
            peer = transport.get_extra_info("peername")
            host = str(peer[0]) if isinstance(peer, tuple) else str(peer)
            if not self._connections.enter(host):
                self._refused = True
                log.warning("refused a connection from %s: too many connections", host)
                if isinstance(transport, asyncio.WriteTransport):
                    transport.write(TOO_MANY)
                transport.close()
                return
            self._host = host
        super().connection_made(transport)

    def connection_lost(self, error: Exception | None) -> None:
        if self._refused:
            return
        host, self._host = self._host, None  # counted out once, even after STARTTLS
        if host is not None:
            self._connections.leave(host)
        super().connection_lost(error)


async def start_listener(
    store: InboundStore,
    host: str,
    port: int,
    *,
    local_domains: Iterable[str] = (),
    local_addresses: Iterable[str] = (),
    size_limit: int = 1_000_000,
    hostname: str | None = None,
    timeout: float = 300.0,
    max_connections: int = 100,
    max_per_client: int = 10,
    tls_context: ssl.SSLContext | None = None,
) -> asyncio.Server:
    """Listen on host:port on the running loop; close the returned server to stop.

    Mail is accepted for any address in `local_addresses` and any address at one of
    `local_domains`; everything else gets 550 (we are not a relay). `port=0` picks a free
    port (read it from `server.sockets[0].getsockname()`). `tls_context` (a server
    context with its certificate loaded) offers STARTTLS. At most `max_connections` are
    served at once, `max_per_client` from one address; each ends `timeout` seconds after
    its last command."""
    loop = asyncio.get_running_loop()
    handler = InboundHandler(store, local_domains=local_domains, local_addresses=local_addresses)
    # aiosmtpd would otherwise call getfqdn() (DNS, blocking) for every connection
    name = hostname or await asyncio.to_thread(socket.getfqdn)
    connections = _Connections(max_connections, max_per_client)

    def factory() -> SMTP:
        return _BoundedSMTP(
            handler,
            hostname=name,
            data_size_limit=size_limit,
            enable_SMTPUTF8=True,
            timeout=timeout,
            tls_context=tls_context,
            loop=loop,
            connections=connections,
        )

    server = await loop.create_server(factory, host, port)
    bound = ", ".join(str(s.getsockname()) for s in server.sockets)
    log.info(
        "SMTP listener on %s (limit %d bytes, %d connections, %d per client, %g s idle)",
        bound,
        size_limit,
        max_connections,
        max_per_client,
        timeout,
    )
    return server
