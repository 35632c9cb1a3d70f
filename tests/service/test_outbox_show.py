"""`payjudge outbox show`: the judge's outgoing mail printed decoded (issue 28, item 4)."""

from __future__ import annotations

from click.testing import CliRunner

from payjudge.cli import main
from payjudge.store.db import Database
from tests.dbfix import migrated_sqlite

from .judge import TestJudge

CREATE = "CREATE pay1 masterpw\nRULE POWER_CHOICE\nSIGNOFF\n"


def _judge(tmp_path, monkeypatch) -> TestJudge:
    url = migrated_sqlite(tmp_path / "payjudge.sqlite")
    monkeypatch.setenv("PAYJUDGE_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("PAYJUDGE_DB_URL", url)
    monkeypatch.setenv("PAYJUDGE_SMTP_LISTEN", "")
    return TestJudge(Database(url))


def test_last_prints_the_newest_mail_decoded(tmp_path, monkeypatch):
    judge = _judge(tmp_path, monkeypatch)
    judge.send("gm@pj.test", CREATE)
    judge.send("x@pj.test", "LIST\n", subject="what runs? ça marche…")
    run = CliRunner().invoke
    shown = run(main, ["outbox", "show", "--last"])
    assert shown.exit_code == 0, shown.output
    head, _, text = shown.output.partition("\n\n")
    assert "From: judge@pj.test" in head and "To: x@pj.test" in head
    assert "Subject: Re: what runs? ça marche…" in head and "Message-ID: <" in head and "Date: " in head
    assert "pay1" in text and "UNDERSTOOD" in text
    assert "gm@pj.test" not in shown.output  # the newest mail only
    # a reply with non-ASCII text reads as written: no quoted-printable, no base64
    assert "=E2=80=A6" not in shown.output and "=\n" not in shown.output
    assert "…" in run(main, ["outbox", "show", "--to", "gm@pj.test"]).output
    # the default is --last; -n shows more, newest first
    assert run(main, ["outbox", "show"]).output == shown.output
    two = run(main, ["outbox", "show", "-n", "2"]).output
    assert two.index("To: x@pj.test") < two.index("To: gm@pj.test")
    judge.db.dispose()


def test_an_empty_outbox_is_said(tmp_path, monkeypatch):
    judge = _judge(tmp_path, monkeypatch)
    shown = CliRunner().invoke(main, ["outbox", "show", "--last"])
    assert shown.exit_code == 1 and "the outbox is empty" in shown.output
    judge.db.dispose()
