"""The `payjudge` command line: the daemon, the JSON entry points and the admin tools."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from typing import Any

import click
import orjson

from .jsonapi import BadInput

# one encoder for every line of a --jsonl run (json.dumps would make one per call); the
# results are fresh trees of dicts and lists, never circular, so the check is skipped
_JSONL = json.JSONEncoder(separators=(",", ":"), check_circular=False)


def _jsonl_case(run: Callable[[dict], dict], line: str) -> str:
    """The answer to one --jsonl line, as the standard library's `json` would read and write
    it, through orjson (several times faster) wherever that gives the same result.

    Reading: orjson refuses what `json` accepts beyond the standard (NaN, Infinity, lone
    surrogates: read again by `json`, which also words the errors), and reads integers
    beyond 64 bits as floats. A number is never valid where `adjudicate` reads one and must
    be an `int` where `auction` does, so such a float can only make `run` refuse the
    document: a refused document is read again by `json` and run again, for the exact
    message. Writing: orjson writes the same compact text as `_JSONL` except that it does
    not escape non-ASCII characters (and refuses lone surrogates, integers beyond 64 bits):
    those answers are written by `_JSONL`."""
    try:
        try:
            result: Any = run(orjson.loads(line))
        except (orjson.JSONDecodeError, BadInput):
            result = run(json.loads(line))
    except json.JSONDecodeError as exc:
        result = {"error": f"malformed JSON: {exc}"}
    except BadInput as exc:
        result = {"error": str(exc)}
    try:
        text = orjson.dumps(result)
    except TypeError:
        return _JSONL.encode(result)
    return text.decode() if text.isascii() else _JSONL.encode(result)


# set once `adjudicate` or `auction` has written its whole answer (see `entry`)
_answered = False


def entry() -> None:
    """The `payjudge` console script: `main`, except that once `adjudicate` or `auction`
    has written its whole answer the process ends at once (its output flushed, then
    `os._exit` with click's exit code) instead of tearing the interpreter down. A long
    `--jsonl` run fills the engines' memos with everything it met (positions, unit lists,
    order texts), and freeing them object by object at exit cost more than the run's last
    few hundred cases (callgrind, 374 adjustment cases: 474k instructions per case with
    the teardown, 435k without; 35M instructions less per run). Nothing is pending by
    then: no file left open, no thread, no exit handler of ours. Every other command, and
    every refused input, ends the usual way."""
    try:
        main()
    except SystemExit as exc:
        if not _answered or not (exc.code is None or isinstance(exc.code, int)):
            raise
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except OSError:
            raise exc from None  # (the usual exit reports a closed pipe)
        os._exit(exc.code or 0)


def _json_main(run: Callable[[dict], dict], source: str, jsonl: bool) -> None:
    stream = sys.stdin if source in ("-", None) else None
    try:
        if stream:
            text = stream.read()
        else:
            with open(source, encoding="utf-8") as f:
                text = f.read()
    except OSError as exc:
        click.echo(f"payjudge: cannot read {source}: {exc.strerror}", err=True)
        sys.exit(2)
    if jsonl:
        for line in text.splitlines():
            if not line.strip():
                continue
            sys.stdout.write(_jsonl_case(run, line) + "\n")
        _done()
        return
    try:
        result: Any = run(json.loads(text))
    except json.JSONDecodeError as exc:
        click.echo(f"payjudge: malformed JSON: {exc}", err=True)
        sys.exit(2)
    except BadInput as exc:
        click.echo(f"payjudge: {' '.join(str(exc).split())}", err=True)
        sys.exit(2)
    sys.stdout.write(json.dumps(result, indent=1) + "\n")
    _done()


def _done() -> None:
    global _answered
    _answered = True


class _Commands(click.Group):
    """The command group: a configuration error, whichever command met it, ends the run
    with its one line (`Error: …`, status 1), never a traceback; so does a database that
    does not let us in (down, a wrong password), in the server's words."""

    def invoke(self, ctx: click.Context) -> Any:
        from .config import ConfigError

        try:
            return super().invoke(ctx)
        except ConfigError as exc:
            raise click.ClickException(str(exc)) from None
        except Exception as exc:
            if "sqlalchemy" not in sys.modules:
                raise  # (no database was opened: the JSON entry points stay light)
            from .store.db import unreachable

            refused = unreachable(exc)
            if refused is None:
                raise
            raise click.ClickException(f"the database (PAYJUDGE_DB_URL): {refused}") from None


