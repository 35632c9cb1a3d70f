"""Configuration: defaults, a TOML file, environment overrides, secrets from files."""

from pathlib import Path

import pytest

from payjudge.config import Config, ConfigError, load_config


def test_embedded_defaults_need_no_outside_server(tmp_path):
    cfg = load_config(env={"PAYJUDGE_DATA_DIR": str(tmp_path)})
    assert cfg.database_url == f"sqlite:///{(tmp_path / 'payjudge.sqlite').resolve()}"
    assert cfg.outbound_url == f"maildir:{(tmp_path / 'outbox').resolve()}"
    assert cfg.listen == ("127.0.0.1", 2525)
    assert cfg.domains == ("localhost",)


def test_file_then_environment(tmp_path):
    toml = tmp_path / "payjudge.toml"
    toml.write_text(
        '[judge]\njudge_address = "judge@pay.example"\nsettle_seconds = 60\n'
        'create_allowed = ["gm@pay.example"]\n'
    )
    secret = tmp_path / "db"
    secret.write_text("postgresql+psycopg://u:pw@db/pj\n")
    cfg = load_config(
        toml,
        env={
            "PAYJUDGE_SETTLE_SECONDS": "5",
            "PAYJUDGE_DB_URL_FILE": str(secret),
            "PAYJUDGE_SMTP_LISTEN": "0.0.0.0:25",
            "PAYJUDGE_IMAP_URL": "",
        },
    )
    assert cfg.judge_address == "judge@pay.example" and cfg.domains == ("pay.example",)
    assert cfg.settle_seconds == 5  # the environment wins
    assert cfg.database_url == "postgresql+psycopg://u:pw@db/pj"
    assert cfg.listen == ("0.0.0.0", 25) and cfg.create_allowed == ("gm@pay.example",)
    assert load_config(env={"PAYJUDGE_SMTP_LISTEN": ""}).listen is None


def test_mistakes_are_named(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[judge]\ncolour = 'blue'\n")
    with pytest.raises(ConfigError, match="unknown setting 'colour'"):
        load_config(bad, env={})
    with pytest.raises(ConfigError, match="settle_seconds"):
        load_config(env={"PAYJUDGE_SETTLE_SECONDS": "soon"})
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(Path(tmp_path / "missing.toml"), env={})


def test_a_printed_config_shows_no_url_and_so_no_password():
    config = Config(
        db_url="postgresql+psycopg://judge:DbSecret1@db/payjudge",
        imap_url="imaps://judge:ImapSecret2@mail.example.org/INBOX",
        outbound="smtps://judge:SmtpSecret3@mail.example.org:465",
    )
    shown = repr(config) + str(config)
    for secret in ("DbSecret1", "ImapSecret2", "SmtpSecret3"):
        assert secret not in shown
    assert config.database_url.endswith("@db/payjudge")  # the values are all still there


@pytest.mark.parametrize("value", ["0", "-5", "1e30", "inf", "nan", '"soon"'])
def test_a_lease_out_of_range_is_refused(tmp_path, value):
    """A lease of no time lets two processors take one message; an endless one overflows
    the clock at the first message: both are refused at start, with the setting named."""
    path = tmp_path / "payjudge.toml"
    path.write_text(f"lease_seconds = {value}\n")
    with pytest.raises(ConfigError, match="lease_seconds"):
        load_config(path, env={})
    path.write_text("lease_seconds = 5\n")
    assert load_config(path, env={}).lease_seconds == 5.0
