"""The text of an HTML mail body: just enough HTML to read commands typed in a webmail composer.

The HTML is parsed by libxml2 (through lxml), in time linear in its size and with its
nesting bounded (libxml2 stops at 256 levels): the standard library's `html.parser` took
51 s over 80 KB of `<a b` (issue 26). The tree is then walked without recursion.
"""

from __future__ import annotations

import re
from typing import Final

from lxml import etree

_SKIP: Final = frozenset({"script", "style", "head", "title", "blockquote"})
_BREAK: Final = frozenset(
    {"br", "p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table", "ul", "ol"}
)
_BLANKS: Final = re.compile(r"\s*\n\s*")


def _parser() -> etree.HTMLParser:
    # no network, no entities fetched, comments and processing instructions dropped
    return etree.HTMLParser(
        encoding="utf-8", no_network=True, remove_comments=True, remove_pis=True, recover=True
    )


def _text(data: str | None, pre: int) -> str:
    if not data:
        return ""
    # outside <pre>, source line breaks are just spaces
    return data if pre else _BLANKS.sub(" ", data)


def _walk(root: etree._Element) -> list[str]:
    """The text pieces of the tree, a line break around each block."""
    parts: list[str] = []
    pre = 0
    # each entry: (element, True) to open it, (element, False) to close it
    stack: list[tuple[etree._Element, bool]] = [(root, True)]
    while stack:
        element, opening = stack.pop()
        tag = element.tag.lower() if isinstance(element.tag, str) else ""
        if not opening:
            if tag == "pre":
                pre = max(0, pre - 1)
            if tag in _BREAK and tag != "br":
                parts.append("\n")
            parts.append(_text(element.tail, pre))
            continue
        if tag in _SKIP:
            parts.append(_text(element.tail, pre))
            continue
        if tag in _BREAK:
            parts.append("\n")
        if tag == "pre":
            pre += 1
        parts.append(_text(element.text, pre))
        stack.append((element, False))
        stack.extend((child, True) for child in reversed(element))
    return parts


def html_to_text(html: str) -> str:
    """The text of an HTML body, one line per block, the empty lines between blocks merged."""
    data = html.encode("utf-8", "replace")
    try:
        root = etree.fromstring(data, _parser()) if data.strip() else None
    except etree.XMLSyntaxError:  # nothing libxml2 can make a document of
        root = None
    parts = _walk(root) if root is not None else []
    text = "".join(parts).replace("\xa0", " ")
    lines = [line.strip() for line in text.split("\n")]
    # collapse the runs of empty lines that nested blocks produce
    out: list[str] = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    return "\n".join(out).strip("\n") + "\n"
