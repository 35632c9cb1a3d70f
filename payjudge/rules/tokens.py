"""The tokens of the order language: keywords after upper-casing, coast words, and the
map's names, read longest first (`tokenize`), with a coast attached to the place before it."""

from __future__ import annotations

import re
from typing import Final

from .errors import InvalidOrder
from .geography import Location, Map
from .values import Value

# Keyword tokens, after upper-casing.
_WORDS: Final = {
    "A": "A",
    "ARMY": "A",
    "F": "F",
    "FLEET": "F",
    "-": "-",
    "TO": "-",
    "MOVE": "-",
    "MOVES": "-",
    "M": "-",
    "H": "H",
    "HOLD": "H",
    "HOLDS": "H",
    "STAND": "H",
    "STANDS": "H",
    "S": "S",
    "SUP": "S",
    "SUPP": "S",
    "SUPPORT": "S",
    "SUPPORTS": "S",
    "C": "C",
    "CONVOY": "C",
    "CONVOYS": "C",
    "CVY": "C",
    "VIA": "VIA",
    "BY": "VIA",
    "R": "R",
    "RETREAT": "R",
    "RETREATS": "R",
    "D": "D",
    "DISBAND": "D",
    "DISBANDS": "D",
    "B": "BUILD",
    "BUILD": "BUILD",
    "BUILDS": "BUILD",
    "REMOVE": "REMOVE",
    "REMOVES": "REMOVE",
    "WAIVE": "WAIVE",
    "WAIVES": "WAIVE",
}
_COASTS: Final = {
    "NC": "NC",
    "SC": "SC",
    "EC": "EC",
    "WC": "WC",
    "NORTH": "NC",
    "SOUTH": "SC",
    "EAST": "EC",
    "WEST": "WC",
}
_ANY: Final = re.compile(r"->|=>|[A-Z0-9][A-Z0-9'.]*|[-/(),|]|[^\s]")


# the kinds of token that are no keyword of their own (a keyword's kind is its text)
_LOC: Final = "LOC"  # a place the map names (its coast attached by `_attach_coasts`)
_COAST: Final = "COAST"  # a coast word: NC, NORTH, …
_UNKNOWN: Final = "?"  # a word that is neither
_OPEN: Final = "("
_CLOSE: Final = ")"


class _Tok(Value):
    __slots__ = ("kind", "loc", "text")

    kind: Final[str]  # a keyword ("A", "-", "S", …), _LOC, _COAST or _UNKNOWN
    loc: Final[Location | None]
    text: Final[str]

    def __init__(self, kind: str, loc: Location | None = None, text: str = "") -> None:
        self.kind = kind
        self.loc = loc
        self.text = text

    def _key(self) -> tuple[object, ...]:
        return (self.kind, self.loc, self.text)


def _normalize(text: str) -> str:
    text = text.upper().replace("\u2013", "-").replace("\u2014", "-").replace("\u2212", "-")
    return text


def _raw_tokens(text: str) -> list[str]:
    """Words and marks; a character that belongs to neither becomes a token of its own,
    so that the reader reports it instead of silently skipping it."""
    raw = [m.group(0) for m in _ANY.finditer(_normalize(text).replace(".", " "))]
    return ["-" if w in ("->", "=>") else w for w in raw if w]


def _alias_table(game_map: Map) -> tuple[dict[tuple[str, ...], Location], dict[str, int]]:
    """The map's names as token sequences, and for each first token the longest name."""
    table: dict[tuple[str, ...], Location] = {}
    longest: dict[str, int] = {}
    for key, loc in game_map.aliases.items():
        toks = tuple(_raw_tokens(key))
        if not toks or toks[0] == "-" or toks[-1] == "-":
            continue
        table[toks] = loc
        longest[toks[0]] = max(longest.get(toks[0], 0), len(toks))
    return table, longest