@click.group(cls=_Commands)
@click.version_option(package_name="payjudge", message="%(prog)s %(version)s")
def main() -> None:
    """payjudge: a play-by-email judge for Payola Diplomacy."""


def _with_maps(run: Callable[..., dict]) -> Callable[[dict], dict]:
    """`run` with the installed maps (PAYJUDGE_MAPS_DIR or the configuration's maps_dir)."""
    from .config import ConfigError, load_config

    try:
        maps_dir = load_config().maps_path
    except ConfigError:
        maps_dir = None
    return lambda doc: run(doc, maps_dir=maps_dir, paths=True)


@main.command()
@click.argument("source", default="-")
@click.option("--jsonl", is_flag=True, help="Many cases, one JSON document per line.")
def adjudicate(source: str, jsonl: bool) -> None:
    """Adjudicate order sets from a position (shared/spec/judge-json.md); the variant is
    a shipped or installed map, or the path of a .map file."""
    from .jsonapi.adjudicate import run

    _json_main(_with_maps(run), source, jsonl)


@main.command()
@click.argument("source", default="-")
@click.option("--jsonl", is_flag=True, help="Many cases, one JSON document per line.")
def auction(source: str, jsonl: bool) -> None:
    """Run the Payola auction of one movement phase (shared/spec/judge-json.md)."""
    from .jsonapi.auction import run

    _json_main(_with_maps(run), source, jsonl)


def _config(config_path: str | None):
    from .config import load_config

    return load_config(config_path)  # a ConfigError is said in one line (`_Commands`)


def _open(url: str, setting: str = "PAYJUDGE_DB_URL"):
    """The database at `url`; a URL that cannot be one is a ConfigError naming the
    setting, without the password."""
    from .config import ConfigError, redact, redact_url
    from .store.db import Database, check_url

    try:
        check_url(url)
    except ValueError as exc:
        raise ConfigError(f"{setting} {redact_url(url)}: {redact(str(exc), url)}") from None
    return Database(url)


config_option = click.option(
    "--config",
    "config_path",
    default=None,
    envvar="PAYJUDGE_CONFIG",
    help="A payjudge.toml file (see config/payjudge.example.toml).",
)


@main.command()
@config_option
def serve(config_path: str | None) -> None:
    """Run the judge: SMTP listener, IMAP poller, processor, outbox sender, deadlines."""
    from .daemon import serve as run

    run(_config(config_path))  # a bad setting is one line of its log, status 1


@main.group()
def db() -> None:
    """The game store."""


@db.command("upgrade")
@config_option
def db_upgrade(config_path: str | None) -> None:
    """Create or migrate the database to the current schema."""
    from .store.db import upgrade

    cfg = _config(config_path)
    _open(cfg.database_url).dispose()  # (a bad URL is said in one line)
    if cfg.database_url.startswith("sqlite:///"):
        from pathlib import Path

        Path(cfg.database_url[len("sqlite:///") :]).parent.mkdir(parents=True, exist_ok=True)
    before, after = upgrade(cfg.database_url)
    if before == after:
        click.echo(f"database is up to date (revision {after})")
    else:
        click.echo(
            f"database migrated from {f'revision {before}' if before else 'an empty database'} "
            f"to revision {after}"
        )


def _database(config_path: str | None):
    return _open(_config(config_path).database_url)


@main.group()
def game() -> None:
    """Inspect games (the judge keeper's view: everything, money included)."""


