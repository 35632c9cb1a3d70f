"""A private PostgreSQL 15 cluster that a test (or a benchmark) may stop and start again,
unlike the session's shared `pg_url` cluster."""

from __future__ import annotations

import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from tests.servers import PG_BIN, _pg_connect, chown_tree, free_port, run_as, stop_process, wait_port


class PrivatePostgres:
    def __init__(self, *, settings: dict[str, str] | None = None):
        if not (PG_BIN / "initdb").exists():
            raise FileNotFoundError(f"PostgreSQL 15 not found in {PG_BIN}: apt-get install -y postgresql-15")
        self.who = run_as()
        self.dir = Path(tempfile.mkdtemp(prefix="pj-pgpriv-", dir="/tmp"))
        self.port = free_port()
        self.settings = {
            "fsync": "off",
            "synchronous_commit": "off",
            "full_page_writes": "off",
            "max_connections": "100",
            **(settings or {}),
        }
        self.proc: subprocess.Popen | None = None
        chown_tree(self.dir, self.who.uid, self.who.gid)
        subprocess.run(
            self.who.prefix
            + [
                str(PG_BIN / "initdb"),
                "-D",
                str(self.dir / "data"),
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

    def start(self) -> PrivatePostgres:
        options = []
        for key, value in {
            "listen_addresses": "127.0.0.1",
            "unix_socket_directories": str(self.dir),
            **self.settings,
        }.items():
            options += ["-c", f"{key}={value}"]
        with open(self.dir / "postgres.log", "ab") as log:
            self.proc = subprocess.Popen(
                self.who.prefix
                + [str(PG_BIN / "postgres"), "-D", str(self.dir / "data"), "-p", str(self.port), *options],
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        wait_port(self.port, self.proc, what="postgres")
        end = time.monotonic() + 20
        while True:  # an open port is not yet a server accepting queries
            try:
                with _pg_connect(self.port) as conn:
                    conn.execute("SELECT 1")
                return self
            except Exception:
                if time.monotonic() > end or self.proc.poll() is not None:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        """A fast shutdown (SIGINT): sessions are cut, the cluster stays on disk."""
        if self.proc is not None:
            stop_process(self.proc, signal.SIGINT)
            self.proc = None

    def create_database(self, name: str) -> str:
        with _pg_connect(self.port) as conn:
            conn.execute(f"CREATE DATABASE \"{name}\" TEMPLATE template0 ENCODING 'UTF8'")
        return self.url(name)

    def url(self, name: str) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{name}"

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> PrivatePostgres:
        return self

    def __exit__(self, *exc) -> None:
        self.remove()
