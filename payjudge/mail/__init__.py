"""The mail adapters: the SMTP listener, the IMAP poller and the outbox sender.

Only this package imports aiosmtpd, imapclient and smtplib. The inbound adapters only
store raw messages through an `InboundStore`; the sender only moves `Outbox` rows.

- `payjudge.mail.listener.start_listener`: SMTP in, on the daemon's own asyncio loop.
- `payjudge.mail.poller.ImapPoller`: IMAP in (IDLE or polling), in a worker thread.
- `payjudge.mail.sender.OutboxSender`: outbox out, over SMTP or into a Maildir.
"""

from __future__ import annotations

import random

LOGGER_NAME = "payjudge.mail"


def backoff_delay(attempt: int, base: float, cap: float, rng: random.Random | None = None) -> float:
    """Exponential backoff with jitter: between half and all of min(cap, base * 2**attempt)."""
    ceiling = min(cap, base * (2 ** min(attempt, 62)))
    return (rng or random).uniform(ceiling / 2, ceiling)
