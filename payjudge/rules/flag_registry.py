"""The registry of rule flags: one declaration per flag of DPjudge's catalog (seed 003).

CREATE, `payjudge auction`, `HELP RULES`, docs/rules.md and the engines all read this table:
a flag's status says whether a game may use it, `implies` what it brings with it (as the
catalog says), `excludes` what it cannot be combined with. Descriptions are ours.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from types import MappingProxyType
from typing import Final

from .flags import Flag as F
from .flags import FlagInfo, Status

S: Final = Status.SUPPORTED
ALWAYS: Final = Status.ALWAYS
NO: Final = Status.NOT_ALLOWED
NOT_YET: Final = Status.NOT_YET

_BLIND_MODIFIER: Final = "BLIND modifier: "
# the flags that let players write to each other in some way (NO_PRESS forbids all of them)
_PRESS_KINDS: Final = (
    F.PUBLIC_PRESS,
    F.LATE_SEND,
    F.GREY_PRESS,
    F.YELLOW_PRESS,
    F.WHITE_GREY,
    F.FAKE_PRESS,
    F.TOUCH_PRESS,
    F.REMOTE_PRESS,
    F.BACKSEAT_PRESS,
)


def _d(
    flag: F,
    section: str,
    status: Status,
    summary: str,
    *,
    reason: str = "",
    aliases: tuple[str, ...] = (),
    implies: tuple[F, ...] = (),
    defaults: tuple[tuple[F, F], ...] = (),
    excludes: tuple[F, ...] = (),
    requires: tuple[F, ...] = (),
    also: tuple[str, ...] = (),
    disable: tuple[F, ...] = (),
) -> FlagInfo:
    return FlagInfo(
        flag,
        (section, *also),
        status,
        summary,
        reason,
        aliases,
        frozenset(implies),
        defaults,
        frozenset(excludes),
        frozenset(requires),
        frozenset(disable),
    )


def _blind(flag: F, summary: str, *brings: F, excludes: tuple[F, ...] = ()) -> FlagInfo:
    """A BLIND modifier (seed 003 §1.6): supported, and it brings BLIND and `brings`."""
    return _d(flag, "1.6", S, _BLIND_MODIFIER + summary, implies=(F.BLIND, *brings), excludes=excludes)


_DECLARATIONS: Final = (
    # 1.1 game start
    _d(F.POWER_CHOICE, "1.1", S, "players may pick a free power when they join (JOIN <power>@<game>)"),
    _d(
        F.MOBILIZE,
        "1.1",
        S,
        "no units and no centres at the start; the game begins with an adjustment phase in "
        "which each power builds one unit in a home centre, and owns that centre",
    ),
    _d(
        F.FLEX_SETUP,
        "1.1",
        S,
        "home-centre units are left off the board; each power chooses what to build there",
        aliases=("BLANK_BOARD",),
    ),
    _d(F.SILENT_JOIN, "1.1", S, "nobody is told when a player joins the forming game"),
    _d(F.START_MASTER, "1.1", S, "a full game waits for the Master's ACTIVATE instead of starting by itself"),
    # 1.2 press
    _d(
        F.NO_PRESS,
        "1.2",
        S,
        "no press between players: they write to the Master, and the Master to anyone",
        implies=(F.SILENT_ABSENCES,),
        excludes=_PRESS_KINDS,
    ),
    _d(
        F.PUBLIC_PRESS,
        "1.2",
        S,
        "players may broadcast or write to the Master, nothing private",
        aliases=("NO_PARTIAL",),
    ),
    _d(F.MUST_ORDER, "1.2", S, "a power may write to players only once it has sent orders this phase"),
    _d(
        F.LATE_SEND,
        "1.2",
        S,
        "a power late with its orders may still send private press "
        "(without it, a late power may only broadcast or write to the Master)",
    ),
    _d(F.NO_LATE_RECEIVE, "1.2", S, "nobody may send private press to a power late with its orders"),
    _d(
        F.FTF_PRESS,
        "1.2",
        S,
        "press between players only in movement phases, and none privately once the deadline has passed",
    ),
    _d(F.GREY_PRESS, "1.2", S, "every message between players arrives without its sender"),
    _d(F.YELLOW_PRESS, "1.2", S, "every broadcast arrives without its sender"),
    _d(F.WHITE_GREY, "1.2", S, "a player may choose to send a message without its sender"),
    _d(F.FAKE_PRESS, "1.2", S, "a player may sign a message as another power and show other addressees"),
    _d(F.MUTE_OBSERVERS, "1.2", S, "observers may write only to the Master"),
    _d(
        F.TOUCH_PRESS,
        "1.2",
        S,
        "private press only to powers with a unit that could support a hold of one of the sender's, "
        "or the other way round; broadcasts only with PUBLIC_PRESS",
    ),
    _d(
        F.REMOTE_PRESS,
        "1.2",
        S,
        "private press only to powers with nothing next to the sender's "
        "units or centres; broadcasts only with PUBLIC_PRESS",
    ),
    _d(
        F.BACKSEAT_PRESS, "1.2", S, "powers on the board may not write to each other; observers may broadcast"
    ),
    _d(
        F.EAVESDROP,
        "1.2",
        S,
        "every private message is secretly copied to the Master; "
        "game listings show the rule only when written EAVESDROP!",
        aliases=("EAVESDROP!",),
    ),
    _d(F.PRESS_MASTER, "1.2", S, "the Master gets broadcasts only when addressed"),
    _d(
        F.IGNORE_RESULTS,
        "1.2",
        S,
        "the Master is not mailed the public results of each phase "
        "(previews and the Master's report of the bids still come)",
    ),
    # 1.3 movement orders
    _d(
        F.ALWAYS_CONFIRM,
        "1.3",
        S,
        "the Master gets a copy of the judge's answer to every order update (offer sheets, "
        "orders, CLEAR), only its order lines; every message is answered anyway",
    ),
    _d(
        F.NEED_MOVE_MARKS,
        "1.3",
        ALWAYS,
        "a move must be written with a mark (A VEN - TRI); Payola needs it to keep offers unambiguous",
        also=("3.1",),
    ),
    _d(
        F.BROADCAST_ORDERS,
        "1.3",
        NO,
        "orders would be shown to everyone as they arrive",
        reason="offer sheets are secret in Payola until the end of the game",
        implies=(F.ALWAYS_CONFIRM,),
    ),
    _d(F.SIGNAL_SUPPORT, "1.3", S, "a unit may be offered a void support as a signal (written with ?)"),
    _d(
        F.FICTIONAL_OK,
        "1.3",
        S,
        "offers to units that are not there are taken (each unit with its type) and silently "
        "ignored when the phase is processed; published at the end (Tin Cup, rule 6.3)",
        reason="except with BLIND, which brings it (Tin Cup, rule 6.3): elsewhere Payola takes "
        "offers only to units on the board (seed 003 §3.1)",
        requires=(F.BLIND,),
        also=("3.1",),
    ),
    _d(
        F.SHOW_PHANTOM,
        "1.3",
        S,
        "offers of supports and convoys to units that are not there are taken and silently "
        "ignored when the phase is processed (seed 003 §3.4); the results never say whose "
        "unit a support or convoy was for",
        reason="except with BLIND, which brings it (Tin Cup, rule 6.3): elsewhere Payola takes "
        "offers only to units on the board (seed 003 §3.1)",
        requires=(F.BLIND,),
        implies=(F.FICTIONAL_OK,),
    ),
    _d(F.ORDER_ANY, "1.3", ALWAYS, "any power may make offers to any unit (that is Payola)", also=("3.1",)),
    _d(
        F.PROXY_OK,
        "1.3",
        NO,
        "a power would hand one of its units to another power for a phase",
        reason="Payola has no proxy orders, since every unit already obeys the best offer",
        implies=(F.ORDER_ANY,),
        also=("3.1",),
    ),
    _d(F.NO_PROXY, "1.3", ALWAYS, "there are no proxy orders"),
    _d(F.COASTAL_CRAWL, "1.3", S, "fleets may swap along the coasts of a two-coast province"),
    _d(F.FRIENDLY_FIRE, "1.3", S, "a power may dislodge its own units and cut its own supports"),
    _d(F.WEAK_BOUNCES, "1.3", S, "a unit whose move fails has no strength to hold its place (Key's rule)"),
    _d(
        F.DEFAULT_UNORDERED,
        "1.3",
        S,
        "own units left without an order hold (matters under PAY_DUMMIES)",
        also=("3.1",),
    ),
    _d(
        F.UNITS_ADAPT,
        "1.3",
        S,
        "on a map whose terrain changes by phase, a unit on a space its kind can no longer stand "
        "on becomes the other kind (a fleet on drained land an army); without it such a unit is destroyed",
    ),
    _d(
        F.HIBERNATE,
        "1.3",
        S,
        "a unit on a space that became impassable, or a fleet on one that became land, stays "
        "and may only hold until the terrain changes back (before UNITS_ADAPT, when both are used)",
    ),
    _d(F.IMMOBILE_DUMMIES, "1.3", S, "units of dummy powers may not move"),
    _d(
        F.SUBMIT_MASTER,
        "1.3",
        ALWAYS,
        "the Master may send orders and offers for any power (FOR <power> after SIGNON M<game>)",
    ),
    # 1.4 convoys
    _d(F.COASTAL_CONVOY, "1.4", S, "fleets on coasts may convoy as well as fleets at sea"),
    _d(
        F.PORTAGE_CONVOY,
        "1.4",
        S,
        "armies may carry fleets overland between coasts, and from one coast of a province to "
        "another (an army in a bordering province)",
    ),
    _d(
        F.MULTI_COAST_PORTAGE,
        "1.4",
        S,
        "portage only from one coast of a province to another, by an army in any bordering province",
        implies=(F.PORTAGE_CONVOY,),
    ),
    _d(F.SAFE_CONVOYS, "1.4", S, "a beleaguered fleet cannot convoy"),
    _d(F.WEAK_CONVOYS, "1.4", S, "a convoying fleet must out-support every attack on it"),
    _d(F.CONVOY_BACK, "1.4", S, "a convoy route may pass a sea twice or come back to its start"),
    _d(
        F.NO_RETURN,
        "1.4",
        S,
        "the catalog's old name for the default: no convoy route passes a sea twice "
        "(naming it changes nothing; it cannot be used with CONVOY_BACK)",
        excludes=(F.CONVOY_BACK,),
    ),
    # 1.5 retreats and adjustments
    _d(F.NO_RETREAT, "1.5", S, "dislodged units are destroyed without a retreat"),
    _d(F.BUILD_ANY, "1.5", S, "builds in any owned centre"),
    _d(F.HOME_BUILDS, "1.5", S, "builds in any owned centre that was some power's home centre"),
    _d(
        F.REMOTE_BUILDS,
        "1.5",
        S,
        "a power builds only while it still owns one of its home centres",
        defaults=((F.BUILD_ANY, F.HOME_BUILDS),),
    ),
    _d(F.GARRISON, "1.5", S, "an eliminated power may build again in an unoccupied home centre"),
    _d(F.NO_RESERVES, "1.5", NOT_YET, "the map's reserves are ignored"),
    _d(F.NO_MILITIA, "1.5", NOT_YET, "the map's militia are ignored"),
    _d(F.NO_FACTORIES, "1.5", NOT_YET, "the map's factory sites are ignored"),
    _d(F.NO_PARTISANS, "1.5", NOT_YET, "the map's partisan sites are ignored"),
    _d(F.TEXT_INPUT, "1.5", ALWAYS, "retreats and adjustments are written as text: by mail they always are"),
    # 1.6 secrecy
    _d(
        F.BLIND,
        "1.6",
        S,
        "each power sees only what is near its units and home centres (Tin Cup in Payola)",
        also=("3.4",),
        implies=(
            F.FICTIONAL_OK,
            F.HIDE_ABSENTEES,
            F.HIDE_DUMMIES,
            F.HIDE_LATE_POWERS,
            F.SHOW_PHANTOM,
            F.SILENT_ABSENCES,
        ),
        # seed 003 §1.6: "HIDE_DUMMIES is in effect, unless explicitly disabled" (RULE !HIDE_DUMMIES)
        disable=(F.HIDE_DUMMIES,),
        excludes=(F.ZERO_FOREIGN, F.PUBLIC_TOTALS, F.NO_DIAS),
    ),
    _blind(F.OWN_SCS_SEE, "owned centres see, instead of home centres", excludes=(F.NO_SCS_SEE,)),
    _blind(F.NO_SCS_SEE, "centres see nothing"),
    _blind(F.NO_UNITS_SEE, "units see nothing"),
    _blind(F.SEE_NO_SCS, "nobody learns who owns other centres", excludes=(F.SEE_ALL_SCS,)),
    _blind(F.SEE_ALL_SCS, "everyone sees who owns every centre"),
    _blind(F.SEE_NO_UNITS, "nobody sees other powers' units"),
    _blind(F.UNITS_SEE_OTHER, "armies see only fleets and fleets only armies", excludes=(F.UNITS_SEE_SAME,)),
    _blind(F.UNITS_SEE_SAME, "armies see only armies and fleets only fleets"),
    _blind(F.MYOPIC, "only one's own units and centres are seen", F.SEE_NO_SCS, F.SEE_NO_UNITS),
    _blind(F.VENETIAN, "owned centres see; other centres' owners stay hidden", F.OWN_SCS_SEE, F.SEE_NO_SCS),
    _blind(F.GREEK, "units see their own type only; centres see nothing", F.UNITS_SEE_SAME, F.NO_SCS_SEE),
    _blind(F.TROJAN, "units see the other type only; centres see nothing", F.UNITS_SEE_OTHER, F.NO_SCS_SEE),
    _d(
        F.HIDE_BUILDS,
        "1.6",
        S,
        "the results of an adjustment phase give only the number of builds (BUILD HIDDEN), with no "
        "picture; the results of the next movement phase name the new units (FOUND)",
    ),
    _d(
        F.HIDE_DUMMIES,
        "1.6",
        S,
        "dummy powers look like played ones (SUMMARY lists them as playing); who controls whom "
        "reaches only the Master and the players concerned (results, HISTORY, the status page)",
        implies=(F.HIDE_LATE_POWERS, F.HIDE_ABSENTEES),
    ),
    _d(F.HIDE_EXTENDERS, "1.6", S, "only the Master learns who extended a deadline (PLAYER_DEADLINES)"),
    _d(F.HIDE_LATE_POWERS, "1.6", S, "a late power is told only of itself; only the Master gets the list"),
    _d(F.LIST_WAITERS, "1.6", S, "SUMMARY shows anyone which powers asked to wait for the deadline"),
    _d(
        F.LIST_UNORDERED,
        "1.6",
        S,
        "SUMMARY shows anyone which powers have not sent orders yet (without it nobody is told)",
    ),
    _d(
        F.NO_REVEAL,
        "1.6",
        S,
        "players' identities stay secret after the game: payjudge never "
        "publishes who plays a power, so this brings only HIDE_ABSENTEES (there is no REVEAL)",
        implies=(F.HIDE_ABSENTEES,),
    ),
    # 1.7 late and vacant powers
    _d(
        F.CIVIL_DISORDER,
        "1.7",
        S,
        "after the grace period the phase is processed with the late powers in civil disorder",
        defaults=((F.NO_LATE_CHANGES, F.LATE_CHANGES),),
        excludes=(F.CIVIL_PREVIEW,),
    ),
    _d(
        F.CIVIL_PREVIEW,
        "1.7",
        S,
        "after the grace period the Master gets a preview and releases it with PROCESS!",
    ),
    _d(
        F.CD_DUMMIES,
        "1.7",
        S,
        "dummy powers are in civil disorder at once: a phase is processed as soon as every "
        "played power is ready (without it, a dummy with units keeps it waiting for the "
        "deadline); their units take offers from anyone under TOUCH_BRIBE / REMOTE_BRIBE",
    ),
    _d(F.DUMMY_FIRE, "1.7", S, "FRIENDLY_FIRE for dummy powers only"),
    _d(
        F.CD_BUILDS,
        "1.7",
        S,
        "a power in civil disorder (no order sent) builds, by the judge's fixed choice, instead of waiving",
    ),
    _d(
        F.CD_RETREATS,
        "1.7",
        S,
        "a power in civil disorder (no order sent) retreats, by the judge's fixed choice, "
        "instead of disbanding",
    ),
    _d(F.SMART_CD, "1.7", S, "CD_BUILDS and CD_RETREATS together", implies=(F.CD_BUILDS, F.CD_RETREATS)),
    _d(
        F.CD_SUPPORTS,
        "1.7",
        NO,
        "units in civil disorder would support each other",
        reason="a rule of standard Diplomacy only; in Payola a unit follows the offers it receives",
        also=("3.1",),
    ),
    # 1.8 power control
    _d(
        F.VASSAL_DUMMIES,
        "1.8",
        S,
        "a dummy never loses its home centres; one whose home centres are all occupied by one "
        "power's forces becomes its vassal, ordered by that power's player (FOR); in Payola a "
        "dummy earns only as a vassal, into its controller's treasury (docs/vassals.md)",
        also=("3.2",),
        implies=(F.TEAM_VICTORY,),
    ),
    _d(
        F.TORN_ALLEGIANCE,
        "1.8",
        S,
        "after the fall, a vassal's unit on a centre owned neither by its controller nor by one "
        "of the controller's vassals is destroyed (brings VASSAL_DUMMIES)",
        implies=(F.VASSAL_DUMMIES,),
    ),
    # 1.9 deadlines and processing
    _d(
        F.NO_DEADLINE,
        "1.9",
        S,
        "no deadlines: a phase is processed when every power has "
        "ordered and nobody waits, or by the Master's PROCESS",
    ),
    _d(
        F.NO_QUARTER,
        "1.9",
        S,
        "NO_RETREAT and NO_DRAW together: dislodged units are destroyed, and no draw may be voted",
        implies=(F.NO_RETREAT, F.NO_DRAW),
    ),
    _d(
        F.NO_LATE_CHANGES,
        "1.9",
        S,
        "once the deadline has passed, orders on record may not be "
        "changed or cleared (a power that sent none may still send them; the Master may)",
        excludes=(F.LATE_CHANGES,),
    ),
    _d(F.LATE_CHANGES, "1.9", S, "orders may be changed after the deadline until the phase is processed"),
    _d(
        F.REAL_TIME,
        "1.9",
        S,
        "a phase is processed the moment the last orders arrive (no "
        "delay for second thoughts) and nobody may SET WAIT",
        excludes=(F.ALWAYS_WAIT,),
    ),
    _d(
        F.NO_MINOR_WAIT,
        "1.9",
        S,
        "players may SET WAIT only in movement phases, and ALWAYS_WAIT holds only for them",
    ),
    _d(F.ALWAYS_WAIT, "1.9", S, "a phase is never processed before its deadline, even when all are ready"),
    _d(
        F.PLAYER_DEADLINES,
        "1.9",
        S,
        "players may extend the deadline with SET DEADLINE (only the "
        "Master may shorten it); everyone is told who extended it",
    ),
    _d(
        F.SILENT_ABSENCES,
        "1.9",
        S,
        "absences are told to the Master only, not broadcast (the others learn only that the deadline moved)",
    ),
    _d(
        F.HIDE_ABSENTEES,
        "1.9",
        S,
        "absences are broadcast without who asked for them; only the Master learns who",
    ),
    _d(F.NO_ABSENCES, "1.9", S, "only the Master may SET ABSENCE"),
    _d(
        F.PROGRESSIVE,
        "1.9",
        S,
        "no all-caps headings: payjudge's results are always in mixed "
        "case; this rule also writes the income and transfer statements' headings so",
    ),
    _d(F.PREVIEW, "1.9", S, "every phase is previewed to the Master, who releases it with PROCESS"),
    _d(F.NO_WAIT, "1.9", S, "players may not SET WAIT: a phase is processed once every power has ordered"),
    # 1.10 end of the game
    _d(
        F.NO_DRAW,
        "1.10",
        S,
        "no draws: VOTE DRAW and VOTE <n>WAY are refused; the game ends in a victory or a concession",
    ),
    _d(
        F.PROPOSE_DIAS,
        "1.10",
        S,
        "a player proposes a draw of every survivor or a concession "
        "(PROPOSE DRAW, PROPOSE CONCEDE <power>), everyone is told, and the survivors answer "
        "VOTE YES or VOTE NO; one NO vetoes it",
        excludes=(F.NO_DIAS,),
    ),
    _d(F.HIDE_PROPOSER, "1.10", S, "a proposal is announced without its proposer", implies=(F.PROPOSE_DIAS,)),
    _d(
        F.NO_DIAS,
        "1.10",
        S,
        "draws may leave survivors out: the powers not conceding draw among "
        "themselves when each accepts a draw of that size (VOTE <n>WAY); by default a draw "
        "includes every survivor",
    ),
    _d(
        F.HOLD_WIN,
        "1.10",
        S,
        "a victory must be held for two years running: the winner must "
        "also have met the condition at the end of the previous year",
    ),
    _d(
        F.SHARED_VICTORY,
        "1.10",
        S,
        "powers that reach the victory condition together share it "
        "(without it a tie goes on until it is broken)",
    ),
    _d(
        F.TEAM_VICTORY,
        "1.10",
        S,
        "a power counts toward victory the centres of the powers it controls (CONTROL, vassals); "
        "a controlled power cannot win on its own",
    ),
    _d(
        F.VICTORY_HOMES,
        "1.10",
        S,
        "victory is counted in other powers' home centres: half the "
        "other powers' homes on average, plus one (10 on the standard map); a tie goes on",
    ),
    _d(
        F.NO_EOG,
        "1.10",
        S,
        "no end-of-game publication: when the game ends, the result and the "
        "treasuries are mailed, but the offer sheets, acceptance lists and bids of rules 3.6 and "
        "4.5 stay secret",
    ),
    # 3.1 rules Payola includes or forbids
    _d(
        F.NO_CHECK,
        "3.1",
        NO,
        "orders would be accepted unchecked and judged only at processing",
        reason="a rule of standard Diplomacy only; a Payola sheet is checked as it arrives",
    ),
    # 3.2 transfers
    _d(F.ANON_TRANSFER, "3.2", S, "the receiver of a TRANSFER is not told who sent it"),
    _d(F.NO_DONATIONS, "3.2", S, "eliminated powers may not transfer money", excludes=(F.GARRISON,)),
    _d(F.NO_TRANSFER, "3.2", S, "no TRANSFER at all"),
    _d(F.ONE_TRANSFER, "3.2", S, "at most one TRANSFER to each power per phase"),
    _d(F.NO_LOOTING, "3.2", S, "dummy powers' money may not be transferred"),
    # 3.3 income
    _d(
        F.EXCHANGE,
        "3.3",
        S,
        "players are investors trading shares in the powers (Exchange Payola, docs/exchange.md)",
        # its own money model; players who are powers; no power seats; not designed blind
        excludes=(F.ZEROSUM, F.PAY_DUMMIES, F.VASSAL_DUMMIES, F.POWER_CHOICE, F.BLIND),
    ),
    _d(F.FLAT_TAX, "3.3", S, "each centre pays as many AgP as the game has powers"),
    _d(F.NO_HOARDING, "3.3", S, "unspent money is lost before the year's income is paid"),
    _d(F.ZEROSUM, "3.3", S, "no income: a captured centre brings a share of the loser's treasury"),
    # 3.4 secrecy
    _d(
        F.EBAYOLA,
        "3.4",
        S,
        "the winning offer pays one AgP more than the best losing one; the savings go back",
    ),
    _d(F.HIDE_COST, "3.4", S, "statements do not show what each of your units was paid"),
    _d(F.HIDE_OFFERS, "3.4", S, "statements do not repeat your offers or which were accepted"),
    _d(
        F.PUBLIC_TOTALS,
        "3.4",
        S,
        "the results of each movement phase give the total every unit "
        "accepted (never who paid it); eBayola rebates are not limited by plateaus",
    ),
    _d(F.NO_LEDGERS, "3.4", S, "no statement of spending and balance after each phase"),
    # 3.5 offers
    _d(F.DIRECT_ONLY, "3.5", S, "one plain (:) offer per unit and power; no wildcards"),
    _d(
        F.RESTRICT_SIGNAL,
        "3.5",
        S,
        "only the owner may signal, at 0 AgP, in place of a winning HOLD",
        implies=(F.SIGNAL_SUPPORT,),
    ),
    _d(
        F.PAY_DUMMIES,
        "3.5",
        S,
        "powers order their own units; offers go to dummies' units only",
        implies=(F.CD_DUMMIES,),
    ),
    _d(F.NO_SAVINGS, "3.5", S, "no savings requests ($) and no plateaus (#)"),
    _d(F.NO_PLATEAU, "3.5", S, "no plateaus (#)"),
    _d(
        F.PAYOLA_CLASSIC,
        "3.5",
        S,
        "the original Payola rules: 7 AgP a centre, direct offers only",
        implies=(F.NO_SAVINGS, F.DIRECT_ONLY, F.FLAT_TAX, F.ZERO_FOREIGN),
    ),
    _d(
        F.LIMIT_OFFERS,
        "3.5",
        S,
        "a sheet's offers may not add up to more than the balance (brings DIRECT_ONLY, as in DPjudge)",
        implies=(F.DIRECT_ONLY,),
    ),
    _d(
        F.REMOTE_BRIBE,
        "3.5",
        S,
        "offers to foreign units only if none of your units is next to them",
        aliases=("REMOTE_OFFER",),
        excludes=(F.TOUCH_BRIBE,),
    ),
    _d(
        F.TOUCH_BRIBE,
        "3.5",
        S,
        "offers to foreign units only if one of your units is next to them",
        aliases=("TOUCH_OFFER",),
    ),
    _d(F.ZERO_FOREIGN, "3.5", S, "offers of 0 AgP to foreign units are allowed"),
)


def _symmetric(declarations: tuple[FlagInfo, ...]) -> dict[F, FlagInfo]:
    """Index the declarations; an exclusion declared on one side holds on both."""
    others: dict[F, set[F]] = {d.flag: set(d.excludes) for d in declarations}
    for d in declarations:
        for other in d.excludes:
            others[other].add(d.flag)
    out = {}
    for d in declarations:
        out[d.flag] = replace(d, excludes=frozenset(others[d.flag]))
    return out


REGISTRY: Mapping[F, FlagInfo] = MappingProxyType(_symmetric(_DECLARATIONS))

# what `RULE !X` may disable, for messages: "!HIDE_DUMMIES with BLIND"
_DISABLEABLE: Final = ", ".join(
    f"!{off.value} with {info.name}"
    for info in REGISTRY.values()
    for off in sorted(info.disable, key=list(F).index)
)

# every name a Master may write, canonical and alias, upper case
NAMES: Final[Mapping[str, F]] = MappingProxyType(
    {**{f.value: f for f in REGISTRY}, **{a: d.flag for d in REGISTRY.values() for a in d.aliases}}
)


def lookup(name: str) -> F | None:
    """The flag a Master's word names (any case, aliases included), or None."""
    return NAMES.get(name.strip().upper())