@game.command("list")
@config_option
def game_list(config_path: str | None) -> None:
    from .store import repo

    database = _database(config_path)
    with database.transaction() as s:
        rows = repo.games(s)
        if not rows:
            click.echo("no games")
        for g in rows:
            deadline = g.deadline.strftime("%Y-%m-%d %H:%M UTC") if g.deadline else "-"
            click.echo(f"{g.name:16} {g.state:10} {g.phase or '-'!s:8} deadline {deadline}")


@game.command("show")
@click.argument("name")
@config_option
def game_show(name: str, config_path: str | None) -> None:
    from .game import money
    from .game.gamerules import listed_rules
    from .game.state import GameState, find_game
    from .game.turns import late_powers
    from .rules.flags import Flag
    from .vocabulary import GameStatus

    database = _database(config_path)
    with database.transaction() as s:
        g = find_game(s, name)
        if g is None:
            raise click.ClickException(f"no game {name!r}")
        st = GameState(s, g, _config(config_path).maps_path)
        click.echo(f"game {g.name}: {g.state}, phase {g.phase or '-'}, master {g.master_address}")
        click.echo(f"rules: {', '.join(listed_rules(list(g.rules), master=True)) or '-'}")
        click.echo(f"deadline: {g.deadline or '-'}")
        balances = money.balances(s, g)
        late = set(late_powers(st)) if st.turn is not None and g.state is GameStatus.ACTIVE else set()
        if Flag.EXCHANGE in st.rules:
            _exchange_show(st, balances, late)
            return
        control = st.control()  # the operator's view: controllers even under HIDE_DUMMIES
        for seat in g.seats:
            pos = st.position
            centers = len(pos.centers.get(seat.power, ())) if pos and seat.power else 0
            units = len(pos.units.get(seat.power, ())) if pos and seat.power else 0
            click.echo(
                f"  {seat.power or '(seat)':10} {seat.status:9} {seat.address or '-':30} "
                f"{balances.get(seat.power, 0) if seat.power else 0:5} AgP  "
                f"{centers:2} centres {units:2} units"
                f"{'  LATE' if seat.power in late else ''}"
                f"{f'  controlled by {control[seat.power]}' if seat.power in control else ''}"
            )


def _exchange_show(st, balances, late) -> None:
    """`game show` of an Exchange game: each company's treasury, CEO and shares held by
    investors; each investor's seat, cash and holdings (docs/exchange.md)."""
    from .game.exchange import company_standings, holdings
    from .game.investors import account

    pos = st.position
    for c in company_standings(st):
        centers = len(pos.centers.get(c.company, ())) if pos else 0
        units = len(pos.units.get(c.company, ())) if pos else 0
        click.echo(
            f"  {c.company:10} company   CEO {c.ceo or '-':12} {balances.get(c.company, 0):5} AgP  "
            f"{centers:2} centres {units:2} units  {c.outstanding} of {c.shares} shares held"
            f"{'  LATE' if c.company in late else ''}"
        )
    for seat in st.seats:
        if not seat.investor_name:
            click.echo(f"  {'(seat)':10} {seat.status:9} -")
            continue
        key = account(seat)
        held = ", ".join(f"{company} {n}" for company, n in holdings(st, key).items()) or "no shares"
        click.echo(
            f"  {seat.investor_name:10} {seat.status:9} {seat.address or '-':30} "
            f"{balances.get(key, 0):5} AgP  {held}{'  LATE' if key in late else ''}"
        )


@main.group()
def outbox() -> None:
    """The judge's outgoing mail."""


@outbox.command("show")
@click.option("--last", "count", flag_value=1, type=int, help="The newest mail (the default).")
@click.option(
    "-n", "count", type=click.IntRange(1, 1000), default=1, help="The N newest mails, newest first."
)
@click.option("--to", "recipient", metavar="ADDRESS", default=None, help="Only mail to this address.")
@config_option
def outbox_show(count: int, recipient: str | None, config_path: str | None) -> None:
    """Print outgoing mail decoded: its headers, then its text (no quoted-printable), sent
    or not, whether the judge relays it by SMTP or writes it into a Maildir."""
    from .service.outbox import newest_mails

    mails = newest_mails(_database(config_path), count=count, recipient=recipient)
    if not mails:
        raise click.ClickException("the outbox is empty" + (f" for {recipient}" if recipient else ""))
    click.echo(("\n" + "-" * 72 + "\n\n").join(m.render() for m in mails), nl=False)


