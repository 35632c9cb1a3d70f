"""Control characters made visible wherever the judge's mail shows text it was sent (pure).

A NUL, an ESC or a BEL in a Subject or a line was copied raw into replies, where it can
hide text, ring a terminal or drive it with escape sequences (issue 26). Every value a
template prints goes through `visible` (`templating`'s finalize), and so does every
subject (`compose.compose_mail`): one place each, whatever the command.
"""

from __future__ import annotations

import re
from typing import Final

# C0 but line feed and tab, DEL, C1, and the Unicode line and paragraph separators and
# the bidirectional overrides, which reorder what a reader sees
_CONTROL: Final = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """`text` with each control character written as `\\x1b` (line feeds and tabs kept)."""
    return _CONTROL.sub(_escape, text)