def tokenize(text: str, game_map: Map) -> list[_Tok]:
    table, longest = game_map.derived("parse:aliases", _alias_table)
    raw = _raw_tokens(text)
    toks: list[_Tok] = []
    i = 0
    n = len(raw)
    while i < n:
        word = raw[i]
        # the longest name starting here wins: "NORTH SEA", "MID-ATLANTIC OCEAN"
        best = None
        for j in range(min(n, i + longest.get(word, 0)), i, -1):
            loc = table.get(tuple(raw[i:j]))
            if loc is not None and not (j == i + 1 and word in _WORDS and len(word) == 1):
                best = (j, loc)
                break
        if best is not None:
            j, loc = best
            toks.append(_Tok(_LOC, loc, " ".join(raw[i:j])))
            i = j
            continue
        if word in ("/", "(", ")", ",", "|"):
            toks.append(_Tok(word, text=word))
        elif word in _WORDS:
            toks.append(_Tok(_WORDS[word], text=word))
        elif word in _COASTS or word == "COAST":
            toks.append(_Tok(_COAST, text=word))
        else:
            toks.append(_Tok(_UNKNOWN, text=word))
        i += 1
    return _attach_coasts(toks)


def _attach_coasts(toks: list[_Tok]) -> list[_Tok]:
    """Fold `/NC`, `(NC)`, `NC` and `NORTH COAST` into the preceding location."""
    out: list[_Tok] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.kind == _LOC and t.loc is not None and t.loc.coast is None:
            j = i + 1
            closing = False
            if j < len(toks) and toks[j].kind in ("/", _OPEN):
                closing = toks[j].kind == _OPEN
                j += 1
            if j < len(toks) and toks[j].kind == _COAST and toks[j].text != "COAST":
                coast = _COASTS[toks[j].text]
                j += 1
                if j < len(toks) and toks[j].text == "COAST":
                    j += 1
                if closing:
                    if j < len(toks) and toks[j].kind == _CLOSE:
                        j += 1
                    else:
                        raise InvalidOrder("unclosed parenthesis after a coast")
                out.append(_Tok(_LOC, Location(t.loc.province, coast), t.text))
                i = j
                continue
        out.append(t)
        i += 1
    return out


# the keywords of the canonical form (`str(order)`), and the token each is read as
_KEYWORD_TOKENS: Final = {
    "A": "A",
    "F": "F",
    "H": "H",
    "-": "-",
    "S": "S",
    "C": "C",
    "R": "R",
    "D": "D",
    "VIA": "VIA",
    "CONVOY": "C",
    "BUILD": "BUILD",
    "REMOVE": "REMOVE",
    "WAIVE": "WAIVE",
}


def _canonical_words(game_map: Map) -> dict[str, Location] | None:
    """The map's canonical location names (`PAR`, `STP/SC`) that the tokenizer reads alone,
    whatever words surround them; None if one of the keywords is not read so on this map
    (then every text goes through the tokenizer)."""
    table, _ = game_map.derived("parse:aliases", _alias_table)
    candidates = {str(loc): loc for loc in game_map.aliases.values()}
    starts = {_raw_tokens(word)[0] for word in (*candidates, *_KEYWORD_TOKENS) if _raw_tokens(word)}

    def reaches_beyond(raw: list[str]) -> bool:
        for k in range(len(raw)):
            rest = tuple(raw[k:])
            if any(
                len(key) > len(rest) and key[: len(rest)] == rest and key[len(rest)] in starts
                for key in table
            ):
                return True
        return False

    def alone(word: str) -> list[tuple[str, Location | None]]:
        """The tokens `word` is read as, or [] if it cannot be read alone."""
        raw = _raw_tokens(word)
        if not raw or word != word.upper() or "." in word or len(word.split()) != 1 or reaches_beyond(raw):
            return []
        try:
            toks = tokenize(word, game_map)
        except InvalidOrder:
            return []
        return [(t.kind, t.loc) for t in toks]

    if any(alone(word) != [(kind, None)] for word, kind in _KEYWORD_TOKENS.items()):
        return None
    return {name: loc for name, loc in candidates.items() if alone(name) == [(_LOC, loc)]}
