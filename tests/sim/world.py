"""What one simulated game is: its map, its rule flags and its settings, all drawn from one seed.

Maps come from the ones payjudge ships and from DPjudge's folder (`../shared/dpjudge-maps`,
read where it lies, never copied; left out cleanly when it is not there). Flags come from the
flag registry: only SUPPORTED ones, weighted towards the variations the judge is proudest of
(Tin Cup, vassals, Exchange, Zero Sum, eBayola, PAY_DUMMIES, income and press and deadline
flags). A combination CREATE would refuse is kept now and then, to check its one reply.
"""

from __future__ import annotations

import random
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from payjudge.game.gamerules import check_rules
from payjudge.rules.flag_registry import REGISTRY
from payjudge.rules.flags import Flag, Status
from payjudge.rules.mapfile import MapError, load_variant

_HERE = Path(__file__).resolve()
DPJUDGE = _HERE.parents[3] / "shared" / "dpjudge-maps"
if not DPJUDGE.is_dir():
    DPJUDGE = Path("/work/shared/dpjudge-maps")

# the variations the issue names, drawn more often than the rest of the catalog
FAVOURED: tuple[Flag, ...] = (
    Flag.BLIND,
    Flag.UNITS_SEE_SAME,
    Flag.OWN_SCS_SEE,
    Flag.SEE_ALL_SCS,
    Flag.HIDE_DUMMIES,
    Flag.VASSAL_DUMMIES,
    Flag.TORN_ALLEGIANCE,
    Flag.TEAM_VICTORY,
    Flag.NO_LOOTING,
    Flag.EXCHANGE,
    Flag.ZEROSUM,
    Flag.EBAYOLA,
    Flag.PAY_DUMMIES,
    Flag.FLAT_TAX,
    Flag.NO_HOARDING,
    Flag.PUBLIC_PRESS,
    Flag.GREY_PRESS,
    Flag.FAKE_PRESS,
    Flag.EAVESDROP,
    Flag.NO_PRESS,
    Flag.CIVIL_DISORDER,
    Flag.PREVIEW,
    Flag.ALWAYS_WAIT,
    Flag.PROPOSE_DIAS,
    Flag.LIMIT_OFFERS,
    Flag.MOBILIZE,
    Flag.NO_TRANSFER,
    Flag.ONE_TRANSFER,
    Flag.ZERO_FOREIGN,
    Flag.NO_SAVINGS,
)
# flags the simulator does not draw: POWER_CHOICE is always named (players pick their power);
# the real-time and deadline-free ones leave no deadline for the clock to reach
_NEVER: frozenset[Flag] = frozenset({Flag.POWER_CHOICE, Flag.REAL_TIME, Flag.NO_DEADLINE, Flag.HIBERNATE})
SUPPORTED: tuple[Flag, ...] = tuple(
    f for f, info in REGISTRY.items() if info.status is Status.SUPPORTED and f not in _NEVER
)


@dataclass(frozen=True)
class Setup:
    """One game's draw: the CREATE it is made with, and what the players need to know."""

    seed: int
    name: str
    map_name: str
    powers: tuple[str, ...]  # the map's playing powers, by name
    initials: dict[str, str]
    flags: tuple[str, ...]
    settings: tuple[str, ...]  # TIMING, TAX, CAP, INCOME, INVESTORS … lines
    valid: bool  # False: CREATE must refuse it, with one clear reply

    @property
    def exchange(self) -> bool:
        return Flag.EXCHANGE.value in self.flags

    @property
    def blind(self) -> bool:
        return Flag.BLIND.value in self.flags

    def has(self, flag: Flag) -> bool:
        return flag.value in self.flags

    def create_mail(self, password: str) -> str:
        lines = [f"CREATE {self.name} {password}"]
        lines += [f"RULE {f}" for f in _named(self.flags)]
        if self.map_name != "standard":
            lines.append(f"MAP {self.map_name}")
        lines += list(self.settings)
        lines.append("SIGNOFF")
        return "\n".join(lines)