def _expand(start: Iterable[F], in_force: frozenset[F], off: frozenset[F] = frozenset()) -> frozenset[F]:
    # a default is dropped when the flag that countermands it is in force (`in_force`);
    # the flags `off` (disabled with `RULE !X`) are never brought
    have = set(start)
    todo = list(have)
    while todo:
        info = REGISTRY[todo.pop()]
        brought = set(info.implies) | {f for f, unless in info.defaults if unless not in in_force}
        for flag in brought - have - off:
            have.add(flag)
            todo.append(flag)
    return frozenset(have)


def closure(flags: Iterable[F], off: Iterable[F] = ()) -> frozenset[F]:
    """The flags in force when `flags` are named: with those they imply, again and again, and
    their defaults unless a flag in force countermands them (LATE_CHANGES for CIVIL_DISORDER).
    The flags `off` (the Master's `RULE !X`, checked by `assess`) are not brought."""
    return _closure(frozenset(flags), frozenset(off))


@lru_cache(maxsize=256)  # a game names the same few flags at every phase
def _closure(named: frozenset[F], off: frozenset[F] = frozenset()) -> frozenset[F]:
    hard = _expand(named, frozenset(REGISTRY), off)  # implications only: every default dropped
    return _expand(named, hard, off)


def split_off(names: Iterable[str]) -> tuple[list[str], list[str]]:
    """The names a Master wrote, as (flags named, flags disabled): `!X` disables X."""
    named: list[str] = []
    off: list[str] = []
    for raw in names:
        name = str(raw).strip().upper()
        if name.startswith("!"):
            off.append(name[1:].strip())
        elif name:
            named.append(name)
    return named, off


