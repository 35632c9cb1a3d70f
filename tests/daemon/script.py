"""A short Payola game as mail: seven players, the standard opening, no dislodgement.

The orders are chosen so that every unit obeys its owner (each power bribes only its own
units) and nothing is dislodged, so the phases are Spring 1901, Fall 1901, Winter 1901
builds and Spring 1902, whatever the auction breaks ties with.
"""

from __future__ import annotations

GAME = "pay7"
MASTER = "gm@players.test"
MASTER_PASSWORD = "mastersecret"
POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def address(power: str) -> str:
    return f"{power.lower()}@players.test"


def password(power: str) -> str:
    return f"pw-{power.lower()}-7x"


def create_body(
    game: str = GAME,
    master_password: str = MASTER_PASSWORD,
    timing: str = "MOVE 1H RETREAT 1H ADJUST 1H",
    rules: tuple[str, ...] = ("POWER_CHOICE",),
) -> str:
    lines = [f"CREATE {game} {master_password}"]
    lines += [f"RULE {r}" for r in rules]
    lines += [f"TIMING {timing}", "SIGNOFF"]
    return "\n".join(lines)


def join_body(power: str, game: str = GAME) -> str:
    return f"JOIN {power.lower()}@{game} {password(power)}"


def signon(power: str, game: str = GAME) -> str:
    return f"SIGNON {power[0]}{game} {password(power)}"


SPRING_1901 = {
    "AUSTRIA": ["2 : A VIE - GAL", "1 : A BUD - SER", "1 : F TRI - ALB"],
    "ENGLAND": ["2 : F LON - NTH", "1 : F EDI - NWG", "1 : A LVP - YOR"],
    "FRANCE": ["2 : A PAR - BUR", "1 : A MAR - SPA", "1 : F BRE - MAO"],
    "GERMANY": ["2 : A BER - KIE", "1 : A MUN - RUH", "1 : F KIE - DEN"],
    "ITALY": ["2 : A VEN - PIE", "1 : A ROM - APU", "1 : F NAP - ION"],
    "RUSSIA": ["2 : A MOS - UKR", "1 : A WAR - GAL", "1 : F SEV - BLA", "1 : F STP/SC - BOT"],
    "TURKEY": ["2 : A CON - BUL", "1 : A SMY - CON", "1 : F ANK - BLA"],
}

FALL_1901 = {
    "AUSTRIA": ["1 : A SER H", "1 : F ALB - GRE", "1 : A VIE H"],
    "ENGLAND": ["1 : F NTH - NWY", "1 : F NWG H", "1 : A YOR H"],
    "FRANCE": ["1 : A SPA H", "1 : F MAO - POR", "1 : A BUR - BEL"],
    "GERMANY": ["1 : F DEN H", "1 : A KIE - HOL", "1 : A RUH H"],
    "ITALY": ["1 : F ION - TUN", "1 : A APU H", "1 : A PIE H"],
    "RUSSIA": ["1 : F BOT - SWE", "1 : A UKR - RUM", "1 : A WAR H", "1 : F SEV H"],
    "TURKEY": ["1 : A BUL H", "1 : A CON H", "1 : F ANK H"],
}

# centres after Fall 1901: A 5, E 4, F 6, G 5, I 4, R 6, T 4 — each builds its gain
WINTER_1901 = {
    "AUSTRIA": ["BUILD A BUD", "BUILD F TRI"],
    "ENGLAND": ["BUILD F LON"],
    "FRANCE": ["BUILD A PAR", "BUILD A MAR", "BUILD F BRE"],
    "GERMANY": ["BUILD A BER", "BUILD A MUN"],
    "ITALY": ["BUILD F NAP"],
    "RUSSIA": ["BUILD A MOS", "BUILD F STP/NC"],
    "TURKEY": ["BUILD A SMY"],
}

SPRING_1902 = {
    "FRANCE": ["1 : A PAR - PIC", "1 : A BEL H"],
    "GERMANY": ["1 : A BER H"],
}

# the public results of each phase must show these orders
EXPECTED = {
    "S1901M": ["A PAR - BUR", "F STP/SC - BOT", "A CON - BUL"],
    "F1901M": ["A BUR - BEL", "F BOT - SWE", "F ALB - GRE"],
    "W1901A": ["BUILD F STP/NC", "BUILD A SMY"],
}


def sheet_body(power: str, lines: list[str], game: str = GAME) -> str:
    return "\n".join([signon(power, game), *lines, "SIGNOFF"])
