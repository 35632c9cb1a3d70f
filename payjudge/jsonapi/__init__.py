"""The JSON entry points `payjudge adjudicate` and `payjudge auction` (shared/spec/judge-json.md)."""

from __future__ import annotations


class BadInput(ValueError):
    """Input that cannot be processed at all: exit status 2 (or an `error` line with --jsonl)."""
