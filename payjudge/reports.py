"""Rendering report views into the text the judge mails (Jinja lives here, not in the pure engines)."""

from __future__ import annotations

from .payola.statement import StatementView
from .templating import render


def render_statement(view: StatementView) -> str:
    """The private account statement of rule 5.7 (`templates/statement.txt.j2`)."""
    return render("statement.txt.j2", v=view)
