"""The rule flags of seed 003 §1.1–1.5: game start, press, movement orders, convoys,
retreats and adjustments (one declaration each, read by `flag_registry.py`)."""

from __future__ import annotations

from typing import Final

from .flag_declare import ALWAYS, NO, NOT_YET, PRESS_KINDS, S, declare
from .flags import Flag as F
from .flags import FlagInfo

GAME_FLAGS: Final[tuple[FlagInfo, ...]] = (
    # 1.1 game start
    declare(F.POWER_CHOICE, "1.1", S, "players may pick a free power when they join (JOIN <power>@<game>)"),
    declare(
        F.MOBILIZE,
        "1.1",
        S,
        "no units and no centres at the start; the game begins with an adjustment phase in "
        "which each power builds one unit in a home centre, and owns that centre",
    ),
    declare(
        F.FLEX_SETUP,
        "1.1",
        S,
        "home-centre units are left off the board; each power chooses what to build there",
        aliases=("BLANK_BOARD",),
    ),
    declare(F.SILENT_JOIN, "1.1", S, "nobody is told when a player joins the forming game"),
    declare(
        F.START_MASTER, "1.1", S, "a full game waits for the Master's ACTIVATE instead of starting by itself"
    ),
    # 1.2 press
    declare(
        F.NO_PRESS,
        "1.2",
        S,
        "no press between players: they write to the Master, and the Master to anyone",
        implies=(F.SILENT_ABSENCES,),
        excludes=PRESS_KINDS,
    ),
    declare(
        F.PUBLIC_PRESS,
        "1.2",
        S,
        "players may broadcast or write to the Master, nothing private",
        aliases=("NO_PARTIAL",),
    ),
    declare(F.MUST_ORDER, "1.2", S, "a power may write to players only once it has sent orders this phase"),
    declare(
        F.LATE_SEND,
        "1.2",
        S,
        "a power late with its orders may still send private press "
        "(without it, a late power may only broadcast or write to the Master)",
    ),
    declare(F.NO_LATE_RECEIVE, "1.2", S, "nobody may send private press to a power late with its orders"),
    declare(
        F.FTF_PRESS,
        "1.2",
        S,
        "press between players only in movement phases, and none privately once the deadline has passed",
    ),
    declare(F.GREY_PRESS, "1.2", S, "every message between players arrives without its sender"),
    declare(F.YELLOW_PRESS, "1.2", S, "every broadcast arrives without its sender"),
    declare(F.WHITE_GREY, "1.2", S, "a player may choose to send a message without its sender"),
    declare(F.FAKE_PRESS, "1.2", S, "a player may sign a message as another power and show other addressees"),
    declare(F.MUTE_OBSERVERS, "1.2", S, "observers may write only to the Master"),
    declare(
        F.TOUCH_PRESS,
        "1.2",
        S,
        "private press only to powers with a unit that could support a hold of one of the sender's, "
        "or the other way round; broadcasts only with PUBLIC_PRESS",
    ),
    declare(
        F.REMOTE_PRESS,
        "1.2",
        S,
        "private press only to powers with nothing next to the sender's "
        "units or centres; broadcasts only with PUBLIC_PRESS",
    ),
    declare(
        F.BACKSEAT_PRESS, "1.2", S, "powers on the board may not write to each other; observers may broadcast"
    ),
    declare(
        F.EAVESDROP,
        "1.2",
        S,
        "every private message is secretly copied to the Master; "
        "game listings show the rule only when written EAVESDROP!",
        aliases=("EAVESDROP!",),
    ),
    declare(F.PRESS_MASTER, "1.2", S, "the Master gets broadcasts only when addressed"),
    declare(
        F.IGNORE_RESULTS,
        "1.2",
        S,
        "the Master is not mailed the public results of each phase "
        "(previews and the Master's report of the bids still come)",
    ),
    # 1.3 movement orders
    declare(
        F.ALWAYS_CONFIRM,
        "1.3",
        S,
        "the Master gets a copy of the judge's answer to every order update (offer sheets, "
        "orders, CLEAR), only its order lines; every message is answered anyway",
    ),
    declare(
        F.NEED_MOVE_MARKS,
        "1.3",
        ALWAYS,
        "a move must be written with a mark (A VEN - TRI); Payola needs it to keep offers unambiguous",
        also=("3.1",),
    ),
    declare(
        F.BROADCAST_ORDERS,
        "1.3",
        NO,
        "orders would be shown to everyone as they arrive",
        reason="offer sheets are secret in Payola until the end of the game",
        implies=(F.ALWAYS_CONFIRM,),
    ),
    declare(F.SIGNAL_SUPPORT, "1.3", S, "a unit may be offered a void support as a signal (written with ?)"),
    declare(
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
    declare(
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
    declare(
        F.ORDER_ANY, "1.3", ALWAYS, "any power may make offers to any unit (that is Payola)", also=("3.1",)
    ),
    declare(
        F.PROXY_OK,
        "1.3",
        NO,
        "a power would hand one of its units to another power for a phase",
        reason="Payola has no proxy orders, since every unit already obeys the best offer",
        implies=(F.ORDER_ANY,),
        also=("3.1",),
    ),
    declare(F.NO_PROXY, "1.3", ALWAYS, "there are no proxy orders"),
    declare(F.COASTAL_CRAWL, "1.3", S, "fleets may swap along the coasts of a two-coast province"),
    declare(F.FRIENDLY_FIRE, "1.3", S, "a power may dislodge its own units and cut its own supports"),
    declare(
        F.WEAK_BOUNCES, "1.3", S, "a unit whose move fails has no strength to hold its place (Key's rule)"
    ),
    declare(
        F.DEFAULT_UNORDERED,
        "1.3",
        S,
        "own units left without an order hold (matters under PAY_DUMMIES)",
        also=("3.1",),
    ),
    declare(
        F.UNITS_ADAPT,
        "1.3",
        S,
        "on a map whose terrain changes by phase, a unit on a space its kind can no longer stand "
        "on becomes the other kind (a fleet on drained land an army); without it such a unit is destroyed",
    ),
    declare(
        F.HIBERNATE,
        "1.3",
        S,
        "a unit on a space that became impassable, or a fleet on one that became land, stays "
        "and may only hold until the terrain changes back (before UNITS_ADAPT, when both are used)",
    ),
    declare(F.IMMOBILE_DUMMIES, "1.3", S, "units of dummy powers may not move"),
    declare(
        F.SUBMIT_MASTER,
        "1.3",
        ALWAYS,
        "the Master may send orders and offers for any power (FOR <power> after SIGNON M<game>)",
    ),
    # 1.4 convoys
    declare(F.COASTAL_CONVOY, "1.4", S, "fleets on coasts may convoy as well as fleets at sea"),
    declare(
        F.PORTAGE_CONVOY,
        "1.4",
        S,
        "armies may carry fleets overland between coasts, and from one coast of a province to "
        "another (an army in a bordering province)",
    ),
    declare(
        F.MULTI_COAST_PORTAGE,
        "1.4",
        S,
        "portage only from one coast of a province to another, by an army in any bordering province",
        implies=(F.PORTAGE_CONVOY,),
    ),
    declare(F.SAFE_CONVOYS, "1.4", S, "a beleaguered fleet cannot convoy"),
    declare(F.WEAK_CONVOYS, "1.4", S, "a convoying fleet must out-support every attack on it"),
    declare(F.CONVOY_BACK, "1.4", S, "a convoy route may pass a sea twice or come back to its start"),
    declare(
        F.NO_RETURN,
        "1.4",
        S,
        "the catalog's old name for the default: no convoy route passes a sea twice "
        "(naming it changes nothing; it cannot be used with CONVOY_BACK)",
        excludes=(F.CONVOY_BACK,),
    ),
    # 1.5 retreats and adjustments
    declare(F.NO_RETREAT, "1.5", S, "dislodged units are destroyed without a retreat"),
    declare(F.BUILD_ANY, "1.5", S, "builds in any owned centre"),
    declare(F.HOME_BUILDS, "1.5", S, "builds in any owned centre that was some power's home centre"),
    declare(
        F.REMOTE_BUILDS,
        "1.5",
        S,
        "a power builds only while it still owns one of its home centres",
        defaults=((F.BUILD_ANY, F.HOME_BUILDS),),
    ),
    declare(F.GARRISON, "1.5", S, "an eliminated power may build again in an unoccupied home centre"),
    declare(F.NO_RESERVES, "1.5", NOT_YET, "the map's reserves are ignored"),
    declare(F.NO_MILITIA, "1.5", NOT_YET, "the map's militia are ignored"),
    declare(F.NO_FACTORIES, "1.5", NOT_YET, "the map's factory sites are ignored"),
    declare(F.NO_PARTISANS, "1.5", NOT_YET, "the map's partisan sites are ignored"),
    declare(
        F.TEXT_INPUT, "1.5", ALWAYS, "retreats and adjustments are written as text: by mail they always are"
    ),
)
