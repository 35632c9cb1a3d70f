"""The text of an HTML mail body: just enough HTML to read commands typed in a webmail composer."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Final

_SKIP: Final = frozenset({"script", "style", "head", "title", "blockquote"})
_BREAK: Final = frozenset(
    {"br", "p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table", "ul", "ol"}
)


class _HtmlText(HTMLParser):
    """Just enough HTML to read commands typed in a webmail composer."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0
        self.pre = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP:
            self.skipping += 1
        elif tag in _BREAK:
            self.parts.append("\n")
        if tag == "pre":
            self.pre += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _BREAK:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag == "pre":
            self.pre = max(0, self.pre - 1)
        if tag in _SKIP:
            self.skipping = max(0, self.skipping - 1)
        elif tag in _BREAK and tag != "br":
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            # outside <pre>, source line breaks are just spaces
            self.parts.append(data if self.pre else re.sub(r"\s*\n\s*", " ", data))


def html_to_text(html: str) -> str:
    """The text of an HTML body, one line per block, the empty lines between blocks merged."""
    parser = _HtmlText()
    parser.feed(html)
    parser.close()
    text = "".join(parser.parts).replace("\xa0", " ")
    lines = [line.strip() for line in text.split("\n")]
    # collapse the runs of empty lines that nested blocks produce
    out: list[str] = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    return "\n".join(out).strip("\n") + "\n"
