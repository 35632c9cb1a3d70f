"""The `payjudge` command line: the daemon, the JSON entry points and the admin tools."""

from __future__ import annotations

import json
import sys
from typing import Any, Callable

import click

from .jsonapi import BadInput


def _json_main(run: Callable[[dict], dict], source: str, jsonl: bool) -> None:
    stream = sys.stdin if source in ("-", None) else None
    try:
        text = stream.read() if stream else open(source, encoding="utf-8").read()
    except OSError as exc:
        click.echo(f"payjudge: cannot read {source}: {exc.strerror}", err=True)
        sys.exit(2)
    if jsonl:
        for line in text.splitlines():
            if not line.strip():
                continue
            try:
                result: Any = run(json.loads(line))
            except json.JSONDecodeError as exc:
                result = {"error": f"malformed JSON: {exc}"}
            except BadInput as exc:
                result = {"error": str(exc)}
            sys.stdout.write(json.dumps(result, separators=(",", ":")) + "\n")
        return
    try:
        result = run(json.loads(text))
    except json.JSONDecodeError as exc:
        click.echo(f"payjudge: malformed JSON: {exc}", err=True)
        sys.exit(2)
    except BadInput as exc:
        click.echo(f"payjudge: {' '.join(str(exc).split())}", err=True)
        sys.exit(2)
    sys.stdout.write(json.dumps(result, indent=1) + "\n")


@click.group()
def main() -> None:
    """payjudge: a play-by-email judge for Payola Diplomacy."""


@main.command()
@click.argument("source", default="-")
@click.option("--jsonl", is_flag=True, help="Many cases, one JSON document per line.")
def adjudicate(source: str, jsonl: bool) -> None:
    """Adjudicate order sets from a position (shared/spec/judge-json.md)."""
    from .jsonapi.adjudicate import run
    _json_main(run, source, jsonl)


@main.command()
@click.argument("source", default="-")
@click.option("--jsonl", is_flag=True, help="Many cases, one JSON document per line.")
def auction(source: str, jsonl: bool) -> None:
    """Run the Payola auction of one movement phase (shared/spec/judge-json.md)."""
    from .jsonapi.auction import run
    _json_main(run, source, jsonl)


if __name__ == "__main__":
    main()
