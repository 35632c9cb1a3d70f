"""The SMTP listener: accepts mail for the judge and stores it raw, on the caller's loop.

A message is acknowledged with 250 only after `InboundStore.store_inbound` has committed
it (a duplicate is acknowledged too). Any failure of ours answers 451, a temporary
failure, so the sending MTA keeps the message and retries: we never bounce mail because
our database hiccuped, and we never show an exception to the client.

What clients may hold is bounded (aiosmtpd 1.4): a message's data by `size_limit`
(more is read and dropped, then answered 552), a line by 1,001 bytes and a command by
512, and a connection by `timeout`, counted from its last command, so a client that
stalls in the middle of DATA is cut off and what it sent is freed. aiosmtpd restarts
that count at every valid command, NOOP and RSET included, so a session also has a
deadline from its start (`session_seconds`) and a cap on the replies it is given
(`max_commands`: one per command, DATA two), each ending it with a 421. Since aiosmtpd
keeps the data as one object per line, a message of short lines takes several times its
size: the number of connections is bounded too, in all and per client network (a /24 of
IPv4, a /64 of IPv6, where one party usually holds every address), 421 beyond.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import socket
import ssl
from collections.abc import Iterable
from typing import AnyStr

from aiosmtpd.smtp import SMTP, Envelope, Session

from ..ports import InboundStore, Stored
from . import LOGGER_NAME

log = logging.getLogger(LOGGER_NAME)

ACCEPTED = "250 2.0.0 Message accepted"
TEMPORARY_FAILURE = "451 4.3.0 Temporary failure, please retry"
TOO_MANY = b"421 4.7.0 Too many connections, try again later\r\n"
SESSION_OVER = b"421 4.4.2 Session time limit reached, closing\r\n"
COMMANDS_OVER = b"421 4.7.0 Too many commands in one session, closing\r\n"
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


def client_network(host: str) -> str:
    """The network a client address is counted in: its /24 (IPv4) or /64 (IPv6); an
    IPv4 address mapped into IPv6 counts as IPv4. Anything else is its own network."""
    try:
        address = ipaddress.ip_address(host.partition("%")[0])
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    prefix = 24 if address.version == 4 else 64
    return str(ipaddress.ip_network(f"{address}/{prefix}", strict=False))


class _Connections:
    """Counts open connections, in all and per client network."""

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


def _ends_a_command(reply: str | bytes) -> bool:
    line = reply.encode() if isinstance(reply, str) else reply
    return line[3:4] != b"-" and not line.startswith(b"3")


class _BoundedSMTP(SMTP):
    """aiosmtpd's SMTP that turns a connection away (421) beyond the limits, and ends a
    session (421) at its deadline or after its last allowed command."""

    def __init__(self, *args, connections: _Connections, session_seconds: float, max_commands: int, **kwargs):
        super().__init__(*args, **kwargs)
        self._connections = connections
        self._session_seconds = session_seconds
        self._replies_left = max_commands + 1  # the greeting is a reply too
        self._network: str | None = None
        self._deadline: asyncio.TimerHandle | None = None
        self._refused = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if self._network is None and not self._refused:  # not the STARTTLS upgrade
            peer = transport.get_extra_info("peername")
            host = str(peer[0]) if isinstance(peer, tuple) else str(peer)
            network = client_network(host)
            if not self._connections.enter(network):
                self._refused = True
                log.warning("refused a connection from %s: too many connections (from %s)", host, network)
                if isinstance(transport, asyncio.WriteTransport):
                    transport.write(TOO_MANY)
                transport.close()
                return
            self._network = network
            self._deadline = self.loop.call_later(self._session_seconds, self._end, SESSION_OVER)
        super().connection_made(transport)

    def connection_lost(self, error: Exception | None) -> None:
        if self._refused:
            return
        network, self._network = self._network, None  # counted out once, even after STARTTLS
        if network is not None:
            self._connections.leave(network)
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        super().connection_lost(error)

    def _end(self, why: bytes) -> None:
        """Say 421 and close: the client's MTA keeps what it has not delivered and retries."""
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        log.warning(
            "ended the session of %s: %s",
            self.session.peer if self.session else "?",
            why[4:].decode().strip(),
        )
        if isinstance(transport, asyncio.WriteTransport):
            transport.write(why)
        transport.close()

    async def push(self, status: AnyStr) -> None:
        await super().push(status)
        # a reply's last line (not "250-…") that is not an intermediate 3xx (354, 334)
        # ends a command: every command, recognised or not, gets exactly one
        if _ends_a_command(status):
            self._replies_left -= 1
            if self._replies_left <= 0:
                self._end(COMMANDS_OVER)


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
    session_seconds: float = 600.0,
    max_commands: int = 1000,
    max_connections: int = 100,
    max_per_client: int = 10,
    tls_context: ssl.SSLContext | None = None,
) -> asyncio.Server:
    """Listen on host:port on the running loop; close the returned server to stop.

    Mail is accepted for any address in `local_addresses` and any address at one of
    `local_domains`; everything else gets 550 (we are not a relay). `port=0` picks a free
    port (read it from `server.sockets[0].getsockname()`). `tls_context` (a server
    context with its certificate loaded) offers STARTTLS. At most `max_connections` are
    served at once, `max_per_client` from one network (`client_network`); each ends
    `timeout` seconds after its last command, `session_seconds` after it began, or after
    `max_commands` commands, whichever comes first."""
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
            session_seconds=session_seconds,
            max_commands=max_commands,
        )

    server = await loop.create_server(factory, host, port)
    bound = ", ".join(str(s.getsockname()) for s in server.sockets)
    log.info(
        "SMTP listener on %s (limit %d bytes, %d connections, %d per client network, "
        "%g s idle, sessions of %g s and %d commands at most)",
        bound,
        size_limit,
        max_connections,
        max_per_client,
        timeout,
        session_seconds,
        max_commands,
    )
    return server