@main.group("map")
def map_group() -> None:
    """Maps in DPjudge's .map syntax: show, check and install them."""


search_option = click.option(
    "--search",
    "search",
    multiple=True,
    type=click.Path(file_okay=False),
    help="Another folder where the files a map USEs may be (repeatable).",
)


def _load_map(name: str, search: tuple[str, ...], maps_dir):
    """A map by installed name, or from a file (its USEd files beside it, in --search
    folders, in the maps directory, then among the shipped maps)."""
    from pathlib import Path

    from .rules.mapfile import MapError, load_map_file, load_variant

    try:
        if Path(name).is_file():
            return load_map_file(name, [*map(Path, search), maps_dir])
        return load_variant(name, maps_dir)
    except MapError as exc:
        raise click.ClickException(f"{name}:\n" + "\n".join(exc.problems)) from None


def _map_text(m) -> str:
    lines = [
        f"map {m.name}: {len(m.powers)} powers, {len(m.supply_centers)} centres, "
        f"{m.victory} to win; first phase {m.first_phase} ({m.start_phase})",
        f"flow: {'  '.join(m.flow)}",
    ]
    if m.rule_flags():
        lines.append(f"rules: {' '.join(m.rule_flags())}")
    for p in m.powers:
        units = ", ".join(f"{t.value} {loc}" for t, loc in m.start_units.get(p.name, ()))
        extra = " (dummy)" if p.name in m.dummies else ""
        if p.name in m.leagues:
            extra += f" league {' '.join(m.leagues[p.name])}"
        if p.builds_anywhere:
            extra += "; builds in any owned centre"
        lines.append(f"  {p.written or p.name} ({p.adjective}, {p.initial or 'no initial'}){extra}")
        lines.append(
            f"      homes {' '.join(p.homes) or '-'}; centres "
            f"{' '.join(sorted(m.start_centers.get(p.name, ()))) or '-'}; units {units or '-'}"
        )
    owned = {c for p in m.powers for c in p.homes} | {c for cs in m.start_centers.values() for c in cs}
    lines.append(f"  neutral centres: {' '.join(sorted(m.supply_centers - owned)) or '-'}")
    lines.append(f"{len(m.provinces)} provinces:")
    for name, prov in sorted(m.provinces.items()):
        coasts = f" coasts {'/'.join(prov.coasts)}" if prov.coasts else ""
        sc = " *" if prov.supply_center else ""
        lines.append(f"  {name:4} {prov.full_name}{sc} ({prov.terrain.value.lower()}{coasts})")
    for when, changes in m.phase_lines:
        lines.append(f"in {when}: " + " / ".join(changes))
    for code, a, b in m.special_adjacency:
        lines.append(f"special adjacency {code}: {a} -> {b}")
    for note in m.notes:
        lines.append(f"note: {note}")
    return "\n".join(lines)


@map_group.command("show")
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="The map as JSON (for tools).")
@search_option
@config_option
def map_show(name: str, as_json: bool, search: tuple[str, ...], config_path: str | None) -> None:
    """Show an installed map (by NAME) or a map file (PATH)."""
    from .rules.mapview import map_json

    m = _load_map(name, search, _config(config_path).maps_path)
    if as_json:
        sys.stdout.write(json.dumps(map_json(m), indent=1, ensure_ascii=False) + "\n")
    else:
        click.echo(_map_text(m))


@map_group.command("check")
@click.argument("files", nargs=-1, required=True)
@search_option
@config_option
def map_check(files: tuple[str, ...], search: tuple[str, ...], config_path: str | None) -> None:
    """Validate map files without installing them."""
    maps_dir = _config(config_path).maps_path
    failed = 0
    for name in files:
        try:
            m = _load_map(name, search, maps_dir)
        except click.ClickException as exc:
            click.echo(exc.message, err=True)
            failed += 1
            continue
        click.echo(
            f"{name}: ok ({len(m.powers)} powers, {len(m.supply_centers)} centres, "
            f"{m.victory} to win, {m.start_phase}"
            f"{f', {len(m.notes)} notes' if m.notes else ''})"
        )
    if failed:
        raise SystemExit(1)


