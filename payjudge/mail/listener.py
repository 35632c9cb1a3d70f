"""The SMTP listener: accepts mail for the judge and stores it raw, on the caller's loop.

A message is acknowledged with 250 only after `InboundStore.store_inbound` has committed
it (a duplicate is acknowledged too). Any failure of ours answers 451, a temporary
failure, so the sending MTA keeps the message and retries: we never bounce mail because
our database hiccuped, and we never show an exception to the client.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import ssl
from typing import Iterable

from aiosmtpd.smtp import SMTP, Envelope, Session

from ..ports import InboundStore, Stored
from . import LOGGER_NAME

log = logging.getLogger(LOGGER_NAME)

ACCEPTED = "250 2.0.0 Message accepted"
TEMPORARY_FAILURE = "451 4.3.0 Temporary failure, please retry"
NO_SUCH_USER = "550 5.1.1 No such user here (not a relay)"


class InboundHandler:
    """The aiosmtpd handler: refuses foreign recipients, stores what it accepts."""

    def __init__(self, store: InboundStore, *, local_domains: Iterable[str] = (),
                 local_addresses: Iterable[str] = ()):
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

    async def handle_RCPT(self, server: SMTP, session: Session, envelope: Envelope,
                          address: str, rcpt_options: list[str]) -> str:
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
                self.store.store_inbound, raw, source="smtp",
                envelope_from=mail_from, envelope_to=tuple(envelope.rcpt_tos))
        except Exception:
            log.exception("could not store a %d-byte message from %s (envelope from %r); answered 451",
                          len(raw), session.peer, envelope.mail_from)
            return TEMPORARY_FAILURE
        if outcome is Stored.DUPLICATE:
            log.info("duplicate message from %s (envelope from %r) acknowledged",
                     session.peer, envelope.mail_from)
        else:
            log.info("stored a %d-byte message from %s (envelope from %r)",
                     len(raw), session.peer, envelope.mail_from)
        return ACCEPTED


async def start_listener(store: InboundStore, host: str, port: int, *,
                         local_domains: Iterable[str] = (), local_addresses: Iterable[str] = (),
                         size_limit: int = 1_000_000, hostname: str | None = None,
                         timeout: float = 300.0,
                         tls_context: ssl.SSLContext | None = None) -> asyncio.AbstractServer:
    """Listen on host:port on the running loop; close the returned server to stop.

    Mail is accepted for any address in `local_addresses` and any address at one of
    `local_domains`; everything else gets 550 (we are not a relay). `port=0` picks a free
    port (read it from `server.sockets[0].getsockname()`). `tls_context` (a server
    context with its certificate loaded) offers STARTTLS."""
    loop = asyncio.get_running_loop()
    handler = InboundHandler(store, local_domains=local_domains, local_addresses=local_addresses)
    # aiosmtpd would otherwise call getfqdn() (DNS, blocking) for every connection
    name = hostname or await asyncio.to_thread(socket.getfqdn)

    def factory() -> SMTP:
        return SMTP(handler, hostname=name, data_size_limit=size_limit, enable_SMTPUTF8=True,
                    timeout=timeout, tls_context=tls_context, loop=loop)

    server = await loop.create_server(factory, host, port)
    bound = ", ".join(str(s.getsockname()) for s in server.sockets)
    log.info("SMTP listener on %s (limit %d bytes)", bound, size_limit)
    return server