@lru_cache(maxsize=1)
def maps_folder() -> Path | None:
    """DPjudge's maps as a maps directory of links (never copies), without its `standard`,
    which would shadow the one payjudge ships; None when the folder is not here."""
    source = DPJUDGE / "maps"
    if not source.is_dir():
        return None
    folder = Path(tempfile.mkdtemp(prefix="pj-sim-maps-"))
    for path in source.iterdir():
        if path.stem != "standard":
            (folder / path.name).symlink_to(path)
    return folder


@lru_cache(maxsize=1)
def playable_maps() -> tuple[str, ...]:
    """Every map that loads and whose powers all have distinct initials (SIGNON needs them)."""
    names = ["standard"]
    folder = maps_folder()
    if folder is not None:
        names += sorted(p.stem for p in folder.glob("*.map"))
    out = []
    for name in names:
        try:
            m = load_variant(name, folder if name != "standard" else None)
        except MapError:
            continue
        initials = [p.initial for p in m.powers]
        if all(initials) and len(set(initials)) == len(initials) and 2 <= len(initials) <= 12:
            out.append(name)
    return tuple(out)


def _map_powers(name: str) -> tuple[tuple[str, ...], dict[str, str]]:
    folder = maps_folder() if name != "standard" else None
    m = load_variant(name, folder)
    return tuple(str(p.name) for p in m.powers), {str(p.name): p.initial for p in m.powers}


def _named(flags: tuple[str, ...] | list[str]) -> list[str]:
    """The RULE lines of a game: POWER_CHOICE too (players pick their power), except under
    EXCHANGE, whose players are investors."""
    return list(flags) if Flag.EXCHANGE.value in flags else [Flag.POWER_CHOICE.value, *flags]


def _flags(rng: random.Random) -> list[Flag]:
    chosen: list[Flag] = []
    for _ in range(rng.choice((0, 1, 2, 2, 3, 3, 4, 5))):
        pool = FAVOURED if rng.random() < 0.6 else SUPPORTED
        flag = rng.choice(pool)
        if flag not in chosen:
            chosen.append(flag)
    return chosen


def _settings(rng: random.Random, flags: list[Flag]) -> list[str]:
    out = [rng.choice(("TIMING MOVE 2D", "TIMING MOVE 3D RETREAT 1D ADJUST 1D", "TIMING MOVE 1D AT 18:00"))]
    if rng.random() < 0.2:
        out.append(f"TAX {rng.randint(1, 12)}")
    if rng.random() < 0.15:
        out.append(f"CAP {rng.randint(20, 200)}")
    if rng.random() < 0.2:
        # ZEROSUM has no tax income to pay every movement phase (CREATE refuses the pair)
        out.append(
            "INCOME EVERY YEAR"
            if Flag.ZEROSUM in flags
            else rng.choice(("INCOME EVERY YEAR", "INCOME EVERY MOVEMENT"))
        )
    if Flag.EXCHANGE in flags:
        out += [f"INVESTORS {rng.randint(2, 4)}", f"CAPITAL {rng.randint(20, 90)}", "SHARES 10"]
    return out


def draw(seed: int) -> Setup:
    """The game of `seed`: a map, flags and settings CREATE accepts (or, one game in ten, a
    combination it refuses, kept as it is drawn)."""
    rng = random.Random(seed)
    maps = playable_maps()
    map_name = "standard" if rng.random() < 0.5 else rng.choice(maps)
    powers, initials = _map_powers(map_name)
    keep_refused = rng.random() < 0.1
    for _ in range(50):
        flags = _flags(rng)
        settings = _settings(rng, flags)
        names = [f.value for f in flags]
        tax = next((int(line.split()[1]) for line in settings if line.startswith("TAX ")), None)
        cap = next((int(line.split()[1]) for line in settings if line.startswith("CAP ")), None)
        ok = check_rules(_named(names), tax=tax, cap=cap).ok
        if ok or keep_refused:
            return Setup(seed, f"s{seed}", map_name, powers, initials, tuple(names), tuple(settings), ok)
    return Setup(seed, f"s{seed}", map_name, powers, initials, (), ("TIMING MOVE 2D",), True)
