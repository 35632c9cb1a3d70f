"""`payjudge auction`: offer sheets in, orders and money out (shared/spec/judge-json.md)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..payola.acceptance import AcceptanceError, AcceptanceList, parse_acceptance
from ..payola.auction import Auction, Method, run_auction
from ..payola.offers import Sheet
from ..payola.rules import PayolaRules, RulesError
from ..payola.statement import statement_view
from ..reports import render_statement
from ..rules.flag_registry import assess
from ..rules.geography import Map
from ..rules.names import PowerName
from ..rules.phase import PhaseType
from ..text.sheet import parse_sheet
from . import BadInput
from .common import position, power_name


def _mapping(doc: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = doc.get(key) or {}
    if not isinstance(value, dict):
        raise BadInput(f"{key} must map each power to a value")
    return value


def _acceptance(text: str, m: Map, power: PowerName) -> AcceptanceList:
    """`parse_acceptance`, remembered per map: the lists are a few letters, and the same
    ones come back phase after phase (a refusal is not remembered)."""
    cache: dict[tuple[str, PowerName], AcceptanceList] = m.derived("jsonapi:accept", lambda _: {})
    found = cache.get((text, power))
    if found is None:
        found = parse_acceptance(text, m, power)
        if len(cache) > 10_000:  # the texts are the input's: keep memory bounded
            cache.clear()
        cache[text, power] = found
    return found


@lru_cache(maxsize=256)  # (rules are immutable; a few sets of names recur; refusals are not kept)
def _rules(names: tuple[str, ...]) -> PayolaRules:
    """The rules named, or BadInput saying why they cannot be played."""
    refused = [answer.message for answer in assess(names) if answer.refused]
    if refused:
        raise BadInput("; ".join(refused))
    try:
        return PayolaRules.from_flags(names)
    except RulesError as exc:
        raise BadInput(str(exc)) from None


def run(
    doc: Mapping[str, Any], maps_dir: Path | None = None, paths: bool = False, *, method: Method = "fast"
) -> dict[str, Any]:
    """`maps_dir`: installed maps; `paths`: the variant may be a .map file (command line);
    `method`: rule 5.5's procedure (`run_auction`; all give the same answer, tests compare)."""
    if not isinstance(doc, dict):
        raise BadInput("the input must be a JSON object")
    pos = position(doc, maps_dir, paths)
    if pos.phase.type is not PhaseType.MOVEMENT:
        raise BadInput(f"the auction belongs to a movement phase, not {pos.phase}")
    m = pos.map
    raw_rules = doc.get("rules", [])
    if not isinstance(raw_rules, list) or not all(isinstance(r, str) for r in raw_rules):
        raise BadInput("rules must be a list of flag names")
    rules = _rules(tuple(raw_rules))
    raw_dummies = doc.get("dummies", [])
    if not isinstance(raw_dummies, list):
        raise BadInput("dummies must be a list of powers")
    dummies = frozenset(power_name(m, d) for d in raw_dummies)
    seed = doc.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise BadInput("seed must be an integer")
    balances: dict[PowerName, int] = {}
    for p, amount in _mapping(doc, "balances").items():
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
            raise BadInput(f"the balance of {p} must be a whole number of AgP, not {amount!r}")
        balances[power_name(m, p)] = amount
    accept: dict[PowerName, AcceptanceList] = {}
    for p, text in _mapping(doc, "accept").items():
        name = power_name(m, p)
        if not isinstance(text, str):
            raise BadInput(f"the acceptance list of {name} must be a string")
        try:
            accept[name] = _acceptance(text, m, name)
        except AcceptanceError as exc:
            raise BadInput(f"acceptance list of {name}: {exc}") from None
    sheets: dict[PowerName, Sheet] = {}
    normalized: dict[PowerName, str] = {}
    errors: dict[PowerName, list[str]] = {}
    for p, text in _mapping(doc, "sheets").items():
        name = power_name(m, p)
        if not isinstance(text, str):
            raise BadInput(f"the sheet of {name} must be a string")
        parsed = parse_sheet(text, pos, name, rules, balance=balances.get(name, 0), dummies=dummies)
        errors[name] = [str(problem) for problem in parsed.problems]
        normalized[name] = parsed.normalized
        if parsed.sheet is not None:
            sheets[name] = parsed.sheet
    auction = run_auction(pos, sheets, balances, accept, rules, dummies, seed, method=method)
    return _output(auction, pos, rules, dummies, sheets, normalized, errors)


def _output(
    auction: Auction,
    pos,
    rules: PayolaRules,
    dummies: frozenset[PowerName],
    sheets: Mapping[PowerName, Sheet],
    normalized: Mapping[PowerName, str],
    errors: Mapping[PowerName, list[str]],
) -> dict[str, Any]:
    # (`str` of a unit or an order is made once and kept by the object: the chart and the
    # payments repeat them freely)
    by_unit = sorted(auction.units.items(), key=lambda item: str(item[1]))
    initials: dict[PowerName, str] = pos.map.derived(
        "jsonapi:initials", lambda m: {p.name: p.initial for p in m.powers}
    )
    ledgers = {}
    for p in pos.map.power_names:
        if p in dummies:
            continue
        if not (p in errors or pos.units.get(p) or auction.previous.get(p)):
            continue
        # an accepted sheet's normalized text is the sheet as processed (str(sheet))
        view = statement_view(auction, p, pos.phase, rules, normalized[p] if p in sheets else "")
        if view is not None:
            ledgers[p] = render_statement(view)
    return {
        "orders": {str(u): str(auction.orders[prov]) for prov, u in by_unit},
        "totals": {str(u): auction.totals[prov] for prov, u in by_unit},
        "spent": dict(auction.spent),
        "balances": dict(auction.balances),
        "reductions": dict(auction.reductions),
        "paid": {
            p: [{"unit": str(x.unit), "order": str(x.order), "amount": x.amount} for x in xs]
            for p, xs in auction.paid.items()
            if xs
        },
        "errors": {p: list(es) for p, es in errors.items()},
        "ignored": {p: [str(o) for o in os] for p, os in auction.ignored.items()},  # BLIND
        "ledgers": ledgers,
        "normalized": dict(normalized),
        "accept_used": {p: "".join(map(initials.__getitem__, lst)) for p, lst in auction.accept_used.items()},
        "chart": [
            {
                "unit": str(c.unit),
                "owner": c.owner,
                "total": c.total,
                "bids": [
                    {"order": str(b.order), "offers": dict(b.offers), "total": b.total, "chosen": b.chosen}
                    for b in c.bids
                ],
            }
            for c in auction.chart
        ],
    }
