"""`payjudge outbox show`: the judge's outgoing mail as a person reads it, decoded (headers,
then the text, never quoted-printable or base64), whatever the transport sends it by."""

from __future__ import annotations

from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import EmailMessage

from ..store import repo
from ..store.db import Database

HEADERS = ("From", "To", "Date", "Subject", "Message-ID", "In-Reply-To")


@dataclass(frozen=True)
class ShownMail:
    """One outgoing mail, decoded."""

    id: int
    state: str
    headers: tuple[tuple[str, str], ...]
    text: str
    attachments: tuple[str, ...]

    def render(self) -> str:
        head = "".join(f"{name}: {value}\n" for name, value in self.headers)
        files = "".join(f"[attached: {name}]\n" for name in self.attachments)
        return f"{head}\n{self.text.rstrip()}\n" + (f"\n{files}" if files else "")


def decode(id: int, state: str, raw: bytes) -> ShownMail:
    msg = message_from_bytes(raw, policy=policy.default)
    assert isinstance(msg, EmailMessage)
    headers = tuple((name, str(msg[name])) for name in HEADERS if msg[name] is not None)
    body = msg.get_body(("plain",))
    text = body.get_content() if body is not None else ""
    attachments = tuple(part.get_filename() or part.get_content_type() for part in msg.iter_attachments())
    return ShownMail(id, state, headers, text.replace("\r\n", "\n"), attachments)


def newest_mails(db: Database, *, count: int = 1, recipient: str | None = None) -> list[ShownMail]:
    """The `count` newest outgoing mails (to `recipient`, if given), newest first."""
    with db.transaction() as s:
        return [
            decode(m.id, str(m.state), m.raw) for m in repo.outbox_mails(s, newest=count, recipient=recipient)
        ]
