"""The judge's configuration: defaults, then a TOML file, then PAYJUDGE_* environment variables.

The embedded default needs no outside server: a SQLite file and a Maildir outbox under a
data directory, and the SMTP listener on 127.0.0.1:2525.
"""

from __future__ import annotations

import logging
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any


class ConfigError(ValueError):
    pass


@dataclass(frozen=True)
class Config:
    data_dir: Path = Path("data")
    db_url: str = ""  # default: sqlite:///<data_dir>/payjudge.sqlite
    smtp_listen: str = "127.0.0.1:2525"  # host:port, or "" to disable the listener
    judge_address: str = "judge@localhost"
    judge_name: str = "payjudge"
    local_domains: tuple[str, ...] = ()  # default: the judge address's domain
    outbound: str = ""  # smtp://host:port or maildir:PATH (default: <data_dir>/outbox)
    imap_url: str = ""  # imap://user:password@host:port/INBOX (optional)
    settle_seconds: int = 300  # delay before early processing once all are ready
    sweep_seconds: int = 30  # how often the scheduler re-checks every game
    max_message_bytes: int = 1_000_000
    smtp_timeout_seconds: int = 120  # an SMTP client is cut off this long after its last command
    smtp_max_connections: int = 100  # SMTP connections served at once …
    smtp_max_per_client: int = 10  # … and from one client address
    create_allowed: tuple[str, ...] = ("*",)  # addresses (or *@domain) allowed to CREATE
    # messages answered per sender (From) per hour; more wait their turn (see README)
    rate_limit_per_hour: int = 60
    signon_failure_limit: int = 10  # wrong passwords per seat within the window …
    signon_window_minutes: int = 60  # … before its sign-ons are refused for a while
    message_cpu_seconds: float = 10.0  # a message that spends more is quarantined (0: no limit)
    timezone: str = "UTC"  # default zone for times shown in mail
    log_level: str = "INFO"
    maps_dir: str = ""  # installed maps (default: <data_dir>/maps)
    http_listen: str = ""  # host:port of the read-only status page ("" = off)
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def database_url(self) -> str:
        return self.db_url or f"sqlite:///{(self.data_dir / 'payjudge.sqlite').resolve()}"

    @property
    def maps_path(self) -> Path:
        """Where `payjudge map install` puts maps, searched before the shipped ones."""
        return Path(self.maps_dir) if self.maps_dir else self.data_dir / "maps"

    @property
    def outbound_url(self) -> str:
        return self.outbound or f"maildir:{(self.data_dir / 'outbox').resolve()}"

    @property
    def domains(self) -> tuple[str, ...]:
        if self.local_domains:
            return tuple(d.lower() for d in self.local_domains)
        return (self.judge_address.rpartition("@")[2].lower(),)

    @property
    def listen(self) -> tuple[str, int] | None:
        if not self.smtp_listen:
            return None
        host, _, port = self.smtp_listen.rpartition(":")
        try:
            return host or "127.0.0.1", int(port)
        except ValueError:
            raise ConfigError(f"PAYJUDGE_SMTP_LISTEN must be host:port, not {self.smtp_listen!r}") from None

    @property
    def http(self) -> tuple[str, int] | None:
        """Where the status page listens; None (the default) when it is off."""
        if not self.http_listen:
            return None
        host, _, port = self.http_listen.rpartition(":")
        try:
            return host or "127.0.0.1", int(port)
        except ValueError:
            raise ConfigError(f"PAYJUDGE_HTTP_LISTEN must be host:port, not {self.http_listen!r}") from None


_ENV = {
    "PAYJUDGE_DATA_DIR": "data_dir",
    "PAYJUDGE_DB_URL": "db_url",
    "PAYJUDGE_SMTP_LISTEN": "smtp_listen",
    "PAYJUDGE_JUDGE_ADDRESS": "judge_address",
    "PAYJUDGE_OUTBOUND": "outbound",
    "PAYJUDGE_IMAP_URL": "imap_url",
    "PAYJUDGE_SETTLE_SECONDS": "settle_seconds",
    "PAYJUDGE_SWEEP_SECONDS": "sweep_seconds",
    "PAYJUDGE_TIMEZONE": "timezone",
    "PAYJUDGE_LOG_LEVEL": "log_level",
    "PAYJUDGE_MAPS_DIR": "maps_dir",
    "PAYJUDGE_HTTP_LISTEN": "http_listen",
}


def _coerce(name: str, value: Any) -> Any:
    kinds = {f.name: f.type for f in fields(Config)}
    kind = kinds[name]
    try:
        if kind in ("int",):
            return int(value)
        if kind == "float":
            return float(value)
        if kind == "Path":
            return Path(value)
        if kind.startswith("tuple"):
            if isinstance(value, str):
                return tuple(v.strip() for v in value.split(",") if v.strip())
            return tuple(value)
    except (TypeError, ValueError):
        raise ConfigError(f"bad value for {name}: {value!r}") from None
    return value


def load_config(path: str | Path | None = None, env: Mapping[str, str] | None = None) -> Config:
    env = os.environ if env is None else env
    values: dict[str, Any] = {}
    path = path or env.get("PAYJUDGE_CONFIG")
    if path:
        try:
            with open(path, "rb") as fh:
                doc = tomllib.load(fh)
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError(f"cannot read configuration {path}: {exc}") from None
        judge = doc.get("judge", doc)
        known = {f.name for f in fields(Config)}
        for key, value in judge.items():
            if key not in known:
                raise ConfigError(f"{path}: unknown setting {key!r}")
            values[key] = _coerce(key, value)
    for var, name in _ENV.items():
        if var in env:  # an empty value counts: PAYJUDGE_SMTP_LISTEN= turns the listener off
            values[name] = _coerce(name, env[var])
        file_var = env.get(var + "_FILE")
        if file_var:
            values[name] = _coerce(name, Path(file_var).read_text().strip())
    return replace(Config(), **values)


def configure_logging(config: Config) -> None:
    """The daemon's log (and its processor process's): lines on stderr at the configured
    level, the scheduler's and aiosmtpd's chatter above INFO left out."""
    logging.basicConfig(
        level=getattr(logging, config.log_level.upper(), logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    logging.getLogger("apscheduler").setLevel(logging.WARNING)
    logging.getLogger("mail.log").setLevel(logging.WARNING)