@map_group.command("install")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--drawing",
    "drawing",
    default=None,
    type=click.Path(exists=True, dir_okay=False),
    help="DPjudge's PostScript drawing of the map (default: the .ps beside the .map, if any).",
)
@search_option
@config_option
def map_install(
    files: tuple[str, ...], drawing: str | None, search: tuple[str, ...], config_path: str | None
) -> None:
    """Validate maps (with the files they USE) and copy them into the maps directory,
    each with its DPjudge drawing (`.ps`) when there is one: pictures are then drawn on it."""
    import shutil
    from pathlib import Path

    from .rules.mapfile import MapError, find_map, load_variant, map_sources, shipped_dir

    if drawing and len(files) != 1:
        raise click.ClickException("--drawing goes with one map")
    maps_dir = _config(config_path).maps_path
    for name in files:
        m = _load_map(name, search, maps_dir)
        sources = map_sources(name, [*map(Path, search), maps_dir])
        maps_dir.mkdir(parents=True, exist_ok=True)
        for source in sources:
            if source.parent.resolve() in (maps_dir.resolve(), shipped_dir().resolve()):
                continue
            if (
                source.suffix == ".map"
                and source.stem != Path(name).stem
                and find_map(source.stem, None) is not None
            ):
                click.echo(f"note: {source.name} now stands for the shipped map of that name")
            shutil.copyfile(source, maps_dir / source.name)
        try:
            load_variant(Path(name).stem, maps_dir)
        except MapError as exc:
            raise click.ClickException("\n".join(exc.problems)) from None
        click.echo(
            f"installed {Path(name).stem} in {maps_dir} ({len(m.powers)} powers, "
            f"{len(m.supply_centers)} centres, {m.victory} to win)"
        )
        _install_drawing(
            m,
            Path(drawing) if drawing else Path(name).with_suffix(".ps"),
            maps_dir,
            given=drawing is not None,
        )


def _install_drawing(m, path, maps_dir, *, given: bool) -> None:
    """Copy a DPjudge drawing beside the installed map, once it is known to fit it."""
    import shutil

    from .render.drawing import Drawing, DrawingError, ghostscript

    if not path.is_file():
        return
    try:
        problems = Drawing.read(path.read_bytes().decode("latin-1")).problems(m)
    except DrawingError as exc:
        problems = [str(exc)]
    if problems:
        message = f"{path.name} is not a drawing of {m.name}: " + "; ".join(problems[:5])
        if given:
            raise click.ClickException(message)
        click.echo(f"note: {message} (not installed; pictures are schematic)")
        return
    target = maps_dir / f"{m.name}.ps"
    if path.resolve() != target.resolve():
        shutil.copyfile(path, target)
    click.echo(
        f"installed its drawing {target.name}: pictures of {m.name} are drawn on it"
        + ("" if ghostscript() else " (once Ghostscript is installed: apt-get install ghostscript)")
    )


@map_group.command("list")
@config_option
def map_list(config_path: str | None) -> None:
    """The maps games can be created on: installed ones, then those payjudge ships."""
    from .game.lifecycle import available_maps

    for m in available_maps(_config(config_path).maps_path):
        click.echo(
            f"{m.name:16} {len(m.powers):2} powers {m.centres:3} centres "
            f"{m.victory:3} to win  {m.first_phase}"
        )


