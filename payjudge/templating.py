"""Jinja environment for every text the judge sends: templates live in `templates/`
(shipped inside the wheel as `payjudge/templates`)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import jinja2

from .payola.exchange.accounts import account_label
from .rules.calendar import Calendar, PhaseTitle
from .rules.phase import Phase
from .text.visible import visible


def phase_name(value: object, calendar: Calendar | None = None) -> str:
    """The one way mail names a phase: `S1901M` (or a Phase) as `Spring 1901 Movement`, or
    as the game's map names it (`A.D. 1430 Adjustments`) when given the map's calendar.
    A name the calendar gave is printed as it is."""
    if isinstance(value, PhaseTitle):
        return value
    try:
        phase = Phase.parse(str(value))
    except ValueError:
        return str(value)
    return calendar.title(phase) if calendar is not None else phase.title


@jinja2.pass_context
def _phase_filter(context: jinja2.runtime.Context, value: object) -> str:
    """`|phase`: by the map's calendar when the template is given one as `calendar`
    (the mailer gives it for every mail of a game), else on the standard cycle."""
    calendar = context.get("calendar")
    return phase_name(value, calendar if isinstance(calendar, Calendar) else None)


def templates_dir() -> Path:
    packaged = Path(__file__).parent / "templates"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent / "templates"


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # plain-text mail
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        # the templates ship inside the package and do not change under a running judge:
        # no need to stat each file again at every mail (a few µs of every statement)
        auto_reload=False,
        # every value printed, the sender's text among them, with its control characters
        # made visible (a template's own text has none)
        finalize=_visible,
    )
    # no globals (range, namespace, …): `render` gives a template the caller's variables alone
    env.globals.clear()
    env.filters["rjust"] = lambda value, width: str(value).rjust(width)
    env.filters["ljust"] = lambda value, width: str(value).ljust(width)
    env.filters["clip"] = clip
    env.filters["fit"] = fit
    env.filters["utf8len"] = lambda value: len(str(value).encode("utf-8"))
    env.filters["phase"] = _phase_filter
    # Exchange Payola: an investor's account (`@ALICE`) is shown by the investor's name
    env.filters["account"] = account_label
    return env


def _visible(value: object) -> object:
    return visible(value) if isinstance(value, str) else value


def clip(text: str, width: int) -> str:
    """At most about `width` characters of one line, saying how much was left out."""
    if len(text) <= width:
        return text
    return f"{text[:width]}… ({len(text) - width:,} more characters)"


def fit(text: str, size: int) -> str:
    """The whole lines of `text` that fit in `size` bytes of UTF-8 (a bound on a mail)."""
    data = text.encode("utf-8")
    if len(data) <= size:
        return text
    cut = data[:size].decode("utf-8", errors="ignore")
    return cut.rpartition("\n")[0] + "\n" if "\n" in cut else cut


def render(name: str, **context: object) -> str:
    env = environment()
    template = env.get_template(name)
    # `shared`: the template sees the caller's variables alone. No template uses Jinja's
    # globals (range, namespace, …), and merging them in (a ChainMap, walked in Python)
    # was a third of rendering an account statement, made for every power every phase.
    try:
        return "".join(template.root_render_func(template.new_context(context, shared=True)))
    except Exception:
        env.handle_exception()  # Jinja's traceback, pointing at the template's line


@lru_cache(maxsize=1)
def html_environment() -> jinja2.Environment:
    """The status page's templates (`templates/web/`): HTML, so every value is escaped."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        undefined=jinja2.StrictUndefined,
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["phase"] = _phase_filter
    return env


def render_html(name: str, **context) -> str:
    return html_environment().get_template(name).render(**context)
