"""Reader for the project's DATC case files (format: tests/rules/datc/README.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).parent / "datc"


@dataclass
class Block:
    orders: dict[str, list[str]] = field(default_factory=dict)
    results: list[tuple[str, str, str]] = field(default_factory=list)  # power, order, word


@dataclass
class Case:
    id: str
    file: str
    line: int
    title: str = ""
    phase: str = "S1901M"
    centers: dict[str, list[str]] | None = None
    units: dict[str, list[str]] = field(default_factory=dict)
    blocks: list[Block] = field(default_factory=list)
    position: dict[str, list[str]] | None = None
    dislodged: dict[str, list[str]] | None = None
    flags: list[str] = field(default_factory=list)  # rule flags in force (flag cases)
    dummies: list[str] = field(default_factory=list)  # dummy powers (flag cases)
    next_phase: str | None = None  # phase after the last block (flag cases)
    start: bool = False  # from the map's opening (flag cases)
    map: str = "standard"  # the map played on (flag cases: MAP <name>)
    owners: dict[str, list[str]] | None = None  # centre ownership after the last block (flag cases)


def _power_line(text: str) -> tuple[str, str]:
    power, _, rest = text.partition(":")
    return power.strip().upper(), rest.strip()


def read_cases(directory: Path = HERE) -> list[Case]:
    cases: list[Case] = []
    for path in sorted(directory.glob("*.datc")):
        case: Case | None = None
        section = None
        for number, raw in enumerate(path.read_text().splitlines(), 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            word = line.split()[0].upper()
            if word == "CASE":
                case = Case(line.split(None, 1)[1].strip(), path.name, number)
                cases.append(case)
                section = None
            elif case is None:
                raise ValueError(f"{path.name}:{number}: text before the first CASE")
            elif word == "TITLE":
                case.title = line.split(None, 1)[1] if " " in line else ""
            elif word == "PHASE":
                case.phase = line.split()[1]
            elif word == "FLAGS":
                case.flags.extend(line.upper().split()[1:])
            elif word == "START" and line.upper() == "START":
                case.start = True
            elif word == "MAP":
                case.map = line.split()[1].lower()
            elif word == "NEXT":
                case.next_phase = line.split()[1].upper()
            elif word == "DUMMIES":
                case.dummies.extend(line.upper().split()[1:])
            elif word in ("CENTERS", "OWNERS", "UNITS", "POSITION", "DISLODGED") and line.upper() == word:
                section = word
                attr = {
                    "CENTERS": "centers",
                    "OWNERS": "owners",
                    "UNITS": "units",
                    "POSITION": "position",
                    "DISLODGED": "dislodged",
                }[word]
                setattr(case, attr, {})
            elif word == "ORDERS" and line.upper() == "ORDERS":
                case.blocks.append(Block())
                section = "ORDERS"
            elif word == "RESULTS" and line.upper() == "RESULTS":
                section = "RESULTS"
            elif word == "END":
                case, section = None, None
            elif section in ("UNITS", "POSITION", "DISLODGED"):
                power, rest = _power_line(line)
                target = {"UNITS": case.units, "POSITION": case.position, "DISLODGED": case.dislodged}[
                    section
                ]
                target.setdefault(power, []).extend(u.strip() for u in rest.split(",") if u.strip())
            elif section in ("CENTERS", "OWNERS"):
                power, rest = _power_line(line)
                owned = case.centers if section == "CENTERS" else case.owners
                assert owned is not None
                owned.setdefault(power, []).extend(rest.split())
            elif section == "ORDERS":
                power, rest = _power_line(line)
                case.blocks[-1].orders.setdefault(power, []).append(rest)
            elif section == "RESULTS":
                power, rest = _power_line(line)
                order, _, result = rest.rpartition("=")
                case.blocks[-1].results.append((power, order.strip(), result.strip().lower()))
            else:
                raise ValueError(f"{path.name}:{number}: not understood: {raw}")
    return cases