@main.command()
@click.argument("game_name", metavar="GAME", required=False)
@click.argument("phase", required=False)
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(dir_okay=False),
    help="The picture to write: FILE.png or FILE.svg.",
)
@click.option(
    "--json",
    "json_path",
    default=None,
    type=click.Path(exists=True, dir_okay=False),
    help="Draw a judge-json case (the `payjudge adjudicate` input) instead of a game.",
)
@click.option(
    "--scale",
    default=1.0,
    type=click.FloatRange(0.1, 4.0),
    help="Size of a PNG against the drawing's own (1000 pixels wide for the standard map).",
)
@config_option
def render(
    game_name: str | None,
    phase: str | None,
    output: str,
    json_path: str | None,
    scale: float,
    config_path: str | None,
) -> None:
    """Draw a game's board: PHASE's orders and results (default: the last phase played,
    or the board as it stands before any), as PNG or SVG."""
    from .render.board import board_svg
    from .render.files import geometry_for
    from .rules.calendar import calendar_of

    if not output.lower().endswith((".png", ".svg")):
        raise click.ClickException("the output must be a .png or .svg file")
    if json_path is not None:
        pos, outcomes, retreats = _json_picture(json_path)
    elif game_name:
        pos, outcomes, retreats = _game_picture(game_name, phase, config_path)
    else:
        raise click.ClickException("say which GAME to draw, or give --json CASE.json")
    cfg = _config(config_path)
    cache = cfg.data_dir / "pictures" / "maps" if cfg.data_dir.is_dir() else None
    calendar = calendar_of(pos.map)  # the phase as the map names it (A.D. 1430 Adjustments)
    geometry = geometry_for(pos.map, cfg.maps_path, cache)
    text = board_svg(geometry, pos, outcomes, retreats=retreats, title=calendar.title(pos.phase))
    if output.lower().endswith(".svg"):
        data = text.encode("utf-8")
    else:
        from .render.raster import png

        data = png(text, zoom=scale)
    with open(output, "wb") as fh:
        fh.write(data)
    click.echo(f"{output}: {calendar.short(pos.phase)} ({len(data)} bytes)")


def _json_picture(path: str):
    """The last phase of a judge-json case: its orders and results (or its position)."""
    from .jsonapi.common import position, power_name
    from .rules.turn import advance

    try:
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
        pos = position(doc)
        report = None
        for order_set in doc.get("orders", []):
            report, pos = advance(pos, {power_name(pos.map, p): lines for p, lines in order_set.items()})
    except (OSError, json.JSONDecodeError, BadInput, AttributeError) as exc:
        raise click.ClickException(f"cannot draw {path}: {exc}") from None
    if report is None:
        return pos, (), {}
    return report.before, report.outcomes, report.dislodged


def _game_picture(name: str, phase: str | None, config_path: str | None):
    from .game.state import GameState, find_game, turns
    from .render.stored import stored_picture

    database = _database(config_path)
    with database.transaction() as s:
        g = find_game(s, name)
        if g is None:
            raise click.ClickException(f"no game {name!r}")
        st = GameState(s, g, _config(config_path).maps_path)
        rows = turns(s, g)
        if phase:
            try:
                wanted = st.calendar.parse(phase)  # the map's names, or the stored ones
            except ValueError as exc:
                raise click.ClickException(str(exc)) from None
            chosen = [t for t in rows if t.phase == wanted]
            if not chosen:
                played = " ".join(st.calendar.short(t.phase) for t in rows) or "none yet"
                raise click.ClickException(f"{name} has no phase {st.calendar.short(wanted)}: {played}")
        else:
            chosen = [t for t in rows if t.report] or rows
        if not chosen:
            raise click.ClickException(f"{name} has not started: no board to draw")
        turn = chosen[-1]
        return stored_picture(st.map, turn.position, turn.report)


@main.command()
@click.argument("message_ids", nargs=-1, type=int)
@click.option("--all", "all_", is_flag=True, help="Every quarantined message.")
@config_option
def requeue(message_ids: tuple[int, ...], all_: bool, config_path: str | None) -> None:
    """Put quarantined messages back in the queue (after fixing what crashed on them)."""
    from .store import repo

    database = _database(config_path)
    with database.transaction() as s:
        if not all_ and not message_ids:
            rows = repo.quarantined(s)
            for r in rows:
                first = (r.error or "").strip().splitlines()[-1:] or [""]
                click.echo(f"{r.id:6} {r.sender or '-':30} {first[0][:60]}")
            if not rows:
                click.echo("no quarantined messages")
            return
        ids = [r.id for r in repo.quarantined(s, None if all_ else message_ids)]
        repo.requeue(s, ids)
    click.echo(f"requeued {len(ids)} message(s)")


