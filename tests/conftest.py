"""Shared fixtures (the real-server fixtures live in tests/servers.py), and the check that
the suite runs on the engines it means to: the compiled ones (`make native`), or the
sources when PAYJUDGE_PURE=1 says so (payjudge/native.py)."""

import os

import pytest

from payjudge import native
from tests.servers import (  # noqa: F401  (fixtures are found by name)
    dovecot,
    imap_account,
    imap_server,
    pg_module_url,
    pg_url,
    smtp_sink,
    smtp_sink_server,
)


def pytest_configure(config: pytest.Config) -> None:
    # a missing or out-of-date build would quietly test the sources instead: refuse that
    state = native.status()
    if not state["active"] and os.environ.get("PAYJUDGE_PURE", "") in ("", "0"):
        raise pytest.UsageError(
            f"the compiled engines are not in use: {state['reason']}. "
            "`make native` builds them; PAYJUDGE_PURE=1 runs the tests on the sources."
        )


def pytest_report_header(config: pytest.Config) -> str:
    state = native.status()
    if state["active"]:
        return f"payjudge engines: compiled ({len(state['modules'])} modules, payjudge/_compiled)"
    return f"payjudge engines: from source ({state['reason']})"
