"""Shared fixtures (the real-server fixtures live in tests/servers.py), and the check that
the suite runs on the engines it means to: the compiled ones (`make native`), or the
sources when PAYJUDGE_PURE=1 says so (payjudge/native.py)."""

import os

import pytest
from argon2 import PasswordHasher

from payjudge import native
from payjudge.game import security
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


# The judge hashes passwords with OWASP's minimum argon2id settings (19 MiB, 2 passes):
# about 20 ms a hash or a first check. The suite creates some thousands of games and seats,
# where those 20 ms took a fifth of the service tests' time and proved nothing each time.
# In this process passwords are hashed with the same code, the same argon2id, at the
# lightest settings (each hash names its own settings, so checking it runs as always), as
# Django's documentation advises for test suites. The daemons the suite starts as
# processes (tests/daemon) hash at the real settings, and `real_hashing` keeps them for a
# test here (tests/service/test_security.py checks them).
TEST_HASHER = PasswordHasher(time_cost=1, memory_cost=64, parallelism=1)


@pytest.fixture(autouse=True)
def _light_hashing(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    if request.node.get_closest_marker("real_hashing") is None:
        monkeypatch.setattr(security, "_hasher", TEST_HASHER)


# The files whose tests take longest (measured with --durations on the whole suite), the
# longest first. pytest-xdist deals each worker a run of the collected tests and an idle
# worker steals from the end of another's: with these first, the last tests to run are
# short ones, and neither worker is left alone with a 30-second game at the end.
LONG_FIRST = (
    "tests/sim/test_simulator.py",
    "tests/daemon/test_faults.py",
    "tests/service/test_variant_games.py",
    "tests/payola/test_overspend.py",
    "tests/service/test_variation_replay.py",
    "tests/service/test_blind.py",
    "tests/daemon/test_config_errors.py",
    "tests/service/test_tincup.py",
    "tests/daemon/test_smtp.py",
    "tests/daemon/test_worker.py",
    "tests/service/test_conclusion_flags.py",
    "tests/web/test_signin_browser.py",
    "tests/service/test_deadline_flags.py",
    "tests/service/test_replay.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: i for i, name in enumerate(LONG_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))  # stable