class Verdict(enum.Enum):
    UNKNOWN = "unknown"
    NOT_YET = "not yet"
    NOT_DISABLED = "cannot be disabled"
    NOT_ALLOWED = "not allowed"
    ALWAYS = "always in force"
    CONFLICT = "conflict"


@dataclass(frozen=True)
class Answer:
    """What the registry answers about one named flag, or about two that cannot go together.

    `names` are the words the Master wrote (one, or the two that clash); `flags` the flags
    concerned (for a conflict: the two that exclude each other, maybe brought by `names`)."""

    verdict: Verdict
    names: tuple[str, ...]
    flags: tuple[F, ...] = ()

    @property
    def refused(self) -> bool:
        return self.verdict is not Verdict.ALWAYS

    @property
    def message(self) -> str:
        if self.verdict is Verdict.UNKNOWN:
            return f"unknown rule {self.names[0]}"
        info = REGISTRY[self.flags[0]]
        if self.verdict is Verdict.NOT_DISABLED:
            if len(self.names) > 1:
                return f"RULE {self.names[0]} contradicts RULE {self.names[1]}"
            bringers = [f.value for f in self.flags[1:]]
            if not bringers:
                return (
                    f"RULE {self.names[0]}: only a rule that another named rule brings may be "
                    f"disabled, and no rule named here brings {info.name}"
                )
            return (
                f"RULE {self.names[0]}: {info.name}, which {' and '.join(bringers)} "
                f"{'brings' if len(bringers) == 1 else 'bring'}, "
                f"cannot be disabled (only {_DISABLEABLE} can)"
            )
        if self.verdict is Verdict.NOT_YET:
            return f"RULE {self.names[0]} is not supported yet"
        if self.verdict is Verdict.NOT_ALLOWED:
            return f"RULE {self.names[0]} is not allowed: {info.reason}"
        if self.verdict is Verdict.ALWAYS:
            return f"RULE {self.names[0]} is always in force in a Payola game ({info.summary})"
        sides = [
            name if lookup(name) is flag else f"{name} (which brings {flag.value})"
            for name, flag in zip(self.names, self.flags)
        ]
        return f"{sides[0]} and {sides[1]} cannot be used together"


