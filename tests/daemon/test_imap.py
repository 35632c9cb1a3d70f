"""The daemon's IMAP poller against a real Dovecot: mail in the mailbox is answered and
archived in Processed; a message left there while the daemon was down is read at start."""

from __future__ import annotations

import pytest
from imapclient import IMAPClient

from .harness import make_mail, send_mail, wait_until

pytestmark = [pytest.mark.servers, pytest.mark.timeout(120)]


def _folders(account) -> dict[str, list[tuple[int, bytes, tuple]]]:
    """Each folder's messages as (uid, Message-ID header line, flags)."""
    out = {}
    with IMAPClient(account.host, account.port, ssl=False, timeout=10) as client:
        client.login(account.user, account.password)
        for folder in ("INBOX", "Processed"):
            if not client.folder_exists(folder):
                out[folder] = []
                continue
            client.select_folder(folder, readonly=True)
            uids = client.search(["ALL"])
            data = client.fetch(uids, ["BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)]", "FLAGS"]) if uids else {}
            # a message the daemon moves away between the SEARCH and the FETCH is not
            # fetched: it is no longer in this folder
            out[folder] = [
                (uid, data[uid][b"BODY[HEADER.FIELDS (MESSAGE-ID)]"].strip(), data[uid][b"FLAGS"])
                for uid in uids
                if uid in data
            ]
    return out


def test_mail_in_the_mailbox_is_answered_and_moved_to_processed(
    judges, smtp_sink, replies, imap_account, db_url
):
    early_id, early = make_mail("early@players.test", "HELP", "sent while the judge was down")
    imap_account.deliver(early)
    judge = judges(outbound=smtp_sink.url, db_url=db_url, imap_url=imap_account.url("INBOX"))
    judge.migrated()
    judge.start()
    # delivered before the start: found by the first scan
    assert "JOIN <game> <password>" in replies.reply_to(early_id, timeout=40).body
    msgid, raw = make_mail("imap@players.test", "LIST", "by imap")
    imap_account.deliver(raw)
    reply = replies.reply_to(msgid, timeout=40)
    assert reply.rcpt == ("imap@players.test",) and reply.subject == "Re: by imap"
    folders = wait_until(
        lambda: (f := _folders(imap_account)) and not f["INBOX"] and len(f["Processed"]) == 2 and f,
        20,
        "both messages moved to Processed",
    )
    assert all(b"\\Seen" in flags for _, _, flags in folders["Processed"])
    # the same message delivered again (a resend by the MTA): stored once, answered once
    imap_account.deliver(raw)
    wait_until(lambda: len(_folders(imap_account)["Processed"]) == 3, 20, "the copy archived")
    # the SMTP listener runs beside the poller; its reply comes after the copy's turn
    probe = send_mail(judge.port, "probe@players.test", "HELP")
    replies.reply_to(probe)
    assert len(replies.answering(msgid)) == 1
    assert len(replies.answering(early_id)) == 1
    assert judge.scalar("SELECT count(*) FROM inbound_message WHERE source = 'imap'") == 2
