"""The judge's configuration: defaults, then a TOML file, then PAYJUDGE_* environment variables.

The embedded default needs no outside server: a SQLite file and a Maildir outbox under a
data directory, and the SMTP listener on 127.0.0.1:2525.
"""

from __future__ import annotations

import logging
import math
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any


class ConfigError(ValueError):
    """A setting the judge cannot use. Its message is one line that names the setting
    and never holds a secret (`redact_url`, `redact`): the command line prints it as it
    is, without a traceback."""


_SECRET_QUERY = re.compile(r"(?i)([?&](?:password|passwd|pass|secret|token)=)([^&#]*)")


def _url_secrets(url: str) -> list[str]:
    """The parts of a URL `redact_url` hides: a password between the user and the last
    `@` (everything after the first `:` there, so a password with `:`, `/` or `@` in it
    is hidden whole) and the values of password-like query parameters."""
    found = [m.group(2) for m in _SECRET_QUERY.finditer(url) if m.group(2)]
    if url.startswith("maildir:") or "@" not in url:
        return found
    credentials = url.rpartition("@")[0]
    if "://" in credentials:
        credentials = credentials.partition("://")[2]
    elif "/" in credentials:  # a mistyped separator (`postgresql//user:pw@…`)
        credentials = credentials.rpartition("/")[2]
    else:  # no separator at all (`smtp:user:pw@…`)
        credentials = credentials.partition(":")[2]
    _user, colon, password = credentials.partition(":")
    return [password, *found] if colon and password else found


def redact_url(url: str) -> str:
    """A URL as a log line or an error may show it: `smtp://judge:***@relay:25` (a
    `maildir:` path is shown as it is). It holds up on a URL that does not parse."""
    if url.startswith("maildir:"):
        return url
    url = _SECRET_QUERY.sub(lambda m: m.group(1) + "***" if m.group(2) else m.group(0), url)
    for secret in _url_secrets(url):
        if secret != "***":
            head, at, host = url.rpartition("@")
            url = head.replace(":" + secret, ":***", 1) + at + host
    return url


def redact(text: str, *urls: str) -> str:
    """`text` (an error's message, say) with every secret of `urls` hidden, wherever
    the text quotes them."""
    for url in urls:
        if not url:
            continue
        text = text.replace(url, redact_url(url))
        for secret in _url_secrets(url):
            text = text.replace(secret, "***")
    return " ".join(text.split())  # one line


@dataclass(frozen=True)
class Config:
    data_dir: Path = Path("data")
    # the three URLs may hold passwords: a printed Config (a log line, a traceback) leaves them out
    db_url: str = field(default="", repr=False)  # default: sqlite:///<data_dir>/payjudge.sqlite
    smtp_listen: str = "127.0.0.1:2525"  # host:port, or "" to disable the listener
    judge_address: str = "judge@localhost"
    judge_name: str = "payjudge"
    local_domains: tuple[str, ...] = ()  # default: the judge address's domain
    outbound: str = field(default="", repr=False)  # smtp://host:port or maildir:PATH (<data_dir>/outbox)
    imap_url: str = field(default="", repr=False)  # imap://user:password@host:port/INBOX (optional)
    settle_seconds: int = 300  # delay before early processing once all are ready
    sweep_seconds: int = 30  # how often the scheduler re-checks every game
    max_message_bytes: int = 1_000_000
    smtp_timeout_seconds: int = 120  # an SMTP client is cut off this long after its last command
    smtp_session_seconds: int = 600  # … and this long after it connected, whatever it sends
    smtp_max_commands: int = 1000  # … and after this many commands
    smtp_max_connections: int = 100  # SMTP connections served at once …
    smtp_max_per_client: int = 10  # … and from one client network (a /24 of IPv4, a /64 of IPv6)
    create_allowed: tuple[str, ...] = ("*",)  # addresses (or *@domain) allowed to CREATE
    # messages answered per sender (From) per hour; more wait their turn (see README)
    rate_limit_per_hour: int = 60
    observers_per_game: int = 20  # observers of one game, counting those yet to confirm (0: no limit)
    broadcasts_per_hour: int = 10  # broadcasts by one author in one game per hour (0: no limit)
    create_per_sender_per_hour: int = 5  # games one address may create per hour …
    create_per_hour: int = 30  # … and all addresses together (0: no limit)
    signon_failure_limit: int = 10  # wrong passwords per seat within the window …
    signon_window_minutes: int = 60  # … before its sign-ons are refused for a while
    message_cpu_seconds: float = 10.0  # a message that spends more is quarantined (0: no limit)
    # how long a SQLite writer waits for another process's write lock before it gives up
    # (an SMTP 451, or a message left for the next pass); PostgreSQL ignores it
    sqlite_busy_seconds: float = 30.0
    # how long counting an attempt at a message keeps other processors off it: a message
    # whose processor was killed is tried again this long after (service/processor.py)
    lease_seconds: float = 30.0
    timezone: str = "UTC"  # default zone for times shown in mail
    log_level: str = "INFO"
    maps_dir: str = ""  # installed maps (default: <data_dir>/maps)
    http_listen: str = ""  # host:port of the read-only status page ("" = off)
    http_header_timeout_seconds: int = 20  # a page connection must send a request's head in time
    http_max_connections: int = 100  # page connections open at once …
    http_descriptor_percent: int = 25  # … and never more than this share of the file descriptors
    # the pages' public address, e.g. https://judge.example.org behind a TLS proxy: an https
    # base marks the sign-in cookie Secure (docs/web.md)
    base_url: str = ""
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
        return _host_port(self.smtp_listen, "PAYJUDGE_SMTP_LISTEN")

    @property
    def http(self) -> tuple[str, int] | None:
        """Where the status page listens; None (the default) when it is off."""
        return _host_port(self.http_listen, "PAYJUDGE_HTTP_LISTEN")