def assess(names: Iterable[str]) -> tuple[Answer, ...]:
    """Every answer about the flags a game asks for: each name that is unknown, not (yet)
    allowed or always in force, then each pair that cannot be combined, including pairs
    formed by what the named flags bring with them. A game may use `names` when no answer
    is `refused`."""
    answers: list[Answer] = []
    named, off_names = split_off(names)
    written = _assess_named(named, answers)
    off = _assess_off(off_names, written, answers)
    in_force = closure(written, off)
    answers += _assess_requires(written, in_force, off)
    answers += _assess_clashes(written, in_force, off)
    return tuple(answers)


# the answer about a flag named whose status is not SUPPORTED
_STATUS_VERDICTS: Final = {
    Status.NOT_YET: Verdict.NOT_YET,
    Status.NOT_ALLOWED: Verdict.NOT_ALLOWED,
    Status.ALWAYS: Verdict.ALWAYS,
}


def _assess_named(named: list[str], answers: list[Answer]) -> dict[F, str]:
    """The flags named, each with the name it was first written under; the unknown names
    and the flags not (yet) allowed or always in force are added to `answers`."""
    written: dict[F, str] = {}
    for name in named:
        flag = lookup(name)
        if flag is None:
            answers.append(Answer(Verdict.UNKNOWN, (name,)))
            continue
        if flag in written:
            continue
        written[flag] = name
        status = REGISTRY[flag].status
        if status is not Status.SUPPORTED:
            answers.append(Answer(_STATUS_VERDICTS[status], (name,), (flag,)))
    return written


