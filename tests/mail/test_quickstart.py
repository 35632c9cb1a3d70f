"""The README's quick start as a newcomer types it (issue 28, item 4): its first mail, sent
twice through the real SMTP listener, gets two replies, and `payjudge outbox show --last`
prints the newest one decoded."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from payjudge.cli import main
from payjudge.config import Config
from payjudge.mail.listener import start_listener
from payjudge.store.db import Database, upgrade
from payjudge.store.mailbox import SqlInbound
from tests.service.judge import TestJudge

pytestmark = [pytest.mark.servers, pytest.mark.timeout(60)]

README = Path(__file__).parents[2] / "README.md"


def readme_snippet() -> str:
    """The Python the quick start pipes into `python3 -`."""
    text = README.read_text()
    start = text.index("python3 - <<'EOF'\n") + len("python3 - <<'EOF'\n")
    return text[start : text.index("\nEOF\n", start) + 1]


def readme_reader() -> list[str]:
    """The command the quick start reads the reply with, as words."""
    text = README.read_text()
    line = text[text.index("\nEOF\n") + len("\nEOF\n") :].split("\n", 1)[0]
    command = line.split(";", 1)[1].split("#", 1)[0].split()
    assert command[0] == ".venv/bin/payjudge", line
    return command[1:]


async def test_the_readme_mail_sent_twice_gets_two_replies(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'payjudge.sqlite'}"
    upgrade(url)
    db = Database(url)
    server = await start_listener(SqlInbound(db), "127.0.0.1", 0, local_domains=["localhost"])
    port = server.sockets[0].getsockname()[1]
    snippet = readme_snippet()
    assert '"127.0.0.1", 2525' in snippet
    snippet = snippet.replace('"127.0.0.1", 2525', f'"127.0.0.1", {port}')
    async with server:
        for _ in range(2):
            done = await asyncio.to_thread(
                subprocess.run,
                [sys.executable, "-"],
                input=snippet,
                text=True,
                capture_output=True,
                timeout=30,
            )
            assert done.returncode == 0, done.stderr
    judge = TestJudge(db, config=Config(judge_address="judge@localhost", rate_limit_per_hour=0))
    judge.process()
    replies = [m for m in judge.inbox("gm@example.org") if m.kind == "reply"]
    assert len(replies) == 2
    assert "Game pay1 has been created" in replies[0].body
    assert "pay1" in replies[1].body and "has been created" not in replies[1].body
    db.dispose()

    # reading the reply: the README's one command, decoded
    monkeypatch.setenv("PAYJUDGE_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("PAYJUDGE_DB_URL", url)
    monkeypatch.setenv("PAYJUDGE_SMTP_LISTEN", "")
    shown = CliRunner().invoke(main, readme_reader())
    assert shown.exit_code == 0, shown.output
    assert "To: gm@example.org" in shown.output and "Subject: Re: hello" in shown.output
    assert replies[1].body.strip().splitlines()[0] in shown.output
    assert "=E2=80" not in shown.output and "=\n" not in shown.output
