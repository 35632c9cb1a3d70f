"""DPjudge's names on a map: the order language's keywords, and the keys under which
locations, aliases and powers are filed (`dp_norm`, `normalize_name`, `power_key`)."""

from __future__ import annotations

import re

TERRAIN_WORDS = ("WATER", "LAND", "COAST", "PORT", "SHUT")
DPJUDGE_VARIANTS = ("STANDARD", "PAYOLA", "XTALBALL", "SOLITAIRE")
UNOWNED = "UNOWNED"
# DPjudge's marks in a list of home or owned centres, which name no province: `&SC` (the
# power builds in any centre it owns), `SC!` and `SC?` (a build not yet placed)
ANYWHERE = "&SC"
MARKS = frozenset({ANYWHERE, "SC!", "SC?"})

# DPjudge's one-word keywords of the order language, and what each becomes; a name made
# only of them normalizes to nothing, and a power or location named after one is ambiguous
KEYWORDS = {
    ">": "",
    "-": "-",
    "ARMY": "A",
    "FLEET": "F",
    "WING": "W",
    "THE": "",
    "NC": "/NC",
    "SC": "/SC",
    "EC": "/EC",
    "WC": "/WC",
    "MOVE": "",
    "MOVES": "",
    "MOVING": "",
    "ATTACK": "",
    "ATTACKS": "",
    "ATTACKING": "",
    "RETREAT": "R",
    "RETREATS": "R",
    "RETREATING": "R",
    "SUPPORT": "S",
    "SUPPORTS": "S",
    "SUPPORTING": "S",
    "CONVOY": "C",
    "CONVOYS": "C",
    "CONVOYING": "C",
    "HOLD": "H",
    "HOLDS": "H",
    "HOLDING": "H",
    "BUILD": "B",
    "BUILDS": "B",
    "BUILDING": "B",
    "DISBAND": "D",
    "DISBANDS": "D",
    "DISBANDING": "D",
    "REMOVE": "D",
    "REMOVES": "D",
    "REMOVING": "D",
    "WAIVE": "V",
    "WAIVES": "V",
    "WAIVING": "V",
    "WAIVED": "V",
    "KEEP": "K",
    "KEEPS": "K",
    "KEEPING": "K",
    "PROXY": "P",
    "PROXIES": "P",
    "PROXYING": "P",
    "IS": "",
    "WILL": "",
    "IN": "",
    "AT": "",
    "ON": "",
    "TO": "",
    "OF": "\\",
    "FROM": "\\",
    "WITH": "?",
    "TSR": "=",
    "VIA": "~",
    "THROUGH": "~",
    "OVER": "~",
    "BY": "~",
    "AND": "",
    "OR": "|",
    "BOUNCE": "|",
    "CUT": "|",
    "VOID": "?",
    "DISLODGED": "~",
    "DESTROYED": "*",
}


def dp_norm(phrase: str) -> str:
    """A phrase as DPjudge's order reader sees it: upper case, `+ - ,` as blanks, dots and
    colons dropped, punctuation set apart, keywords replaced (`THE` and `AND` vanish)."""
    phrase = phrase.upper().replace("/", " /").replace(" / ", "")
    for ch in ".:":
        phrase = phrase.replace(ch, "")
    for ch in "-+,":
        phrase = phrase.replace(ch, " ")
    for ch in "|*?!~()[]=_^":
        phrase = phrase.replace(ch, f" {ch} ")
    return " ".join(KEYWORDS.get(w, w) for w in phrase.split())


def normalize_name(text: str) -> str:
    """The key under which payjudge looks a name or alias up: upper case, `+` and runs of
    blanks as one space, dots dropped, `X(NC)` as `X/NC`."""
    text = text.replace("+", " ").replace(".", " ").upper()
    text = re.sub(r"\s*\(\s*([A-Z]{2})\s*\)\s*$", r"/\1", text)
    return " ".join(text.split())


def power_key(name: str) -> str:
    """The name under which a power is filed: `U+S+A` -> `USA`, `_India` -> `_INDIA`.
    (DPjudge also turns order words inside it into symbols, `Gulf+of+Lyon` into
    `GULF\\LYON`; payjudge keeps them: `GULFOFLYON`.)"""
    name = name.upper()
    for ch in ".:+-, ":
        name = name.replace(ch, "")
    return name


def province_of(site: str) -> str:
    return site.upper().partition("/")[0]


def power_named(word: str) -> str | None:
    """The key of the power a line names; None for the neutral centres' line."""
    up = word.upper()
    if up in ("NEUTRAL", "CENTERS", UNOWNED):
        return None
    return power_key(up)


def home_marks(word: str) -> tuple[str, set[str], list[str]]:
    """`-*+~@` marks before a home, and the `(A,B)` limits of an alternative after it."""
    marks = set()
    while word and word[0] in "-*+~@":
        marks.add(word[0])
        word = word[1:]
    limits: list[str] = []
    if "(" in word and word.endswith(")"):
        word, _, rest = word.partition("(")
        limits = rest[:-1].split(",")
    return word, marks, limits


def abut_codes(dest: str) -> tuple[str, list[str]]:
    """A neighbour in an ABUTS list without DPjudge's codes around it (`POWER:X`, `X(CODE)`,
    marks such as `~X` or `X*`), and the codes, each filed as a special adjacency."""
    codes = []
    if dest.count(":") == 1:
        who, dest = dest.split(":")
        codes.append(who.upper() + ":")
    if dest.count("(") == 1 and dest.endswith(")"):
        dest, need = dest.split("(")
        codes.append(need.upper())
    while dest and not dest[0].isalnum():
        codes.append(dest[0])
        dest = dest[1:]
    while dest and not dest[-1].isalnum():
        codes.append(dest[-1])
        dest = dest[:-1]
    return dest, codes