@main.command()
@click.argument("files", nargs=-1, type=click.Path(exists=True, dir_okay=False))
@config_option
def inject(files: tuple[str, ...], config_path: str | None) -> None:
    """Store .eml files as inbound mail, as if they had arrived (for tests and recovery)."""
    from .store.mailbox import SqlInbound

    store = SqlInbound(_database(config_path))
    for name in files:
        with open(name, "rb") as fh:
            result = store.store_inbound(fh.read(), source="cli")
        click.echo(f"{name}: {result.value}")


@main.command("process")
@config_option
def process_cmd(config_path: str | None) -> None:
    """Process stored messages and due deadlines once, then exit (no daemon needed)."""
    from .memory import SystemClock
    from .service.deadlines import tick_all
    from .service.processor import process_pending

    cfg = _config(config_path)
    database = _open(cfg.database_url)
    n = process_pending(database, cfg, SystemClock(), limit=10_000)
    actions = tick_all(database, cfg, SystemClock().now())
    click.echo(f"processed {n} message(s); {len(actions)} deadline action(s)")
    for a in actions:
        click.echo(f"  {a}")


@main.command()
@click.argument("name")
@click.option("--into", default=None, help="Database URL to rebuild into (default: a temporary SQLite file).")
@config_option
def replay(name: str, into: str | None, config_path: str | None) -> None:
    """Rebuild a game's history from its stored messages and compare it with the record."""
    import tempfile
    from pathlib import Path

    from .service.replay import replay as run
    from .store.db import upgrade

    cfg = _config(config_path)
    source = _open(cfg.database_url)
    if into is None:
        into = f"sqlite:///{Path(tempfile.mkdtemp(prefix='payjudge-replay-')) / 'replay.sqlite'}"
    target = _open(into, "--into")
    upgrade(into)
    try:
        report = run(source, target, name.lower(), cfg)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"replayed {report.messages} message(s) of {name} into {into}")
    click.echo(f"{report.identical} of {report.phases} records identical")
    for d in report.differences:
        click.echo(f"  DIFFERENT {d}")
    if not report.ok:
        raise SystemExit(1)


@main.command("rules-doc")
def rules_doc() -> None:
    """Print docs/rules.md, the table of rule flags, generated from the flag registry."""
    from .reports import render_rules_doc

    click.echo(render_rules_doc(), nl=False)


@main.command()
@config_option
def health(config_path: str | None) -> None:
    """Exit 0 when the database answers, the SMTP listener accepts connections and the
    IMAP poller (when there is one) is logged in and working."""
    import socket
    from datetime import UTC, datetime

    from .config import redact
    from .heartbeat import heartbeat_path, read_heartbeat
    from .store import repo
    from .store.db import unreachable

    cfg = _config(config_path)
    database = _database(config_path)
    try:
        with database.reading() as s:  # never waits for the write lock
            repo.ping(s)
        if cfg.listen:
            host, port = cfg.listen
            socket.create_connection((host, port), timeout=5).close()
    except Exception as exc:
        refused = unreachable(exc)
        said = (
            f"the database (PAYJUDGE_DB_URL): {refused}"
            if refused is not None
            else redact(str(exc).split("\n", 1)[0], cfg.database_url)  # one line, no password
        )
        raise click.ClickException(f"unhealthy: {said}") from None
    if cfg.imap_url:
        path = heartbeat_path(cfg.data_dir)
        try:
            beat = read_heartbeat(path)
        except (OSError, ValueError, KeyError) as exc:
            why = exc.strerror if isinstance(exc, OSError) else "unreadable"
            raise click.ClickException(f"unhealthy: no IMAP poller heartbeat in {path} ({why})") from None
        problem = beat.problem(datetime.now(UTC))
        if problem:
            raise click.ClickException(f"unhealthy: {problem}")
    click.echo("ok")


if __name__ == "__main__":
    main()
