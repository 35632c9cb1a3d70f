"""Rule flags: the typed name of every flag of DPjudge's catalog (seed 003), its status here,
and the declaration type. The declarations themselves are in `flag_registry`."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final


class Status(enum.Enum):
    """What payjudge does with a flag a Master asks for."""

    SUPPORTED = "supported"  # accepted, and does what the catalog says
    ALWAYS = "always in force"  # accepted; Payola games always play this way
    NOT_ALLOWED = "not allowed"  # refused, with the reason
    NOT_YET = "not yet"  # refused: payjudge does not implement it yet


class Flag(enum.Enum):
    """Every rule flag, by its canonical name (seed 003's, or DPjudge's code name)."""

    # members are singletons compared by identity: hash them as objects, in C (Enum's own
    # __hash__ is Python code, and flags are looked up in sets at every sheet line)
    __hash__ = object.__hash__

    # 1.1 game start
    POWER_CHOICE = "POWER_CHOICE"
    MOBILIZE = "MOBILIZE"
    FLEX_SETUP = "FLEX_SETUP"
    SILENT_JOIN = "SILENT_JOIN"
    START_MASTER = "START_MASTER"
    # 1.2 press
    NO_PRESS = "NO_PRESS"
    PUBLIC_PRESS = "PUBLIC_PRESS"
    MUST_ORDER = "MUST_ORDER"
    LATE_SEND = "LATE_SEND"
    NO_LATE_RECEIVE = "NO_LATE_RECEIVE"
    FTF_PRESS = "FTF_PRESS"
    GREY_PRESS = "GREY_PRESS"
    YELLOW_PRESS = "YELLOW_PRESS"
    WHITE_GREY = "WHITE_GREY"
    FAKE_PRESS = "FAKE_PRESS"
    MUTE_OBSERVERS = "MUTE_OBSERVERS"
    TOUCH_PRESS = "TOUCH_PRESS"
    REMOTE_PRESS = "REMOTE_PRESS"
    BACKSEAT_PRESS = "BACKSEAT_PRESS"
    EAVESDROP = "EAVESDROP"
    PRESS_MASTER = "PRESS_MASTER"
    IGNORE_RESULTS = "IGNORE_RESULTS"
    # 1.3 movement orders
    ALWAYS_CONFIRM = "ALWAYS_CONFIRM"
    NEED_MOVE_MARKS = "NEED_MOVE_MARKS"
    BROADCAST_ORDERS = "BROADCAST_ORDERS"
    SIGNAL_SUPPORT = "SIGNAL_SUPPORT"
    FICTIONAL_OK = "FICTIONAL_OK"
    SHOW_PHANTOM = "SHOW_PHANTOM"
    ORDER_ANY = "ORDER_ANY"
    PROXY_OK = "PROXY_OK"
    NO_PROXY = "NO_PROXY"
    COASTAL_CRAWL = "COASTAL_CRAWL"
    FRIENDLY_FIRE = "FRIENDLY_FIRE"
    WEAK_BOUNCES = "WEAK_BOUNCES"
    DEFAULT_UNORDERED = "DEFAULT_UNORDERED"
    UNITS_ADAPT = "UNITS_ADAPT"
    HIBERNATE = "HIBERNATE"
    IMMOBILE_DUMMIES = "IMMOBILE_DUMMIES"
    SUBMIT_MASTER = "SUBMIT_MASTER"
    # 1.4 convoys
    COASTAL_CONVOY = "COASTAL_CONVOY"
    PORTAGE_CONVOY = "PORTAGE_CONVOY"
    MULTI_COAST_PORTAGE = "MULTI_COAST_PORTAGE"
    SAFE_CONVOYS = "SAFE_CONVOYS"
    WEAK_CONVOYS = "WEAK_CONVOYS"
    CONVOY_BACK = "CONVOY_BACK"
    NO_RETURN = "NO_RETURN"
    # 1.5 retreats and adjustments
    NO_RETREAT = "NO_RETREAT"
    BUILD_ANY = "BUILD_ANY"
    HOME_BUILDS = "HOME_BUILDS"
    REMOTE_BUILDS = "REMOTE_BUILDS"
    GARRISON = "GARRISON"
    NO_RESERVES = "NO_RESERVES"
    NO_MILITIA = "NO_MILITIA"
    NO_FACTORIES = "NO_FACTORIES"
    NO_PARTISANS = "NO_PARTISANS"
    TEXT_INPUT = "TEXT_INPUT"
    # 1.6 secrecy
    BLIND = "BLIND"
    OWN_SCS_SEE = "OWN_SCS_SEE"
    NO_SCS_SEE = "NO_SCS_SEE"
    NO_UNITS_SEE = "NO_UNITS_SEE"
    SEE_NO_SCS = "SEE_NO_SCS"
    SEE_ALL_SCS = "SEE_ALL_SCS"
    SEE_NO_UNITS = "SEE_NO_UNITS"
    UNITS_SEE_OTHER = "UNITS_SEE_OTHER"
    UNITS_SEE_SAME = "UNITS_SEE_SAME"
    MYOPIC = "MYOPIC"
    VENETIAN = "VENETIAN"
    GREEK = "GREEK"
    TROJAN = "TROJAN"
    HIDE_BUILDS = "HIDE_BUILDS"
    HIDE_DUMMIES = "HIDE_DUMMIES"
    HIDE_EXTENDERS = "HIDE_EXTENDERS"
    HIDE_LATE_POWERS = "HIDE_LATE_POWERS"
    LIST_WAITERS = "LIST_WAITERS"
    LIST_UNORDERED = "LIST_UNORDERED"
    NO_REVEAL = "NO_REVEAL"
    # 1.7 late and vacant powers
    CIVIL_DISORDER = "CIVIL_DISORDER"
    CIVIL_PREVIEW = "CIVIL_PREVIEW"
    CD_DUMMIES = "CD_DUMMIES"
    DUMMY_FIRE = "DUMMY_FIRE"
    CD_BUILDS = "CD_BUILDS"
    CD_RETREATS = "CD_RETREATS"
    SMART_CD = "SMART_CD"
    CD_SUPPORTS = "CD_SUPPORTS"
    # 1.8 power control
    VASSAL_DUMMIES = "VASSAL_DUMMIES"
    TORN_ALLEGIANCE = "TORN_ALLEGIANCE"
    # 1.9 deadlines and processing
    NO_DEADLINE = "NO_DEADLINE"
    NO_QUARTER = "NO_QUARTER"
    NO_LATE_CHANGES = "NO_LATE_CHANGES"
    LATE_CHANGES = "LATE_CHANGES"
    REAL_TIME = "REAL_TIME"
    NO_MINOR_WAIT = "NO_MINOR_WAIT"
    ALWAYS_WAIT = "ALWAYS_WAIT"
    PLAYER_DEADLINES = "PLAYER_DEADLINES"
    SILENT_ABSENCES = "SILENT_ABSENCES"
    HIDE_ABSENTEES = "HIDE_ABSENTEES"
    NO_ABSENCES = "NO_ABSENCES"
    PROGRESSIVE = "PROGRESSIVE"
    PREVIEW = "PREVIEW"
    NO_WAIT = "NO_WAIT"
    # 1.10 end of the game
    NO_DRAW = "NO_DRAW"
    PROPOSE_DIAS = "PROPOSE_DIAS"
    HIDE_PROPOSER = "HIDE_PROPOSER"
    NO_DIAS = "NO_DIAS"
    HOLD_WIN = "HOLD_WIN"
    SHARED_VICTORY = "SHARED_VICTORY"
    TEAM_VICTORY = "TEAM_VICTORY"
    VICTORY_HOMES = "VICTORY_HOMES"
    NO_EOG = "NO_EOG"
    # 3.1 rules Payola includes or forbids
    NO_CHECK = "NO_CHECK"
    # 3.2 transfers
    ANON_TRANSFER = "ANON_TRANSFER"
    NO_DONATIONS = "NO_DONATIONS"
    NO_TRANSFER = "NO_TRANSFER"
    ONE_TRANSFER = "ONE_TRANSFER"
    NO_LOOTING = "NO_LOOTING"
    # 3.3 income
    EXCHANGE = "EXCHANGE"
    FLAT_TAX = "FLAT_TAX"
    NO_HOARDING = "NO_HOARDING"
    ZEROSUM = "ZEROSUM"
    # 3.4 secrecy (Payola)
    EBAYOLA = "EBAYOLA"
    HIDE_COST = "HIDE_COST"
    HIDE_OFFERS = "HIDE_OFFERS"
    PUBLIC_TOTALS = "PUBLIC_TOTALS"
    NO_LEDGERS = "NO_LEDGERS"
    # 3.5 offers
    DIRECT_ONLY = "DIRECT_ONLY"
    RESTRICT_SIGNAL = "RESTRICT_SIGNAL"
    PAY_DUMMIES = "PAY_DUMMIES"
    NO_SAVINGS = "NO_SAVINGS"
    NO_PLATEAU = "NO_PLATEAU"
    PAYOLA_CLASSIC = "PAYOLA_CLASSIC"
    LIMIT_OFFERS = "LIMIT_OFFERS"
    REMOTE_BRIBE = "REMOTE_BRIBE"
    TOUCH_BRIBE = "TOUCH_BRIBE"
    ZERO_FOREIGN = "ZERO_FOREIGN"


SECTIONS: Final[dict[str, str]] = {
    "1.1": "Game start",
    "1.2": "Press",
    "1.3": "Movement orders",
    "1.4": "Convoys",
    "1.5": "Retreats and adjustments",
    "1.6": "Secrecy",
    "1.7": "Late and vacant powers",
    "1.8": "Power control",
    "1.9": "Deadlines and processing",
    "1.10": "End of the game",
    "3.1": "Rules Payola includes or forbids",
    "3.2": "Transfers",
    "3.3": "Income",
    "3.4": "Secrecy (Payola)",
    "3.5": "Offers",
}


@dataclass(frozen=True)
class FlagInfo:
    """One flag's declaration: where the catalog describes it, what it does here, its status
    (with the reason when refused), its other names, the flags it brings with it, and those
    it cannot be used with.

    `defaults` are flags it brings unless another flag is in force: (brought, unless);
    `requires` flags without which it is refused, with `reason` (FICTIONAL_OK: only BLIND).
    `disable` are flags among `implies` that a Master may turn off with `RULE !X` (the
    catalog allows it for BLIND's HIDE_DUMMIES only: "unless explicitly disabled").
    """

    flag: Flag
    sections: tuple[str, ...]
    status: Status
    summary: str
    reason: str = ""
    aliases: tuple[str, ...] = ()
    implies: frozenset[Flag] = frozenset()
    defaults: tuple[tuple[Flag, Flag], ...] = ()
    excludes: frozenset[Flag] = frozenset()
    requires: frozenset[Flag] = frozenset()
    disable: frozenset[Flag] = frozenset()

    @property
    def name(self) -> str:
        return self.flag.value

    @property
    def section(self) -> str:
        return self.sections[0]