def _assess_requires(written: dict[F, str], in_force: frozenset[F], off: frozenset[F]) -> list[Answer]:
    """A flag allowed only beside another (FICTIONAL_OK, SHOW_PHANTOM: only with BLIND)."""
    answers = []
    for flag, name in written.items():
        lacking = next((f for f in _expand({flag}, in_force, off) if REGISTRY[f].requires - in_force), None)
        if lacking is not None and REGISTRY[flag].status is Status.SUPPORTED:
            answers.append(Answer(Verdict.NOT_ALLOWED, (name,), (lacking,)))
    return answers


def _assess_clashes(written: dict[F, str], in_force: frozenset[F], off: frozenset[F]) -> list[Answer]:
    """Each pair of flags in force that exclude each other, once, named by the flags
    written that bring them, in the order they were written."""
    reach = {flag: _expand({flag}, in_force, off) for flag in written}
    order = list(written)
    clashes: list[tuple[int, int, Answer]] = []
    for a in sorted(in_force, key=_ORDER.__getitem__):
        for b in sorted(REGISTRY[a].excludes & in_force, key=_ORDER.__getitem__):
            if _ORDER[b] < _ORDER[a]:
                continue  # each pair once
            by_a = next(f for f in order if a in reach[f])
            by_b = next(
                (f for f in order if b in reach[f] and f is not by_a), next(f for f in order if b in reach[f])
            )
            sides = sorted([(order.index(by_a), a), (order.index(by_b), b)], key=lambda s: s[0])
            answer = Answer(
                Verdict.CONFLICT, tuple(written[order[i]] for i, _ in sides), tuple(f for _, f in sides)
            )
            clashes.append((sides[0][0], sides[1][0], answer))
    return [answer for *_, answer in sorted(clashes, key=lambda c: (c[0], c[1]))]


def _assess_off(off_names: list[str], written: dict[F, str], answers: list[Answer]) -> frozenset[F]:
    """The flags `RULE !X` disables, each checked: X must be brought by a flag named (or
    brought in turn), every flag that brings it must allow it to be disabled (`disable`),
    and X must not be named as well. Refusals are added to `answers`."""
    brought = closure(written)
    off: set[F] = set()
    for name in off_names:
        flag = lookup(name)
        if flag is None:
            answers.append(Answer(Verdict.UNKNOWN, (f"!{name}",)))
            continue
        if flag in off:
            continue
        if flag in written:
            answers.append(Answer(Verdict.NOT_DISABLED, (f"!{name}", written[flag]), (flag,)))
            continue
        bringers = tuple(f for f in sorted(brought, key=_ORDER.__getitem__) if flag in REGISTRY[f].implies)
        if not bringers or any(flag not in REGISTRY[f].disable for f in bringers):
            answers.append(Answer(Verdict.NOT_DISABLED, (f"!{name}",), (flag, *bringers)))
            continue
        off.add(flag)
    return frozenset(off)


_ORDER: Final = {flag: i for i, flag in enumerate(F)}
