"""The real-server fixtures of tests/servers.py work as the other tests expect."""

from __future__ import annotations

import os
import smtplib

import pytest
from imapclient import IMAPClient
from sqlalchemy import create_engine, text

from tests.servers import drop_database, fresh_database

pytestmark = [pytest.mark.servers, pytest.mark.timeout(120)]


def test_pg_url_is_a_postgresql_15_database(pg_url):
    engine = create_engine(pg_url)
    try:
        with engine.connect() as conn:
            assert conn.scalar(text("show server_version_num")).startswith("15")
            assert conn.scalar(text("select current_database()")) == "payjudge"
    finally:
        engine.dispose()


def test_fresh_databases_are_separate(pg_url, pg_module_url):
    other = fresh_database(pg_url)
    assert other != pg_module_url
    engines = [create_engine(url) for url in (pg_module_url, other)]
    try:
        with engines[0].begin() as conn:
            conn.execute(text("create table t (x int)"))
        with engines[1].connect() as conn:
            assert conn.scalar(text("select to_regclass('t')")) is None
    finally:
        for engine in engines:
            engine.dispose()
        drop_database(other)


def test_the_servers_do_not_run_as_root(pg_url, dovecot):
    if os.geteuid() != 0:
        pytest.skip("only meaningful when the tests run as root")
    assert os.stat(f"/proc/{dovecot.proc.pid}").st_uid != 0


def test_imap_server_delivers_into_the_inbox(imap_server):
    imap_server.deliver(b"From: a@example.org\r\nSubject: fixture\r\n\r\nhello\r\n")
    with IMAPClient(imap_server.host, port=imap_server.port, ssl=False, timeout=10) as client:
        client.login(imap_server.user, imap_server.password)
        client.select_folder("INBOX", readonly=True)
        uids = client.search(["SUBJECT", "fixture"])
        assert uids
        body = client.fetch(uids[-1:], ["BODY.PEEK[]"])[uids[-1]][b"BODY[]"]
    assert body.endswith(b"hello\r\n")


def test_smtp_sink_collects_and_refuses(smtp_sink):
    with smtplib.SMTP(smtp_sink.host, smtp_sink.port, timeout=10) as client:
        client.sendmail("a@example.org", ["b@example.org"], b"Subject: one\r\n\r\nx\r\n")
        smtp_sink.refuse_data("451 4.3.0 later")
        with pytest.raises(smtplib.SMTPDataError):
            client.sendmail("a@example.org", ["b@example.org"], b"Subject: two\r\n\r\nx\r\n")
    [received] = smtp_sink.wait_for(1)
    assert received.data == b"Subject: one\r\n\r\nx\r\n" and received.rcpt_tos == ["b@example.org"]
