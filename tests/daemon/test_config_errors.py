"""A configuration error is one line that names the setting and never its secret
(issue 26, item 6): `payjudge serve` and the keeper's commands stop with a non-zero
status, no traceback, and every password left out (URLs, files named by `_FILE`, the
TOML file)."""

from __future__ import annotations

import os
import subprocess

import pytest

from payjudge.config import redact_url

from .harness import payjudge_command

pytestmark = [pytest.mark.timeout(120)]

SECRET = "TopSecret99"


def _env(tmp_path, **settings: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAYJUDGE_") or k == "PAYJUDGE_PURE"}
    env |= {"PAYJUDGE_DATA_DIR": str(tmp_path / "data"), "PAYJUDGE_SMTP_LISTEN": "127.0.0.1:0"}
    return env | settings


def _run(tmp_path, args: list[str], **settings: str) -> str:
    env = _env(tmp_path, **settings)
    done = subprocess.run(payjudge_command() + args, env=env, capture_output=True, text=True, timeout=60)
    out = (done.stdout + done.stderr).strip()
    assert done.returncode != 0, out
    assert SECRET not in out and "Traceback" not in out, out
    assert len(out.splitlines()) == 1, out
    return out


URLS = {
    "outbound-scheme": ("PAYJUDGE_OUTBOUND", f"smtp+tls://judge:{SECRET}@127.0.0.1:25"),
    "outbound-port": ("PAYJUDGE_OUTBOUND", f"smtp://judge:{SECRET}@127.0.0.1:twentyfive"),
    "outbound-no-host": ("PAYJUDGE_OUTBOUND", f"smtp://judge:{SECRET}@"),
    "imap-scheme": ("PAYJUDGE_IMAP_URL", f"imapx://judge:{SECRET}@127.0.0.1/INBOX"),
    "imap-port": ("PAYJUDGE_IMAP_URL", f"imap://judge:{SECRET}@127.0.0.1:99999/INBOX"),
    "db-unparsable": ("PAYJUDGE_DB_URL", f"postgresql+psycopg//judge:{SECRET}@127.0.0.1/payjudge"),
    "db-no-dialect": ("PAYJUDGE_DB_URL", f"nosuchdb://judge:{SECRET}@127.0.0.1/payjudge"),
    "db-unreachable": ("PAYJUDGE_DB_URL", f"postgresql+psycopg://judge:{SECRET}@127.0.0.1:1/payjudge"),
    "listen": ("PAYJUDGE_SMTP_LISTEN", "port twenty-five"),
    "http-listen": ("PAYJUDGE_HTTP_LISTEN", "nonsense"),
}


def test_an_address_serve_cannot_listen_on_is_one_line(tmp_path):
    upgrade = payjudge_command() + ["db", "upgrade"]
    subprocess.run(upgrade, env=_env(tmp_path), check=True, capture_output=True, timeout=60)
    out = _run(tmp_path, ["serve"], PAYJUDGE_SMTP_LISTEN="192.0.2.1:2525")  # (TEST-NET: not ours)
    assert "192.0.2.1" in out


@pytest.mark.parametrize("setting", URLS.values(), ids=URLS.keys())
def test_serve_names_a_bad_setting_in_one_line_without_its_secret(tmp_path, setting):
    name, value = setting
    out = _run(tmp_path, ["serve"], **{name: value})
    assert name in out


KEEPERS = [["game", "list"], ["health"], ["db", "upgrade"], ["process"], ["requeue"]]


@pytest.mark.parametrize("command", KEEPERS, ids=" ".join)
def test_the_keepers_commands_say_a_bad_database_url_in_one_line(tmp_path, command):
    out = _run(tmp_path, command, PAYJUDGE_DB_URL=f"postgresql+psycopg//judge:{SECRET}@127.0.0.1/pj")
    assert "PAYJUDGE_DB_URL" in out


@pytest.mark.parametrize("command", KEEPERS, ids=" ".join)
def test_the_keepers_commands_say_an_unreachable_database_in_one_line(tmp_path, command):
    out = _run(tmp_path, command, PAYJUDGE_DB_URL=f"postgresql+psycopg://judge:{SECRET}@127.0.0.1:1/pj")
    assert "PAYJUDGE_DB_URL" in out and "Connection refused" in out


def test_a_setting_read_from_a_file_is_named_by_its_file_variable(tmp_path):
    missing = tmp_path / "no-such-secret"
    out = _run(tmp_path, ["serve"], PAYJUDGE_DB_URL_FILE=str(missing))
    assert "PAYJUDGE_DB_URL_FILE" in out and "No such file" in out
    held = tmp_path / "outbound"
    held.write_text(f"smtp+tls://judge:{SECRET}@127.0.0.1:25\n")
    out = _run(tmp_path, ["serve"], PAYJUDGE_OUTBOUND_FILE=str(held))
    assert "PAYJUDGE_OUTBOUND" in out


@pytest.mark.parametrize(
    "text",
    [
        f'[judge]\noutbound = "smtp://judge:{SECRET}@127.0.0.1:25\n',  # an unterminated string
        "[judge]\noutbound = 25\n",  # not a string
        f'[judge]\ndb_url = "nosuchdb://judge:{SECRET}@h/pj"\n',
    ],
    ids=["syntax", "type", "url"],
)
def test_a_bad_toml_file_is_one_line(tmp_path, text):
    toml = tmp_path / "payjudge.toml"
    toml.write_text(text)
    _run(tmp_path, ["serve", "--config", str(toml)])


def test_redact_url_keeps_user_and_host_only():
    assert redact_url(f"smtp+tls://judge:{SECRET}@127.0.0.1:25") == "smtp+tls://judge:***@127.0.0.1:25"
    assert redact_url(f"imap://judge:p@ss:{SECRET}@host/INBOX") == "imap://judge:***@host/INBOX"
    assert redact_url("smtp://relay:25") == "smtp://relay:25"
    assert redact_url("maildir:/var/mail/judge@example.org") == "maildir:/var/mail/judge@example.org"
    assert SECRET not in redact_url(f"postgresql+psycopg//judge:{SECRET}@h/pj")
    assert SECRET not in redact_url(f"postgresql+psycopg://judge@h/pj?password={SECRET}")
