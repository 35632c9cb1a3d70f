"""The mail a processed phase produces: public results, private statements, income.

Public mail goes to every player, observer and the Master; a statement or an income
report goes only to the power it belongs to (rules 2.5, 5.7), and the Master gets a report
of each movement phase with every statement and every unit's bids. Views are plain data; the
templates in `templates/` do all the wording.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from ..payola.exchange.accounts import investor_name, is_investor
from ..payola.exchange.views import results_from_json
from ..payola.rules import Flag
from ..payola.statement import statement_view
from ..rules.names import PowerName
from ..rules.phase import Phase, PhaseType, Season
from ..rules.position import Position
from ..store.models import Turn
from ..templating import render
from ..text.compose import Attachment
from ..vocabulary import MailKind, SeatKind, SeatStatus
from .blind import NOBODY, is_blind, is_omniscient, tailor
from .hidden_builds import found_units, hide_builds, hides
from .mailer import Mailer
from .pictures import Pictures, wants_map
from .state import GameState
from .timing import Timing, show_time
from .turns import TurnComputation, absences, chart_json

_RESULT_NOTE = {
    "bounced": "bounce",
    "no convoy": "no convoy",
    "disrupted": "disrupted",
    "cut": "cut",
    "void": "void",
    "dislodged": "dislodged",
}


def public_recipients(st: GameState) -> list[str]:
    out = [s.address for s in st.seats if s.address and s.status is SeatStatus.PLAYING]
    out += [o.address for o in st.observers()]
    out.append(st.game.master_address)
    return out


def power_address(
    st: GameState, power: PowerName, control: Mapping[PowerName, PowerName] | None = None
) -> list[str]:
    """Where a power's private mail goes: its player, and the player of the power that
    controls it (CONTROL, a vassal state), who gives its orders and spends its money.
    `control` is the control to go by (the phase's own for its statements), the current
    one if not given. In an Exchange game: an investor's account, its investor; a company,
    its CEO (docs/exchange.md, "What each party sees")."""
    if Flag.EXCHANGE in st.rules:
        return _exchange_address(st, power)
    seat = st.seat(power)
    out = [seat.address] if seat and seat.address and seat.status is SeatStatus.PLAYING else []
    controller = (st.control() if control is None else control).get(power)
    if controller is not None and controller != power:
        out += [a for a in power_address(st, controller, {}) if a not in out]
    return out


def _exchange_address(st: GameState, account: PowerName) -> list[str]:
    if is_investor(account):
        name: str | None = investor_name(account)
    else:
        name = (st.market() or {}).get("ceos", {}).get(str(account))
    for seat in st.seats:
        if seat.kind is SeatKind.INVESTOR and name and seat.investor_name == name:
            return [seat.address] if seat.address and seat.status is SeatStatus.PLAYING else []
    return []


def shows_control(st: GameState, *, master: bool) -> bool:
    """Whether a text may say who controls whom (the vassal states, the reason a vassal's
    unit was destroyed): always to the Master, to the others unless HIDE_DUMMIES hides
    every controller (seed 003 §1.6)."""
    return master or Flag.HIDE_DUMMIES not in st.rules


def results_view(
    st: GameState,
    report: dict[str, Any],
    *,
    deadline: datetime | None,
    viewer: str | None = None,
    master: bool = False,
) -> dict[str, Any]:
    """The public results of a phase, from its stored report (also used by HISTORY); in a
    BLIND game with a `viewer` power, only that power's share of them (game/blind.py).
    `master`: for the Master (and BLIND's omniscient), who see what HIDE_DUMMIES hides."""
    view = _full_view(st, report, deadline=deadline)
    if not shows_control(st, master=master):
        view["control_changes"] = []
        view["control_shown"] = False
    if viewer is not None and is_blind(st.rules.flags):
        return tailor(view, report, viewer)
    return view


def _full_view(st: GameState, report: dict[str, Any], *, deadline: datetime | None) -> dict[str, Any]:
    m = st.map
    phase = Phase.parse(report["phase"])
    orders = hide_builds(report["orders"]) if hides(st.rules, phase) else report["orders"]
    by_power: dict[str, list[dict]] = {}
    for o in orders:
        notes = []
        if o["result"] in _RESULT_NOTE:
            notes.append(_RESULT_NOTE[o["result"]])
        if o["dislodged"] and o["result"] != "dislodged":
            notes.append("dislodged")
        by_power.setdefault(o["power"], []).append(
            {"order": o["order"], "notes": notes, "default": o["default"]}
        )
    nxt = Phase.parse(report["next_phase"])
    zone = Timing.from_json(st.game.timing).zone
    return {
        "game_name": st.game.name,
        "calendar": st.calendar,  # `|phase` names the phases as the map does
        "phase": phase.title,
        "powers": [
            {
                "name": p.name,
                "adjective": p.adjective.title(),
                "orders": sorted(by_power[p.name], key=lambda x: x["order"]),
            }
            for p in m.powers
            if p.name in by_power
        ],
        "dislodged": [
            {"power": p, "unit": d["unit"], "retreats": d["retreats"]}
            for p, ds in sorted(report["dislodged"].items())
            for d in ds
        ],
        "destroyed": report.get("destroyed", []),
        "stranded": report.get("stranded", []),
        "found": found_units(st, phase),  # HIDE_BUILDS: the units built in secret last winter
        "center_changes": report.get("center_changes", []),
        "torn": report.get("torn", []),
        "control_changes": report.get("control_changes", []),
        "control_shown": True,
        "centers": [
            {"power": p, "count": len(report["centers"].get(p, [])), "centers": report["centers"].get(p, [])}
            for p in m.power_names
        ],
        "next_phase": nxt.title,
        "deadline": show_time(deadline, zone) if deadline and not report.get("winner") else None,
        "winner": report.get("winner"),
        "shared": len(report.get("winners", ())) > 1,
        "totals": [],
        "glimpses": [],
        "viewer": None,
    }


def send_results(
    st: GameState, comp: TurnComputation, report: dict[str, Any], mailer: Mailer, *, preview: bool = False
) -> None:
    """The public results; a preview goes to the Master only and names two deadlines: the
    current phase's, which still holds, and the one the next phase would get if the phase
    were processed now (a processed phase has already moved the game's deadline on)."""
    view = _master_view(st, comp, report, mailer, preview=preview)
    view["totals"] = public_totals(st, comp)
    shown_phase = st.calendar.short(Phase.parse(report["phase"]))
    subject = f"{'PREVIEW ' if preview else ''}Diplomacy results {st.game.name} {shown_phase}"
    if is_blind(st.rules.flags) and not preview:
        _send_blind_results(st, comp.report.before, report, view, subject, mailer)
        return
    to = [st.game.master_address] if preview else public_recipients(st)
    if not preview and Flag.IGNORE_RESULTS in st.rules:
        to = [a for a in to if a != st.game.master_address]
    audiences = [(to, view)] if preview else _audiences(st, report, view, to)
    picture = _results_picture(st, comp, report, mailer)
    for audience, shown in audiences:
        _send_pictured(mailer, st, audience, shown, subject, picture, preview=preview)


def _send_pictured(
    mailer: Mailer,
    st: GameState,
    audience: list[str],
    shown: dict[str, Any],
    subject: str,
    picture: tuple[Attachment, ...],
    *,
    preview: bool,
) -> None:
    """One view's results mail; the players who said SET MAP OFF get it without the picture."""
    plain = (
        {s.address.lower() for s in st.seats if s.address and not wants_map(st.game, s.power)}
        if picture
        else set()
    )
    for group, attachment in (
        ([a for a in audience if a and a.lower() not in plain], picture),
        ([a for a in audience if a and a.lower() in plain], ()),
    ):
        mailer.send(
            group,
            subject,
            "results.txt.j2",
            kind=MailKind.PREVIEW if preview else MailKind.RESULTS,
            game=st.game,
            preview=preview,
            attachments=attachment,
            picture=attachment[0].filename if attachment else None,
            insets=len(attachment[1:]),
            **shown,
        )


def _master_view(
    st: GameState, comp: TurnComputation, report: dict[str, Any], mailer: Mailer, *, preview: bool
) -> dict[str, Any]:
    """The whole results, as the Master reads them; a preview's with both deadlines."""
    if not preview:
        return results_view(st, report, deadline=st.game.deadline, master=True)
    timing = Timing.from_json(st.game.timing)
    would_be = timing.deadline(comp.next_position.phase.type, mailer.now, absences=absences(st))
    view = results_view(st, report, deadline=would_be, master=True)
    view["current_deadline"] = show_time(st.game.deadline, timing.zone) if st.game.deadline else None
    return view


def _audiences(
    st: GameState, report: dict[str, Any], view: dict[str, Any], to: list[str]
) -> list[tuple[list[str], dict[str, Any]]]:
    """Who reads which view: HIDE_DUMMIES: the Master's copy alone says who controls whom."""
    if shows_control(st, master=False):
        return [(to, view)]
    public = {**results_view(st, report, deadline=st.game.deadline), "totals": view["totals"]}
    master = [a for a in to if a == st.game.master_address]
    return [([a for a in to if a not in master], public), (master, view)]


def _results_picture(
    st: GameState, comp: TurnComputation, report: dict[str, Any], mailer: Mailer
) -> tuple[Attachment, ...]:
    """The pictures of the phase (the board, and a large map's insets), or none."""
    picture = Pictures.of(mailer.config).attachments(st.game, st.map, comp.report.before, report)
    if hides(st.rules, comp.report.phase) and any(o["order"].startswith("BUILD ") for o in report["orders"]):
        return ()  # HIDE_BUILDS: a picture of the winter would show where the builds are
    return picture


def omniscient(st: GameState) -> list[str]:
    """The addresses of the observers the Master made OMNISCIENT (BLIND games)."""
    return [o.address for o in st.observers() if o.address and is_omniscient(st.game, o.name)]


def _send_results_mail(
    mailer: Mailer, st: GameState, to: list[str], subject: str, picture: Any, view: dict[str, Any]
) -> None:
    mailer.send(
        to,
        subject,
        "results.txt.j2",
        kind=MailKind.RESULTS,
        game=st.game,
        preview=False,
        attachments=picture,
        picture=picture[0].filename if picture else None,
        insets=len(picture[1:]),
        **view,
    )


def _send_blind_results(
    st: GameState,
    before: Position,
    report: dict[str, Any],
    view: dict[str, Any],
    subject: str,
    mailer: Mailer,
) -> None:
    """BLIND: each power its own share, with a picture of what it saw; the Master and the
    omniscient the whole results and picture; the other observers only the news that the
    game moved on."""
    pictures = Pictures.of(mailer.config)
    drawn = not (
        hides(st.rules, before.phase) and any(o["order"].startswith("BUILD ") for o in report["orders"])
    )
    for power in st.map.power_names:
        to = power_address(st, power)
        if to:
            tailored = results_view(st, report, deadline=st.game.deadline, viewer=power)
            picture = (
                pictures.attachments(st.game, st.map, before, report, viewer=power)
                if drawn and wants_map(st.game, power)
                else ()
            )
            _send_results_mail(mailer, st, to, subject, picture, tailored)
    full = [] if Flag.IGNORE_RESULTS in st.rules else [st.game.master_address]
    full += omniscient(st)
    if full:
        picture = pictures.attachments(st.game, st.map, before, report, whole=True) if drawn else ()
        _send_results_mail(mailer, st, full, subject, picture, view)
    told = {a.lower() for a in full}
    others = [o.address for o in st.observers() if o.address and o.address.lower() not in told]
    if others:
        mailer.send(
            others,
            subject,
            "results_moved.txt.j2",
            kind=MailKind.RESULTS,
            game=st.game,
            game_name=st.game.name,
            phase=view["phase"],
            next_phase=view["next_phase"],
            deadline=view["deadline"],
            winner=view["winner"],
        )


def public_totals(st: GameState, comp: TurnComputation) -> list[dict[str, Any]]:
    """Under PUBLIC_TOTALS, the total each unit accepted in a movement phase (who paid it
    stays secret until the end of the game); otherwise nothing."""
    if Flag.PUBLIC_TOTALS not in st.rules or comp.auction is None:
        return []
    auction = comp.auction
    return [
        {"power": auction.owners[province], "unit": str(auction.units[province]), "total": total}
        for province, total in sorted(auction.totals.items(), key=lambda kv: (auction.owners[kv[0]], kv[0]))
    ]


def send_statements(st: GameState, comp: TurnComputation, mailer: Mailer, *, preview: bool = False) -> None:
    """Each power's private account statement (rule 5.7; none under NO_LEDGERS), and the
    Master's report of the phase: the acceptance lists used, every unit's bids and every
    statement (DPjudge's Master could always read the chart). A preview is the report alone."""
    if comp.auction is None:
        return
    phase = comp.report.phase
    views = []
    # Exchange Payola: each investor who sent a sheet gets its own statement too
    investors = sorted(p for p in comp.sheets_used if is_investor(p))
    for power in [*st.map.power_names, *investors]:
        if Flag.NO_LEDGERS in st.rules:
            break
        if comp.balances_before.get(power) is None and power not in comp.auction.spent:
            continue
        view = statement_view(
            comp.auction, power, phase, st.rules, sheet_text=comp.sheets_used.get(power, "")
        )
        if view is None:
            continue
        views.append(view)
        if not preview:
            mailer.send(
                # the statement goes to whoever controlled the power during the phase
                power_address(st, power, comp.control_before),
                f"Payola bribe results {st.game.name} {st.calendar.short(phase)}",
                "statement.txt.j2",
                kind=MailKind.STATEMENT,
                game=st.game,
                v=view,
            )
    mailer.send(
        [st.game.master_address],
        f"{'PREVIEW ' if preview else ''}Payola Master's report {st.game.name} {st.calendar.short(phase)}",
        "master_report.txt.j2",
        kind=MailKind.MASTER_REPORT,
        game=st.game,
        preview=preview,
        game_name=st.game.name,
        phase=phase.title,
        accept=comp.accept_used,
        chart=chart_json(comp.auction),
        statements=views,
    )


def send_income(st: GameState, comp: TurnComputation, mailer: Mailer) -> None:
    """Each power's income statement after the year's last phase (rule 2.1)."""
    if not comp.income_lines or (Flag.NO_LEDGERS in st.rules):
        return
    following = comp.next_position.phase
    # Exchange Payola: the year's income comes before its own winter's exchange phase
    year = following.year if following.is_exchange else following.year - 1
    # with INCOME EVERY MOVEMENT (rule 6.6) income also comes within a year
    within = following.year == comp.report.phase.year and not following.is_exchange
    # the year as the map counts it: that of the adjustments the income follows
    shown_year = st.calendar.year(Phase(year, Season.WINTER, PhaseType.ADJUSTMENTS))
    period = st.calendar.title(following) if within else f"THE YEAR {shown_year}"
    for power, line in comp.income_lines.items():
        to = power_address(st, power)
        if not to:
            continue
        mailer.send(
            to,
            f"Payola income report {st.game.name} {st.calendar.short(following) if within else shown_year}",
            "income.txt.j2",
            kind=MailKind.INCOME,
            game=st.game,
            game_name=st.game.name,
            year=shown_year,
            period=period,
            line=line,
            hoarding=(Flag.NO_HOARDING in st.rules),
            zerosum=(Flag.ZEROSUM in st.rules),
            progressive=(Flag.PROGRESSIVE in st.rules),
            previous=comp.balances_after.get(power, 0) - comp.income.get(power, 0),
            centers=len(comp.next_position.centers.get(power, ())),
        )


def broadcast(
    st: GameState,
    mailer: Mailer,
    subject: str,
    template: str,
    *,
    kind: MailKind = MailKind.NOTICE,
    master: bool = True,
    **view: Any,
) -> None:
    """Mail everyone in the game; `master=False` spares the Master (IGNORE_RESULTS)."""
    to = public_recipients(st)
    if not master:
        to = [a for a in to if a != st.game.master_address]
    mailer.send(to, subject, template, kind=kind, game=st.game, game_name=st.game.name, **view)


def played_results(st: GameState, turn: Turn, *, viewer: str | None = None, master: bool = False) -> str:
    """A played phase's public results, as its results mail had them, by the phase's kind:
    an exchange phase's prices, dividends, CEOs and worths (public to all, docs/exchange.md),
    a Diplomacy phase's orders and outcomes; in a BLIND game as `viewer` saw them (None:
    in full, for the Master and the omniscient; NOBODY: only that the phase was played).
    `master`: for the Master or the omniscient, who see the controllers HIDE_DUMMIES hides."""
    report = turn.report or {}
    if turn.phase.is_exchange:
        return render(
            "exchange_results.txt.j2", v=results_from_json(str(turn.phase), report), calendar=st.calendar
        )
    if viewer == NOBODY:
        return render(
            "results_moved.txt.j2",
            game_name=st.game.name,
            phase=turn.phase.title,
            next_phase=Phase.parse(report["next_phase"]).title,
            calendar=st.calendar,
            deadline=None,
            winner=report.get("winner"),
        )
    return render(
        "results.txt.j2",
        preview=False,
        **results_view(st, report, deadline=None, viewer=viewer, master=master),
    )


def render_history(
    st: GameState, played: list[Turn], *, viewer: str | None = None, master: bool = False
) -> list[str]:
    """Every played phase's public results, oldest first (`played_results`)."""
    return [played_results(st, turn, viewer=viewer, master=master) for turn in played]
