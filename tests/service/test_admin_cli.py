"""The judge keeper's commands, run as the real CLI against a SQLite judge."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from payjudge.cli import main
from payjudge.store import repo
from payjudge.store.db import Database


def _eml(folder: Path, name: str, sender: str, body: str) -> str:
    path = folder / name
    path.write_text(f"From: {sender}\nTo: judge@localhost\nSubject: t\nMessage-ID: <{name}@x>\n\n{body}\n")
    return str(path)


def test_admin_commands(tmp_path, monkeypatch):
    monkeypatch.setenv("PAYJUDGE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("PAYJUDGE_SMTP_LISTEN", "")
    monkeypatch.delenv("PAYJUDGE_DB_URL", raising=False)
    run = CliRunner().invoke
    assert (
        run(main, ["db", "upgrade"])
        .output.strip()
        .startswith("database migrated from an empty database to revision")
    )
    files = [_eml(tmp_path, "c.eml", "gm@x.org", "CREATE pay3 masterpw\nRULE POWER_CHOICE\nSIGNOFF")]
    files += [
        _eml(tmp_path, f"j{p}.eml", f"{p}@x.org", f"JOIN {p}@pay3 pw-{p}")
        for p in ("austria", "england", "france")
    ]
    result = run(main, ["inject", *files])
    assert result.exit_code == 0 and result.output.count(": stored") == 4
    assert run(main, ["inject", files[0]]).output.strip().endswith("duplicate")
    result = run(main, ["process"])
    assert "processed 4 message(s)" in result.output
    listing = run(main, ["game", "list"]).output
    assert listing.startswith("pay3") and "forming" in listing
    shown = run(main, ["game", "show", "pay3"]).output
    assert "master gm@x.org" in shown and "FRANCE" in shown and "playing" in shown
    assert run(main, ["game", "show", "nope"]).exit_code != 0
    # a quarantined message is listed and can be requeued
    db = Database(f"sqlite:///{tmp_path / 'data' / 'payjudge.sqlite'}")
    with db.transaction() as s:
        row = repo.inbound_messages(s)[-1]
        row.state, row.error = "quarantined", "Traceback ...\nRuntimeError: boom"
    assert "RuntimeError: boom" in run(main, ["requeue"]).output
    assert "requeued 1 message(s)" in run(main, ["requeue", "--all"]).output
    with db.transaction() as s:
        assert all(m.state in ("new", "done") for m in repo.inbound_messages(s))
    assert run(main, ["process"]).exit_code == 0
    replayed = run(main, ["replay", "pay3"])
    assert replayed.exit_code == 0, replayed.output
    assert "records identical" in replayed.output
    health = run(main, ["health"])
    assert health.exit_code == 0 and health.output.strip() == "ok"
    db.dispose()
