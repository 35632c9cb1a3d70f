"""Shared fixtures. The real-server fixtures live in tests/servers.py."""

from tests.servers import (  # noqa: F401  (fixtures are found by name)
    dovecot,
    imap_account,
    imap_server,
    pg_module_url,
    pg_url,
    smtp_sink,
    smtp_sink_server,
)