def _host_port(value: str, variable: str) -> tuple[str, int] | None:
    """A `host:port` setting ("" is off, no host is 127.0.0.1); `variable` names it in the error."""
    if not value:
        return None
    host, _, port = value.rpartition(":")
    try:
        return host or "127.0.0.1", int(port)
    except ValueError:
        raise ConfigError(f"{variable} must be host:port, not {value!r}") from None


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
    "PAYJUDGE_BASE_URL": "base_url",
}


# settings with a range: outside it a value would stall or crash the judge (a lease of
# 1e30 seconds overflows the clock; a negative one lets two processors take a message)
_RANGES: dict[str, tuple[float, float]] = {"lease_seconds": (1.0, 86_400.0)}


def _within(name: str, number: float) -> float:
    low, high = _RANGES.get(name, (-math.inf, math.inf))
    if not low <= number <= high:  # NaN too
        raise ConfigError(f"bad value for {name}: {number!r} (from {low:g} to {high:g})")
    return number


def _coerce(name: str, value: Any) -> Any:
    kinds = {f.name: f.type for f in fields(Config)}
    kind = kinds[name]
    try:
        if kind in ("int",):
            return int(value)
        if kind == "float":
            return _within(name, float(value))
        if kind == "Path":
            return Path(value)
        if kind.startswith("tuple"):
            if isinstance(value, str):
                return tuple(v.strip() for v in value.split(",") if v.strip())
            return tuple(value)
    except ConfigError:
        raise
    except (TypeError, ValueError):
        raise ConfigError(f"bad value for {name}: {value!r}") from None
    if kind == "str" and not isinstance(value, str):
        # (the value is not shown: it may be a password the file meant as a string)
        raise ConfigError(f"bad value for {name}: a string (in quotes) is expected")
    return value


def load_config(path: str | Path | None = None, env: Mapping[str, str] | None = None) -> Config:
    env = os.environ if env is None else env
    values: dict[str, Any] = {}
    path = path or env.get("PAYJUDGE_CONFIG")
    if path:
        try:
            with open(path, "rb") as fh:
                doc = tomllib.load(fh)
        except OSError as exc:
            raise ConfigError(f"cannot read configuration {path}: {exc.strerror}") from None
        except tomllib.TOMLDecodeError as exc:
            # the parser names the place, never the text there (which may be a password)
            raise ConfigError(f"{path}: not valid TOML: {' '.join(str(exc).split())}") from None
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
            try:
                held = Path(file_var).read_text().strip()
            except (OSError, UnicodeDecodeError) as exc:
                why = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
                raise ConfigError(f"{var}_FILE: cannot read {file_var}: {why}") from None
            values[name] = _coerce(name, held)
    return replace(Config(), **values)


def configure_logging(config: Config) -> None:
    """The daemon's log (and its processor process's): lines on stderr at the configured
    level, the scheduler's and aiosmtpd's chatter above INFO left out."""
    logging.basicConfig(
        level=getattr(logging, config.log_level.upper(), logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    logging.getLogger("apscheduler").setLevel(logging.WARNING)
    logging.getLogger("alembic").setLevel(logging.WARNING)  # its plugins, at every schema check
    logging.getLogger("mail.log").setLevel(logging.WARNING)
