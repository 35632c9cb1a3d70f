"""Split a mail's command text into commands: the grammar of shared/spec/email.md.

The first command must be an opener (CREATE, JOIN, INVEST, OBSERVE, CONFIRM, SIGNON, RESIGN,
TAKEOVER, LIST, SUMMARY, HISTORY, HELP). After SIGNON every line is a command: a keyword line, or
else an order or offer line (any line whose first word is not a keyword, as in DPjudge).
CREATE is followed by setting lines up to SIGNOFF; PRESS and BROADCAST by their text up
to ENDPRESS. Nothing here looks at a game: this is syntax only, with line numbers.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from typing import Final

from .problems import Problem


class Kind(enum.Enum):
    OPENER = "opener"
    COMMAND = "command"
    ORDER = "order"  # an offer line or an order line, decided by the phase


# The words that start a command. The command registry (commands/base.py) checks at import
# that these are exactly the first words of its handlers, so the two cannot drift apart:
# the splitter stays pure, and `text.redaction` reads messages without the registry.
OPENERS: Final = (
    "SIGNON",
    "JOIN",
    "INVEST",
    "CREATE",
    "OBSERVE",
    "CONFIRM",
    "RESIGN",
    "TAKEOVER",
    "LIST",
    "SUMMARY",
    "HISTORY",
    "HELP",
)  # a message starts with one of these
ANYWHERE: Final = frozenset({"LIST", "SUMMARY", "HISTORY", "HELP"})  # openers also later on
COMMANDS: Final = frozenset(
    {
        "CLEAR",
        "ACCEPT",
        "TRANSFER",
        "BALANCE",
        "STATUS",
        "PRESS",
        "BROADCAST",
        "SET",
        "VOTE",
        "PROPOSE",
        "PROCESS",
        "PROCESS!",
        "PREVIEW",
        "ROLLBACK",
        "OMNISCIENT",
        "ACTIVATE",
        "TERMINATE",
        "PAUSE",
        "DUMMY",
        "REVIVE",
        "EJECT",
        "FOR",
        "CONTROL",
        "UNCONTROL",
        "BUY",
        "SELL",
        "PASS",
        "DIVIDEND",
        "WORTH",
    }
)
KEYWORDS: Final = COMMANDS | ANYWHERE | {"SIGNOFF"}
MASK: Final = "********"  # what a reply shows for a word that may be a password
_PRESS_END: Final = {"ENDPRESS", "ENDBROADCAST"}
_START: Final = ", ".join(OPENERS[:-1]) + " or " + OPENERS[-1]


@dataclass(frozen=True, slots=True)
class Command:
    line: int  # the line number in the message body
    kind: Kind
    keyword: str  # upper case ("ACCEPT"); "" for order lines
    args: tuple[str, ...]  # the words after the keyword, as written
    text: str  # the whole line, as written (comments included)
    body: tuple[tuple[int, str], ...] = ()  # the lines of a PRESS/BROADCAST or CREATE block

    @property
    def rest(self) -> str:
        """The text after the keyword, as written."""
        stripped = self.text.strip()
        return stripped[len(stripped.split()[0]) :].strip() if self.keyword else stripped


@dataclass(frozen=True)
class Script:
    commands: tuple[Command, ...]
    ignored: tuple[tuple[int, str], ...] = ()  # lines after SIGNOFF
    problems: tuple[Problem, ...] = ()


@dataclass
class _State:
    commands: list[Command] = field(default_factory=list)
    ignored: list[tuple[int, str]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def problem(self, number: int, text: str, message: str) -> None:
        self.problems.append(Problem(number, unread(text.strip()), None, message))

    def ignore(self, lines: list[tuple[int, str]]) -> None:
        self.ignored.extend((number, unread(text)) for number, text in lines)


def unread(text: str) -> str:
    """A line that was not read as a command, as a reply may quote it. When it has a
    sign-on's shape without a known first word (a word the judge does not know, then one
    that can be an identity, then more: `SIGNIN Canc1 pwcarthage`, `INVEST erin@exch2
    pwerin`), the words after the identity are masked: a misspelt opener carries its
    password there. (A known opener's passwords are masked by `text.redaction`, wherever
    its line stands.)"""
    words = text.split()
    if len(words) < 3 or words[0].upper() in KEYWORDS or words[0].upper() in OPENERS:
        return text
    if split_identity(words[1]) is None:
        return text  # prose ("Hello judge, can I play?")
    lead = text[: len(text) - len(text.lstrip())]
    return f"{lead}{words[0]} {words[1]} {MASK}"


def _words(text: str) -> list[str]:
    # a `%` starts a comment everywhere except in press text
    return text.split("%", 1)[0].split()


def split_commands(lines: list[tuple[int, str]]) -> Script:
    """`lines` are the meaningful lines of the body with their original numbers."""
    st = _State()
    i = 0
    signed_on = False
    while i < len(lines):
        number, text = lines[i]
        words = _words(text)
        if not words:
            if signed_on and text.strip().startswith("%"):
                # a comment line belongs to the offer sheet, which keeps its comments
                st.commands.append(Command(number, Kind.ORDER, "", (), text))
            i += 1
            continue
        key = words[0].upper()
        if not st.commands:
            if key not in OPENERS:
                st.problem(number, text, f"a message must start with {_START}")
                st.ignore(lines[i + 1 :])
                break
            if key == "CREATE":
                body, i = _block(lines, i + 1, {"SIGNOFF"})
                st.commands.append(Command(number, Kind.OPENER, key, tuple(words[1:]), text, body))
                st.ignore(lines[i + 1 :])
                break
            st.commands.append(Command(number, Kind.OPENER, key, tuple(words[1:]), text))
            signed_on = key in ("SIGNON", "RESIGN", "TAKEOVER")
            i += 1
            continue
        if key == "SIGNOFF":
            st.ignore(lines[i + 1 :])
            break
        if key in ("PRESS", "BROADCAST"):
            body, i = _block(lines, i + 1, _PRESS_END | {"SIGNOFF"}, keep_comments=True)
            st.commands.append(Command(number, Kind.COMMAND, key, tuple(words[1:]), text, body))
            if i < len(lines) and _words(lines[i][1])[:1] and _words(lines[i][1])[0].upper() in _PRESS_END:
                i += 1
            continue
        if key in KEYWORDS:
            if not signed_on and key not in OPENERS:
                st.problem(number, text, f"{key} needs a SIGNON first")
                i += 1
                continue
            st.commands.append(Command(number, Kind.COMMAND, key, tuple(words[1:]), text))
            i += 1
            continue
        if key in OPENERS:
            st.problem(number, text, f"{key} must be the first command of a message")
            i += 1
            continue
        if not signed_on:
            st.problem(number, text, "orders need a SIGNON first")
            i += 1
            continue
        st.commands.append(Command(number, Kind.ORDER, "", (), text))
        i += 1
    return Script(tuple(st.commands), tuple(st.ignored), tuple(st.problems))


def _block(
    lines: list[tuple[int, str]], start: int, ends: set[str], keep_comments: bool = False
) -> tuple[tuple[tuple[int, str], ...], int]:
    body = []
    i = start
    while i < len(lines):
        number, text = lines[i]
        words = text.split()
        if words and words[0].upper() in ends:
            break
        body.append((number, text if keep_comments else text.split("%", 1)[0].rstrip()))
        i += 1
    return tuple(body), i


_SIGNON: Final = re.compile(
    r"^(?:(?P<name>[A-Za-z_][A-Za-z0-9_-]*)@(?P<game1>[A-Za-z0-9_-]+)|"
    r"(?P<initial>[A-Za-z0-9])(?P<game2>[A-Za-z0-9_-]+))$"
)


def split_identity(word: str) -> tuple[str, str] | None:
    """`Fpay7` -> ("F", "pay7"); `france@pay7` -> ("FRANCE", "pay7"); `M…` is the Master."""
    m = _SIGNON.match(word)
    if not m:
        return None
    if m.group("name"):
        return m.group("name").upper(), m.group("game1").lower()
    return m.group("initial").upper(), m.group("game2").lower()


GAME_NAME: Final = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
