"""The rule flags of seed 003 §1.6–1.10: secrecy, late and vacant powers, power control,
deadlines and processing, the end of the game (read by `flag_registry.py`)."""

from __future__ import annotations

from typing import Final

from .flag_declare import NO, S, blind_modifier, declare
from .flags import Flag as F
from .flags import FlagInfo

PLAY_FLAGS: Final[tuple[FlagInfo, ...]] = (
    # 1.6 secrecy
    declare(
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
    blind_modifier(F.OWN_SCS_SEE, "owned centres see, instead of home centres", excludes=(F.NO_SCS_SEE,)),
    blind_modifier(F.NO_SCS_SEE, "centres see nothing"),
    blind_modifier(F.NO_UNITS_SEE, "units see nothing"),
    blind_modifier(F.SEE_NO_SCS, "nobody learns who owns other centres", excludes=(F.SEE_ALL_SCS,)),
    blind_modifier(F.SEE_ALL_SCS, "everyone sees who owns every centre"),
    blind_modifier(F.SEE_NO_UNITS, "nobody sees other powers' units"),
    blind_modifier(
        F.UNITS_SEE_OTHER, "armies see only fleets and fleets only armies", excludes=(F.UNITS_SEE_SAME,)
    ),
    blind_modifier(F.UNITS_SEE_SAME, "armies see only armies and fleets only fleets"),
    blind_modifier(F.MYOPIC, "only one's own units and centres are seen", F.SEE_NO_SCS, F.SEE_NO_UNITS),
    blind_modifier(
        F.VENETIAN, "owned centres see; other centres' owners stay hidden", F.OWN_SCS_SEE, F.SEE_NO_SCS
    ),
    blind_modifier(
        F.GREEK, "units see their own type only; centres see nothing", F.UNITS_SEE_SAME, F.NO_SCS_SEE
    ),
    blind_modifier(
        F.TROJAN, "units see the other type only; centres see nothing", F.UNITS_SEE_OTHER, F.NO_SCS_SEE
    ),
    declare(
        F.HIDE_BUILDS,
        "1.6",
        S,
        "the results of an adjustment phase give only the number of builds (BUILD HIDDEN), with no "
        "picture; the results of the next movement phase name the new units (FOUND)",
    ),
    declare(
        F.HIDE_DUMMIES,
        "1.6",
        S,
        "dummy powers look like played ones (SUMMARY lists them as playing); who controls whom "
        "reaches only the Master and the players concerned (results, HISTORY, the status page)",
        implies=(F.HIDE_LATE_POWERS, F.HIDE_ABSENTEES),
    ),
    declare(F.HIDE_EXTENDERS, "1.6", S, "only the Master learns who extended a deadline (PLAYER_DEADLINES)"),
    declare(
        F.HIDE_LATE_POWERS, "1.6", S, "a late power is told only of itself; only the Master gets the list"
    ),
    declare(F.LIST_WAITERS, "1.6", S, "SUMMARY shows anyone which powers asked to wait for the deadline"),
    declare(
        F.LIST_UNORDERED,
        "1.6",
        S,
        "SUMMARY shows anyone which powers have not sent orders yet (without it nobody is told)",
    ),
    declare(
        F.NO_REVEAL,
        "1.6",
        S,
        "players' identities stay secret after the game: payjudge never "
        "publishes who plays a power, so this brings only HIDE_ABSENTEES (there is no REVEAL)",
        implies=(F.HIDE_ABSENTEES,),
    ),
    # 1.7 late and vacant powers
    declare(
        F.CIVIL_DISORDER,
        "1.7",
        S,
        "after the grace period the phase is processed with the late powers in civil disorder",
        defaults=((F.NO_LATE_CHANGES, F.LATE_CHANGES),),
        excludes=(F.CIVIL_PREVIEW,),
    ),
    declare(
        F.CIVIL_PREVIEW,
        "1.7",
        S,
        "after the grace period the Master gets a preview and releases it with PROCESS!",
    ),
    declare(
        F.CD_DUMMIES,
        "1.7",
        S,
        "dummy powers are in civil disorder at once: a phase is processed as soon as every "
        "played power is ready (without it, a dummy with units keeps it waiting for the "
        "deadline); their units take offers from anyone under TOUCH_BRIBE / REMOTE_BRIBE",
    ),
    declare(F.DUMMY_FIRE, "1.7", S, "FRIENDLY_FIRE for dummy powers only"),
    declare(
        F.CD_BUILDS,
        "1.7",
        S,
        "a power in civil disorder (no order sent) builds, by the judge's fixed choice, instead of waiving",
    ),
    declare(
        F.CD_RETREATS,
        "1.7",
        S,
        "a power in civil disorder (no order sent) retreats, by the judge's fixed choice, "
        "instead of disbanding",
    ),
    declare(F.SMART_CD, "1.7", S, "CD_BUILDS and CD_RETREATS together", implies=(F.CD_BUILDS, F.CD_RETREATS)),
    declare(
        F.CD_SUPPORTS,
        "1.7",
        NO,
        "units in civil disorder would support each other",
        reason="a rule of standard Diplomacy only; in Payola a unit follows the offers it receives",
        also=("3.1",),
    ),
    # 1.8 power control
    declare(
        F.VASSAL_DUMMIES,
        "1.8",
        S,
        "a dummy never loses its home centres; one whose home centres are all occupied by one "
        "power's forces becomes its vassal, ordered by that power's player (FOR); in Payola a "
        "dummy earns only as a vassal, into its controller's treasury (docs/vassals.md)",
        also=("3.2",),
        implies=(F.TEAM_VICTORY,),
    ),
    declare(
        F.TORN_ALLEGIANCE,
        "1.8",
        S,
        "after the fall, a vassal's unit on a centre owned neither by its controller nor by one "
        "of the controller's vassals is destroyed (brings VASSAL_DUMMIES)",
        implies=(F.VASSAL_DUMMIES,),
    ),
    # 1.9 deadlines and processing
    declare(
        F.NO_DEADLINE,
        "1.9",
        S,
        "no deadlines: a phase is processed when every power has "
        "ordered and nobody waits, or by the Master's PROCESS",
    ),
    declare(
        F.NO_QUARTER,
        "1.9",
        S,
        "NO_RETREAT and NO_DRAW together: dislodged units are destroyed, and no draw may be voted",
        implies=(F.NO_RETREAT, F.NO_DRAW),
    ),
    declare(
        F.NO_LATE_CHANGES,
        "1.9",
        S,
        "once the deadline has passed, orders on record may not be "
        "changed or cleared (a power that sent none may still send them; the Master may)",
        excludes=(F.LATE_CHANGES,),
    ),
    declare(
        F.LATE_CHANGES, "1.9", S, "orders may be changed after the deadline until the phase is processed"
    ),
    declare(
        F.REAL_TIME,
        "1.9",
        S,
        "a phase is processed the moment the last orders arrive (no "
        "delay for second thoughts) and nobody may SET WAIT",
        excludes=(F.ALWAYS_WAIT,),
    ),
    declare(
        F.NO_MINOR_WAIT,
        "1.9",
        S,
        "players may SET WAIT only in movement phases, and ALWAYS_WAIT holds only for them",
    ),
    declare(
        F.ALWAYS_WAIT, "1.9", S, "a phase is never processed before its deadline, even when all are ready"
    ),
    declare(
        F.PLAYER_DEADLINES,
        "1.9",
        S,
        "players may extend the deadline with SET DEADLINE (only the "
        "Master may shorten it); everyone is told who extended it",
    ),
    declare(
        F.SILENT_ABSENCES,
        "1.9",
        S,
        "absences are told to the Master only, not broadcast (the others learn only that the deadline moved)",
    ),
    declare(
        F.HIDE_ABSENTEES,
        "1.9",
        S,
        "absences are broadcast without who asked for them; only the Master learns who",
    ),
    declare(F.NO_ABSENCES, "1.9", S, "only the Master may SET ABSENCE"),
    declare(
        F.PROGRESSIVE,
        "1.9",
        S,
        "no all-caps headings: payjudge's results are always in mixed "
        "case; this rule also writes the income and transfer statements' headings so",
    ),
    declare(F.PREVIEW, "1.9", S, "every phase is previewed to the Master, who releases it with PROCESS"),
    declare(
        F.NO_WAIT, "1.9", S, "players may not SET WAIT: a phase is processed once every power has ordered"
    ),
    # 1.10 end of the game
    declare(
        F.NO_DRAW,
        "1.10",
        S,
        "no draws: VOTE DRAW and VOTE <n>WAY are refused; the game ends in a victory or a concession",
    ),
    declare(
        F.PROPOSE_DIAS,
        "1.10",
        S,
        "a player proposes a draw of every survivor or a concession "
        "(PROPOSE DRAW, PROPOSE CONCEDE <power>), everyone is told, and the survivors answer "
        "VOTE YES or VOTE NO; one NO vetoes it",
        excludes=(F.NO_DIAS,),
    ),
    declare(
        F.HIDE_PROPOSER, "1.10", S, "a proposal is announced without its proposer", implies=(F.PROPOSE_DIAS,)
    ),
    declare(
        F.NO_DIAS,
        "1.10",
        S,
        "draws may leave survivors out: the powers not conceding draw among "
        "themselves when each accepts a draw of that size (VOTE <n>WAY); by default a draw "
        "includes every survivor",
    ),
    declare(
        F.HOLD_WIN,
        "1.10",
        S,
        "a victory must be held for two years running: the winner must "
        "also have met the condition at the end of the previous year",
    ),
    declare(
        F.SHARED_VICTORY,
        "1.10",
        S,
        "powers that reach the victory condition together share it "
        "(without it a tie goes on until it is broken)",
    ),
    declare(
        F.TEAM_VICTORY,
        "1.10",
        S,
        "a power counts toward victory the centres of the powers it controls (CONTROL, vassals); "
        "a controlled power cannot win on its own",
    ),
    declare(
        F.VICTORY_HOMES,
        "1.10",
        S,
        "victory is counted in other powers' home centres: half the "
        "other powers' homes on average, plus one (10 on the standard map); a tie goes on",
    ),
    declare(
        F.NO_EOG,
        "1.10",
        S,
        "no end-of-game publication: when the game ends, the result and the "
        "treasuries are mailed, but the offer sheets, acceptance lists and bids of rules 3.6 and "
        "4.5 stay secret",
    ),
)
