"""Real servers for the tests: a private PostgreSQL 15, a private Dovecot, an SMTP sink.

Each is started by the tests themselves on a free loopback port and removed afterwards.
When the tests run as root (CI), PostgreSQL and Dovecot run as `nobody` through setpriv
(both refuse root), so their directories are made with tempfile.mkdtemp under /tmp:
pytest's tmp_path lives under a 0700 directory that `nobody` cannot enter.
A missing binary skips the tests with the apt package to install.
"""

from __future__ import annotations

import grp
import itertools
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import textwrap
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

PG_BIN = Path(os.environ.get("PAYJUDGE_TEST_PG_BIN", "/usr/lib/postgresql/15/bin"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, proc: subprocess.Popen, timeout: float = 20.0, what: str = "server") -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited early with rc={proc.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"{what} did not open port {port} within {timeout} s")


@dataclass(frozen=True)
class RunAs:
    prefix: list[str]  # the command prefix that drops root, or []
    uid: int
    gid: int
    user: str
    group: str


def run_as() -> RunAs:
    """Root → run servers as nobody (they refuse root); anyone else → as themselves."""
    if os.geteuid() != 0:
        return RunAs(
            [], os.getuid(), os.getgid(), pwd.getpwuid(os.getuid()).pw_name, grp.getgrgid(os.getgid()).gr_name
        )
    if not shutil.which("setpriv"):
        pytest.skip(
            "tests run as root need setpriv to start servers as nobody: apt-get install -y util-linux"
        )
    pw = pwd.getpwnam("nobody")
    return RunAs(
        ["setpriv", f"--reuid={pw.pw_uid}", f"--regid={pw.pw_gid}", "--clear-groups"],
        pw.pw_uid,
        pw.pw_gid,
        pw.pw_name,
        grp.getgrgid(pw.pw_gid).gr_name,
    )


def chown_tree(path: Path, uid: int, gid: int) -> None:
    if os.geteuid() != 0:
        return
    for root, _dirs, files in os.walk(path):
        os.chown(root, uid, gid)
        for name in files:
            os.chown(os.path.join(root, name), uid, gid)


def stop_process(proc: subprocess.Popen, sig: int = signal.SIGTERM, timeout: float = 15.0) -> None:
    if proc.poll() is not None:
        return
    proc.send_signal(sig)
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _which(name: str, *extra_dirs: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    for d in extra_dirs:
        candidate = Path(d) / name
        if candidate.exists():
            return str(candidate)
    return None


def make_certificate(directory: Path) -> tuple[Path, Path] | None:
    """A self-signed certificate for 127.0.0.1/localhost (cert, key), or None without openssl."""
    openssl = shutil.which("openssl")
    if not openssl:
        return None
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(
        [
            openssl,
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "2",
            "-subj",
            "/CN=localhost",
            "-addext",
            "subjectAltName=IP:127.0.0.1,DNS:localhost",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return cert, key


# -- PostgreSQL ---------------------------------------------------------------------------

_db_counter = itertools.count(1)


def _pg_connect(url_or_port, dbname: str = "postgres"):
    import psycopg

    port = url_or_port if isinstance(url_or_port, int) else int(url_or_port.rsplit(":", 1)[1].split("/")[0])
    return psycopg.connect(
        host="127.0.0.1", port=port, user="postgres", dbname=dbname, autocommit=True, connect_timeout=5
    )


def database_name(prefix: str) -> str:
    """A name for a new database, unique on the cluster (by process and count)."""
    return f"{prefix}_{os.getpid()}_{next(_db_counter)}"


def fresh_database(pg_url: str, prefix: str = "t") -> str:
    """Create an empty database on the `pg_url` cluster and return its SQLAlchemy URL."""
    name = database_name(prefix)
    with _pg_connect(pg_url) as conn:
        conn.execute(f"CREATE DATABASE \"{name}\" TEMPLATE template0 ENCODING 'UTF8' STRATEGY FILE_COPY")
    return pg_url.rsplit("/", 1)[0] + "/" + name


def drop_database(url: str) -> None:
    base, name = url.rsplit("/", 1)
    with _pg_connect(base + "/postgres") as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """A private PostgreSQL 15 cluster (trust auth) with an empty database `payjudge`."""
    initdb = PG_BIN / "initdb"
    if not initdb.exists():
        pytest.skip(f"PostgreSQL 15 not found in {PG_BIN}: apt-get install -y postgresql-15")
    who = run_as()
    d = Path(tempfile.mkdtemp(prefix="pj-pg-", dir="/tmp"))
    port = free_port()
    chown_tree(d, who.uid, who.gid)
    proc = None
    try:
        subprocess.run(
            who.prefix
            + [
                str(initdb),
                "-D",
                str(d / "data"),
                "-U",
                "postgres",
                "-A",
                "trust",
                "-E",
                "UTF8",
                "--locale=C.UTF-8",
                "--no-sync",
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )
        with open(d / "postgres.log", "wb") as log:  # the child keeps its own copy
            proc = subprocess.Popen(
                who.prefix
                + [
                    str(PG_BIN / "postgres"),
                    "-D",
                    str(d / "data"),
                    "-p",
                    str(port),
                    "-c",
                    "listen_addresses=127.0.0.1",
                    "-c",
                    f"unix_socket_directories={d}",
                    "-c",
                    "fsync=off",
                    "-c",
                    "synchronous_commit=off",
                    "-c",
                    "full_page_writes=off",
                    "-c",
                    "max_connections=200",
                ],
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        wait_port(port, proc, what="postgres")
        end = time.monotonic() + 20
        while True:  # an open port is not yet a server accepting queries
            try:
                with _pg_connect(port) as conn:
                    conn.execute("CREATE DATABASE payjudge")
                break
            except Exception:
                if time.monotonic() > end or proc.poll() is not None:
                    raise
                time.sleep(0.1)
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/payjudge"
    finally:
        if proc is not None:
            stop_process(proc, signal.SIGINT)  # SIGINT = fast shutdown
        shutil.rmtree(d, ignore_errors=True)


@pytest.fixture(scope="module")
def pg_module_url(pg_url: str) -> Iterator[str]:
    """A fresh, empty database for one test module, dropped afterwards."""
    url = fresh_database(pg_url, "m")
    yield url
    drop_database(url)


# -- Dovecot ------------------------------------------------------------------------------


@dataclass
class ImapAccount:
    host: str
    port: int
    user: str
    password: str
    maildir: Path
    owner: tuple[int, int]
    cafile: Path | None = None  # the server's self-signed certificate, for STARTTLS
    _seq: itertools.count = field(default_factory=itertools.count, repr=False)

    def deliver(self, raw: bytes) -> Path:
        """Deliver like an MDA: write into Maildir/tmp, then rename into Maildir/new."""
        name = f"{time.time_ns()}.P{os.getpid()}Q{next(self._seq)}.pjtest"
        tmp = self.maildir / "tmp" / name
        tmp.write_bytes(raw)
        if os.geteuid() == 0:
            os.chown(tmp, *self.owner)
        final = self.maildir / "new" / name
        os.rename(tmp, final)
        return final

    def url(self, mailbox: str = "INBOX") -> str:
        return f"imap://{self.user}:{self.password}@{self.host}:{self.port}/{mailbox}"


class DovecotServer:
    """A private Dovecot (IMAP on loopback, STARTTLS with a self-signed certificate when
    openssl is there) with passwd-file accounts."""

    POOL = 100

    def __init__(self) -> None:
        self.dovecot = _which("dovecot", "/usr/sbin")
        if not self.dovecot:
            pytest.skip("Dovecot not found: apt-get install -y --no-install-recommends dovecot-imapd")
        self.who = run_as()
        self.dir = Path(tempfile.mkdtemp(prefix="pj-dovecot-", dir="/tmp"))
        self.port = free_port()
        self.host = "127.0.0.1"
        self.proc: subprocess.Popen | None = None
        self.cafile: Path | None = None
        self._users: dict[str, str] = {}
        self._lock = threading.Lock()
        self._accounts = itertools.count(1)

    @property
    def log(self) -> Path:
        return self.dir / "dovecot.log"

    def start(self) -> None:
        d, who, port = self.dir, self.who, self.port
        for sub in ("run", "state", "mail"):
            (d / sub).mkdir(parents=True, exist_ok=True)
        # Dovecot re-reads passwd-file only when its mtime (in seconds) changes, so the
        # accounts the tests will ask for are written up front.
        self._users = {f"judge{n}": "judgepass" for n in range(1, self.POOL + 1)}
        self._users["judge"] = "judgepass"
        (d / "users").write_text("".join(f"{u}:{{PLAIN}}{p}\n" for u, p in self._users.items()))
        certificate = make_certificate(d)
        if certificate:
            self.cafile = certificate[0]
            tls = f"ssl = yes\nssl_cert = <{certificate[0]}\nssl_key = <{certificate[1]}"
        else:
            tls = "ssl = no"
        # Test-only settings: no delay or per-IP penalty after a failed login (the wrong-
        # password tests would slow every later login down to 15 s), and IDLE notices new
        # mail within a second even where inotify is unavailable.
        (d / "dovecot.conf").write_text(
            textwrap.dedent(f"""\
            instance_name = pj-{port}
            base_dir = {d}/run
            state_dir = {d}/state
            protocols = imap
            listen = 127.0.0.1
            {{tls}}
            disable_plaintext_auth = no
            auth_failure_delay = 0
            login_trusted_networks = 127.0.0.0/8
            mailbox_idle_check_interval = 1 secs
            auth_mechanisms = plain login
            default_internal_user = {who.user}
            default_internal_group = {who.group}
            default_login_user = {who.user}
            first_valid_uid = {who.uid}
            first_valid_gid = {who.gid}
            log_path = {d}/dovecot.log
            mail_location = maildir:{d}/mail/%n/Maildir
            passdb {{
              driver = passwd-file
              args = scheme=PLAIN username_format=%n {d}/users
            }}
            userdb {{
              driver = static
              args = uid={who.uid} gid={who.gid} home={d}/mail/%n
            }}
            service imap-login {{
              chroot =
              inet_listener imap {{
                address = 127.0.0.1
                port = {port}
              }}
              inet_listener imaps {{
                port = 0
              }}
            }}
            service anvil {{
              chroot =
              unix_listener anvil-auth-penalty {{
                mode = 0
              }}
            }}
            """).replace("{tls}", tls)
        )
        chown_tree(d, who.uid, who.gid)
        with open(d / "stderr.log", "wb") as log:  # the child keeps its own copy
            self.proc = subprocess.Popen(
                who.prefix + [self.dovecot, "-F", "-c", str(d / "dovecot.conf")],
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        wait_port(port, self.proc, what="dovecot")

    def stop(self) -> None:
        if self.proc is not None:
            helpers = _children(self.proc.pid)  # log, anvil, config… outlive the master briefly
            stop_process(self.proc)
            _reap(helpers)
        shutil.rmtree(self.dir, ignore_errors=True)

    def add_account(self, user: str | None = None, password: str = "judgepass") -> ImapAccount:
        """A mail account with an empty Maildir: one of the pool written at start, or else
        a new entry in passwd-file (with its mtime pushed forward so Dovecot re-reads it)."""
        with self._lock:
            user = user or f"judge{next(self._accounts)}"
            if self._users.get(user) != password:
                self._users[user] = password
                users = self.dir / "users"
                stamp = max(time.time(), users.stat().st_mtime) + 1
                tmp = self.dir / "users.tmp"
                tmp.write_text("".join(f"{u}:{{PLAIN}}{p}\n" for u, p in self._users.items()))
                if os.geteuid() == 0:
                    os.chown(tmp, self.who.uid, self.who.gid)
                os.utime(tmp, (stamp, stamp))
                os.replace(tmp, users)
                # and it looks at the file at most once per second
                time.sleep(1.05 - time.time() % 1)
        maildir = self.dir / "mail" / user / "Maildir"
        for sub in ("cur", "new", "tmp"):
            (maildir / sub).mkdir(parents=True, exist_ok=True)
        chown_tree(self.dir / "mail" / user, self.who.uid, self.who.gid)
        return ImapAccount(
            self.host, self.port, user, password, maildir, (self.who.uid, self.who.gid), self.cafile
        )

    def kick(self) -> int:
        """Kill every IMAP session process of this server (as a dropped connection would
        look to a client); returns how many were killed. The server keeps listening."""
        assert self.proc is not None
        killed = 0
        for pid in _children(self.proc.pid):
            try:
                comm = Path(f"/proc/{pid}/comm").read_text().strip()
            except OSError:
                continue
            if comm == "imap":
                try:
                    os.kill(pid, signal.SIGKILL)
                    killed += 1
                except ProcessLookupError:
                    pass
        return killed


def _reap(pids: list[int], timeout: float = 5.0) -> None:
    """Wait for the processes a server started to go; kill the ones that stay."""
    end = time.monotonic() + timeout
    while pids and time.monotonic() < end:
        pids = [p for p in pids if Path(f"/proc/{p}").exists() and not _zombie(p)]
        time.sleep(0.05)
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def _children(pid: int) -> list[int]:
    """Direct children of `pid`, from /proc."""
    result = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # the command name may hold spaces and parentheses: split after the last ')'
        fields_after = stat.rsplit(")", 1)[1].split()
        if int(fields_after[1]) == pid:
            result.append(int(entry.name))
    return result


@pytest.fixture(scope="session")
def dovecot() -> Iterator[DovecotServer]:
    server = DovecotServer()
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def imap_server(dovecot: DovecotServer) -> ImapAccount:
    """The session's Dovecot, through its account `judge`: host, port, user, password,
    maildir and `deliver(raw)`. Tests that need an empty mailbox use `imap_account`."""
    return dovecot.add_account("judge")


@pytest.fixture
def imap_account(dovecot: DovecotServer) -> ImapAccount:
    """A fresh, empty account on the session's Dovecot, for one test."""
    return dovecot.add_account()


# -- SMTP sink ----------------------------------------------------------------------------


@dataclass
class Received:
    mail_from: str
    rcpt_tos: list[str]
    data: bytes


class SinkHandler:
    """Collects every message; refusals at RCPT or DATA can be scripted (see SmtpSink)."""

    def __init__(self) -> None:
        self.messages: list[Received] = []
        self.data_replies: list[str] = []
        self.rcpt_replies: list[str] = []
        self.refused_recipients: dict[str, str] = {}
        self.arrived = threading.Condition()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        with self.arrived:
            reply = self.refused_recipients.get(address.lower())
            if reply is None and self.rcpt_replies:
                reply = self.rcpt_replies.pop(0)
        if reply:
            return reply
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        with self.arrived:
            if self.data_replies:
                return self.data_replies.pop(0)
            self.messages.append(
                Received(envelope.mail_from, list(envelope.rcpt_tos), envelope.original_content)
            )
            self.arrived.notify_all()
        return "250 2.0.0 OK"


class SmtpSink:
    def __init__(self, controller, handler: SinkHandler):
        self.controller = controller
        self.handler = handler
        self.host = controller.hostname
        self.port = controller.port

    @property
    def url(self) -> str:
        return f"smtp://{self.host}:{self.port}"

    @property
    def messages(self) -> list[Received]:
        return self.handler.messages

    def refuse_data(self, reply: str, times: int = 1) -> None:
        with self.handler.arrived:
            self.handler.data_replies.extend([reply] * times)

    def refuse_rcpt(self, reply: str, times: int = 1) -> None:
        with self.handler.arrived:
            self.handler.rcpt_replies.extend([reply] * times)

    def refuse_recipient(self, address: str, reply: str) -> None:
        """Answer RCPT TO:<address> with `reply`, every time, until reset."""
        with self.handler.arrived:
            self.handler.refused_recipients[address.lower()] = reply

    def reset(self) -> None:
        with self.handler.arrived:
            self.handler.refused_recipients.clear()
            self.handler.messages.clear()
            self.handler.data_replies.clear()
            self.handler.rcpt_replies.clear()

    def wait_for(self, count: int, timeout: float = 20.0) -> list[Received]:
        with self.handler.arrived:
            if not self.handler.arrived.wait_for(lambda: len(self.handler.messages) >= count, timeout):
                raise TimeoutError(f"{len(self.handler.messages)} of {count} messages arrived")
            return list(self.handler.messages)


@pytest.fixture(scope="session")
def smtp_sink_server() -> Iterator[SmtpSink]:
    from aiosmtpd.controller import Controller

    handler = SinkHandler()
    controller = Controller(
        handler, hostname="127.0.0.1", port=free_port(), ready_timeout=10, server_hostname="sink.test"
    )
    controller.start()
    try:
        yield SmtpSink(controller, handler)
    finally:
        controller.stop()


@pytest.fixture
def smtp_sink(smtp_sink_server: SmtpSink) -> SmtpSink:
    """The session's SMTP sink, emptied for this test."""
    smtp_sink_server.reset()
    return smtp_sink_server
