"""Rendering report views into the text the judge mails (Jinja lives here, not in the pure engines)."""

from __future__ import annotations

from .game.gamerules import rules_table, status_counts
from .payola.statement import StatementView
from .rules.flag_registry import NAMES, REGISTRY
from .templating import render


def render_statement(view: StatementView) -> str:
    """The private account statement of rule 5.7 (`templates/statement.txt.j2`)."""
    return render("statement.txt.j2", v=view)


def render_rules_doc() -> str:
    """docs/rules.md: the table of rule flags, from the registry (`templates/docs/rules.md.j2`)."""
    return render(
        "docs/rules.md.j2",
        sections=rules_table(),
        counts=status_counts(),
        total=len(REGISTRY),
        names=len(NAMES),
    )
