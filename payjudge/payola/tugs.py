"""Tugs of war over units, for `sweep.Sweep`: a repeating pattern of rounds, found by
simulation and then followed exactly, class by class.

A power that holds a unit it pays a lot for overspends and is reduced; that loses it the
unit, and a few rounds later the others' falling offers give it back: the unit's decision
goes back and forth and the power starts and stops overspending every few rounds
("chattering"), as long as the sums of money allow — the longer, the more money. Two
such units may share a power, a unit may go back and forth among three candidates.
While nothing else changes, the state of such a tug of war is the leads of the units
involved among their candidates, and each round moves them by amounts that depend only
on who overspends, which depends only on the units' decisions: the leads come back to
where they were after some L rounds, and the rounds repeat with period L.
`Tugs.establish` finds L and the pattern by simulating the units concerned (their
totals and everyone's spending, all linear in the rounds) until the leads come back to
where they started — or, as a candidate drifting away keeps them from coming back
exactly, until the decisions and who overspends have repeated three times. Then
`set_course` makes the powers whose overspending varies follow the pattern
(`slides.SlidingPlanner.set_pattern`), plans the units involved for any of their
candidates (`Wobble`), and every other unit along the pattern: once, only where the
change of course matters (`kinetic.Planner.affected`).

Whatever the pattern, at the steps t + q*L + j (j < L) every total, every lead and every
power's spending for given decisions is linear in q: so a unit that *follows* keeps, in
each class j, one decision until the step its plan says (`wobble`), and `_next_sliding`
finds, class by class, the first step at which a power would not overspend as the
pattern says. Up to that step the rounds go exactly as predicted (`predicted`), so whole
stretches of switching cost one event; at that step the events take over again
(`set_course` to the powers' rates of that step, or to the next pattern found). The
simulation only proposes: everything is checked exactly before any step is skipped.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .lines import Grad
from .schedule import INF
from .slides import first_q

if TYPE_CHECKING:
    from .book import Book
    from .kinetic import Pays
    from .slides import SlidingPlanner

SIM_MAX = 48  # the longest pattern looked for (and so the most classes)
GROUP_MAX = 6  # the most candidates a unit may go back and forth among

Line = tuple[int, Grad]  # a payment: AgP at zero rounds, and AgP per round by power
# a unit's candidates, their totals and gradients, and what each decision pays (`_group`)
Group = tuple[tuple[int, ...], list[int], list[Grad], list[dict[int, Line]]]


@dataclass
class Schedule:
    """The repeating pattern: from step tau on, over[(t - tau) % period] overspends at t."""

    tau: int
    period: int
    over: list[tuple[bool, ...]]
    powers: list[int]  # the powers whose overspending varies within a period


@dataclass
class Wobble:
    """A unit whose decision goes back and forth among a few candidates (`members`, in
    tie-break order); its decision at a step is worked out when asked (`decide`)."""

    unit: int
    members: tuple[int, ...]
    totals: list[int]  # each member's total at rounds k0
    grads: list[Grad]  # and its gradient
    k0: list[int]
    pays: list[dict[int, Line]]  # what each decision pays

    def decide(self, ks: list[int]) -> int:
        """The index (in `members`) of the winner at rounds ks."""
        vals = [
            v + sum(c * (ks[q] - self.k0[q]) for q, c in g.items()) for v, g in zip(self.totals, self.grads)
        ]
        return vals.index(max(vals))


class Tugs:
    """The tugs of war of a `sweep.Sweep` (a mixin: the sweep has the plans and the sums)."""

    # what the sweep sets up (`Sweep.__init__`) and provides
    book: Book
    limits: Sequence[int]
    n: int
    planner: SlidingPlanner
    ebayola: bool
    base: list[int]
    coef: list[dict[int, int]]
    plans: list[list[tuple[int, int, Grad]]]
    schedule: Schedule | None
    wobbles: dict[int, Wobble]
    pending: set[int]
    dirty: set[int]
    until: list[float]

    if TYPE_CHECKING:

        def _install(self, ui: int, end: float, pays: Pays) -> None: ...
        def _line(self, p: int, t: int) -> tuple[int, int]: ...
        def _replan(self, units: Iterable[int], t: int) -> None: ...

    def membership(self, t: int) -> list[bool]:
        """Who would overspend at step t."""
        if not self.wobbles:
            return [self._line(p, t)[0] > self.limits[p] for p in range(self.n)]
        spent = [self._line(p, t)[0] for p in range(self.n)]
        ks = self.planner.rounds_all(t)
        for wb in self.wobbles.values():
            for p, (a, g) in wb.pays[wb.decide(ks)].items():
                spent[p] += a + sum(x * ks[q] for q, x in g.items())
        return [spent[p] > self.limits[p] for p in range(self.n)]

    def predicted(self, t: int) -> list[bool]:
        """Who overspends at step t if everything goes as planned."""
        s = self.schedule
        if s is None:
            return [r > 0 for r in self.planner.rate]
        over = s.over[(t - s.tau) % s.period]
        cums = self.planner.cum
        return [over[p] if p in cums else r > 0 for p, r in enumerate(self.planner.rate)]

    def _next_sliding(self, t: int, nxt: float) -> float:
        """next_step along the pattern: class by class, the first step at which a power
        would not overspend as predicted. A power's answer holds until its spending
        changes (`dirty`: a plan or a wobble it pays in is made again)."""
        dirty, until = self.dirty, self.until
        dirty.update(p for p in range(self.n) if until[p] <= t)
        if dirty:
            self._windows(t, dirty)
            dirty.clear()
        return min(nxt, min(until))

    def _windows(self, t: int, powers: Iterable[int]) -> None:
        """`until` for these powers, from step t on."""
        planner = self.planner
        L = planner.classes(t)
        kkT, inc, lim = planner.kkT, planner.inc, self.limits
        ks = planner.rounds_all(t)

        def along(v: int, g: Grad) -> tuple[list[int], int]:
            """A line's values at t + j (j < L), and its gain every L steps."""
            vals = [v + sum(x * ks[q] for q, x in g.items())] * L
            for q, x in g.items():
                if x:
                    vals = [a + x * d for a, d in zip(vals, kkT[q])]
            return vals, sum(x * inc[q] for q, x in g.items())

        wins = {}
        for wb in self.wobbles.values():
            by_member = [
                along(v - sum(x * wb.k0[q] for q, x in g.items()), g)[0] for v, g in zip(wb.totals, wb.grads)
            ]
            wins[wb.unit] = [
                max(range(len(by_member)), key=lambda m: (by_member[m][j], -m)) for j in range(L)
            ]
        s = self.schedule
        assert s is not None, "the windows are those of a pattern"
        needs = [s.over[(t + j - s.tau) % s.period] for j in range(L)]
        cums, rate = planner.cum, planner.rate
        for p in powers:
            nxt = INF
            # p's spending: a line of the plans, and one for each decision of a wobble
            lines = [
                (wins[wb.unit], m, line)
                for wb in self.wobbles.values()
                for m in range(len(wb.members))
                for line in (wb.pays[m].get(p),)
                if line
            ]
            if not lines and p not in cums and not any(q in cums for q in self.coef[p]):
                # a straight line, as in `sweep.Sweep.next_step`
                v, slope = self._line(p, t)
                if rate[p] > 0:
                    q = first_q(v - lim[p], slope, True, 1)
                else:
                    q = first_q(lim[p] - v, -slope, False, 1)
                self.until[p] = t + q
                continue
            vals, dr = along(self.base[p] - lim[p], self.coef[p])
            drifts = [dr] * L
            for when, m, (a, g) in lines:
                lv, ld = along(a, g)
                for j in range(L):
                    if when[j] == m:
                        vals[j] += lv[j]
                        drifts[j] += ld
            fixed = None if p in cums else rate[p] > 0
            for j in range(L):
                q0 = 1 if j == 0 else 0
                if needs[j][p] if fixed is None else fixed:
                    q = first_q(vals[j], drifts[j], True, q0)  # spending > limit
                else:
                    q = first_q(-vals[j], -drifts[j], False, q0)  # spending <= limit
                if t + q * L + j < nxt:
                    nxt = t + q * L + j
            self.until[p] = nxt

    def _group(self, u: int, members: tuple[int, ...], t: int) -> Group | None:
        """Unit u's candidates `members` at step t, with every candidate not below them all
        (one that ties with a member, say): (members, their totals, gradients and what each
        decision pays); None if too many."""
        planner = self.planner
        if self.ebayola or self.book.units[u].dummy:
            return None
        planner.update(u, t)
        T, G = planner.T[u], planner.G[u]
        while True:
            low = min(T[z] for z in members)
            last = max(z for z in members if T[z] == low)
            more = [
                i for i in range(len(T)) if i not in members and (T[i] > low or (T[i] == low and i < last))
            ]
            if not more:
                break
            members = tuple(sorted(members + tuple(more)))
            if len(members) > GROUP_MAX:
                return None
        ks = planner.k0[u]
        pays = []
        for z in members:
            pays.append({p: (v - sum(c * ks[q] for q, c in g.items()), g) for p, v, g in planner._pays(u, z)})
        return members, [T[z] for z in members], [dict(G[z]) for z in members], pays

    def wobble(self, u: int, members: tuple[int, ...], t: int) -> bool:
        """Plan unit u for any decision among `members` (`Wobble`): until, in some class,
        its decision would change."""
        if self.schedule is None or u in self.wobbles:
            return False
        group = self._group(u, members, t)
        if group is None:
            return False
        members, totals, grads, pays = group
        planner = self.planner
        end = planner.plan_group(u, t, members)
        L = planner.classes(t)
        inc, kkT = planner.inc, planner.kkT
        for j in range(L):
            # the winner in class j, and when another member would take over
            vals = [v + sum(c * kkT[q][j] for q, c in g.items()) for v, g in zip(totals, grads)]
            w = vals.index(max(vals))
            q0 = 1 if j == 0 else 0
            for m in range(len(members)):
                if m != w:
                    drift = sum(c * inc[q] for q, c in grads[w].items()) - sum(
                        c * inc[q] for q, c in grads[m].items()
                    )
                    q = first_q(vals[w] - vals[m], drift, m < w, q0)
                    if t + q * L + j < end:
                        end = t + q * L + j
        self.wobbles[u] = Wobble(u, members, totals, grads, list(planner.k0[u]), pays)
        for ps in pays:
            self.dirty.update(ps)
        self._install(u, end, [])
        return True

    def establish(
        self, groups: dict[int, tuple[int, ...]], t: int, now: list[bool]
    ) -> tuple[Schedule, dict[int, tuple[int, ...]]] | None:
        """Look for a repeating pattern from step t on, where `now` overspends, among the
        units of `groups` (each: the candidates it went back and forth among) and those that
        wobble: simulate their totals and everyone's spending, all linear in the rounds,
        until the state comes back to itself. Returns the pattern found (for `set_course`),
        or None. Nothing is changed: the simulation only proposes, the plans check."""
        groups = dict(groups)
        for u, wb in self.wobbles.items():
            groups[u] = tuple(sorted(set(groups.get(u, ())) | set(wb.members)))
        sims = []
        for u, members in groups.items():
            group = self._group(u, members, t)
            if group is not None:
                sims.append((u, group))
        if not sims:
            return None
        planner, n, lim = self.planner, self.n, self.limits
        k = planner.rounds_all(t)
        # everyone's spending but for these units (a wobble's is not in the sums at all)
        base = list(self.base)
        coef = [dict(c) for c in self.coef]
        for u, _ in sims:
            for p, a, g in self.plans[u]:
                base[p] -= a
                for q, c in g.items():
                    coef[p][q] -= c
        for u in self.wobbles:
            if all(u != v for v, _ in sims):
                return None  # (cannot be: every wobble is simulated)
        seen: dict[tuple[int, ...], int] = {}
        overs: list[tuple[bool, ...]] = []
        # per round: the decisions, who overspends
        steps: list[tuple[tuple[int, ...], tuple[bool, ...]]] = []
        dk = [0] * n
        period = 0
        for r in range(SIM_MAX + 1):
            spent = [base[p] + sum(c * k[q] for q, c in coef[p].items()) for p in range(n)]
            state: list[int] = []
            decisions = []
            for _, (_, totals, grads, pays) in sims:
                vals = [v + sum(c * dk[q] for q, c in g.items()) for v, g in zip(totals, grads)]
                state.extend(v - vals[0] for v in vals)
                won = vals.index(max(vals))
                decisions.append(won)
                for p, (a, g) in pays[won].items():
                    spent[p] += a + sum(c * k[q] for q, c in g.items())
            key = tuple(state)
            if key in seen:
                if seen[key] == 0:
                    period = r  # back to where it started
                break
            seen[key] = r
            over = tuple(spent[p] > lim[p] for p in range(n))
            overs.append(over)
            steps.append((tuple(decisions), over))
            k = [k[p] + over[p] for p in range(n)]
            dk = [dk[p] + over[p] for p in range(n)]
        if not period:
            # a candidate drifting away keeps the state from coming back exactly: do the
            # decisions and who overspends repeat, three times at least? (the plans check)
            period = next(
                (
                    L
                    for L in range(2, len(steps) // 3 + 1)
                    if all(steps[i] == steps[i - L] for i in range(L, 3 * L))
                ),
                0,
            )
            overs = overs[:period]
        if period < 2 or list(overs[0]) != now:
            return None  # not back to the start (yet), or nothing repeats
        powers = [p for p in range(n) if len({o[p] for o in overs}) == 2]
        if not powers:
            return None
        return Schedule(t, period, overs, powers), {u: g[0] for u, g in sims}

    def set_course(
        self, t: int, now: list[bool], found: tuple[Schedule, dict[int, tuple[int, ...]]] | None = None
    ) -> None:
        """From step t on, where `now` overspends: every power at its rate of now, or along
        the pattern `found` by `establish`; the plans that counted on another course are
        made again (at the next `flush`), once."""
        planner, n = self.planner, self.n
        old = dict(self.wobbles)
        self.wobbles.clear()
        self.dirty.update(range(n))
        schedule, groups = found if found is not None else (None, {})
        patterned = set(schedule.powers) if schedule else set()
        stale: set[int] = set()
        moves = []
        for p in range(n):
            rate = int(now[p])
            if p in patterned:
                # from a line to a pattern: moving less than at 1 round a step, more than at 0
                ways = [True, False] if p in planner.cum else [planner.rate[p] == 0]
            elif p in planner.cum:
                ways = [rate > 0]  # from a pattern to a line: more at 1, less at 0
            elif rate != planner.rate[p]:
                ways = [rate > planner.rate[p]]
            else:
                continue
            if not planner.volatile[p]:
                for joining in ways:
                    stale.update(ui for ui in range(len(self.plans)) if planner.affected(ui, p, t, joining))
            moves.append((p, rate))
        for p, rate in moves:
            planner.set_rate(p, t, rate)
        self.schedule = schedule
        if schedule is not None:
            for p in schedule.powers:
                cum = [0]
                for o in schedule.over:
                    cum.append(cum[-1] + o[p])
                planner.set_pattern(p, t, schedule.period, cum)
            # every course is known now: plans made for any pattern of a power's rounds still
            # hold, the next ones follow the course (and are made again if it changes)
            planner.volatile = [False] * n
            for u, members in groups.items():
                if self.wobble(u, members, t):
                    stale.discard(u)
                    self.pending.discard(u)
                else:
                    stale.add(u)
        for u in old:
            if u not in self.wobbles:  # its payments are not in the sums: plan it now
                self._install(u, *planner.refresh(u, t))
                stale.discard(u)
                self.pending.discard(u)
        self._replan(stale, t)
