"""Vassal states (VASSAL_DUMMIES, TORN_ALLEGIANCE, seed 003 §1.8): who owns the centres and
who controls which dummy when a year's fall is over, before the adjustments.

`control` maps a controlled power to the power whose player orders for it (its
controller); under VASSAL_DUMMIES the controlled dummies are the vassal states. The steps,
in order:

1. centres change hands as usual, except that a dummy's home centre is never lost;
2. a Great Power's home centre owned by one of its vassals (under the control of the
   year now ending) reverts to the Great Power;
3. a dummy all of whose home centres stand occupied by forces of one Great Power (its own
   units or its vassals') becomes that power's vassal; otherwise its control is unchanged;
4. step 2 again, under the new control (a dummy that just became a vassal gives back the
   home centres of its new controller that it took as an autonomous state);
5. TORN_ALLEGIANCE: a vassal's unit standing on a centre owned neither by its controller
   nor by one of the controller's vassals is destroyed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .geography import Map
from .names import PowerName, ProvinceName
from .orders import Unit


@dataclass(frozen=True)
class Allegiance:
    """The outcome of `settle`: centres, units (less the torn ones), control, and changes."""

    centers: Mapping[PowerName, frozenset[ProvinceName]]
    units: Mapping[PowerName, tuple[Unit, ...]]
    control: Mapping[PowerName, PowerName]
    changes: tuple[tuple[str, PowerName | None, PowerName], ...]  # (centre, from, to)
    torn: tuple[tuple[PowerName, Unit], ...]  # TORN_ALLEGIANCE: (power, unit) destroyed


def lord(power: PowerName, control: Mapping[PowerName, PowerName]) -> PowerName:
    """The power whose player gives `power`'s orders: its controller, or itself."""
    return control.get(power, power)


def team(power: PowerName, control: Mapping[PowerName, PowerName]) -> frozenset[PowerName]:
    """`power` and the powers it controls."""
    return frozenset({power, *(p for p, c in control.items() if c == power)})


def _revert(
    owner: dict[ProvinceName, PowerName],
    control: Mapping[PowerName, PowerName],
    homes: Mapping[PowerName, frozenset[ProvinceName]],
) -> None:
    for center, power in owner.items():
        master = control.get(power)
        if master is not None and center in homes.get(master, ()):
            owner[center] = master


def settle(
    m: Map,
    units: Mapping[PowerName, Sequence[Unit]],
    centers: Mapping[PowerName, frozenset[ProvinceName]],
    dummies: frozenset[PowerName],
    control: Mapping[PowerName, PowerName],
    *,
    torn_allegiance: bool = False,
) -> Allegiance:
    """The five steps of the module docstring. `dummies` are all the dummy powers
    (controlled or not); `control` the control in force during the year now ending."""
    homes = {p.name: frozenset(p.homes) for p in m.powers}
    before = {c: p for p, cs in centers.items() for c in cs}
    owner, occupant = _occupy(m, units, before, dummies, homes)
    _revert(owner, control, homes)
    new = _new_control(occupant, dummies, control, homes)
    _revert(owner, new, homes)
    kept: dict[PowerName, tuple[Unit, ...]] = {p: tuple(us) for p, us in units.items()}
    torn = _tear(m, kept, owner, new) if torn_allegiance else []
    changes = tuple(sorted((c, before.get(c), p) for c, p in owner.items() if before.get(c) != p))
    grouped: dict[PowerName, set[ProvinceName]] = {}
    for c, p in owner.items():
        grouped.setdefault(p, set()).add(c)
    return Allegiance(
        centers={p: frozenset(cs) for p, cs in grouped.items()},
        units=kept,
        control=new,
        changes=changes,
        torn=tuple(torn),
    )


def _occupy(
    m: Map,
    units: Mapping[PowerName, Sequence[Unit]],
    before: dict[ProvinceName, PowerName],
    dummies: frozenset[PowerName],
    homes: Mapping[PowerName, frozenset[ProvinceName]],
) -> tuple[dict[ProvinceName, PowerName], dict[str, PowerName]]:
    """Step 1: the owners of the centres after the fall, and each province's occupant."""
    owner = dict(before)
    dummy_home = {h: d for d in dummies for h in homes.get(d, ())}
    occupant: dict[str, PowerName] = {}
    for power, us in units.items():
        for unit in us:
            province = m.provinces[unit.location.province]
            occupant[province.name] = power
            if not province.supply_center:
                continue
            if dummy_home.get(province.name, power) != power:
                continue  # a dummy never loses a home centre
            owner[province.name] = power
    return owner, occupant


def _new_control(
    occupant: dict[str, PowerName],
    dummies: frozenset[PowerName],
    control: Mapping[PowerName, PowerName],
    homes: Mapping[PowerName, frozenset[ProvinceName]],
) -> dict[PowerName, PowerName]:
    """Step 3: a dummy whose homes are all held by one Great Power's team becomes its vassal."""
    new = dict(control)
    for dummy in sorted(dummies):
        own_homes = homes.get(dummy)
        if not own_homes:
            continue
        lords = {lord(occupant[h], control) if h in occupant else None for h in own_homes}
        if len(lords) == 1:
            master = lords.pop()
            # only a Great Power takes a vassal: never a dummy, autonomous or vassal
            if master is not None and master != dummy and master not in dummies:
                new[dummy] = master
    return new


def _tear(
    m: Map,
    kept: dict[PowerName, tuple[Unit, ...]],
    owner: dict[ProvinceName, PowerName],
    control: dict[PowerName, PowerName],
) -> list[tuple[PowerName, Unit]]:
    """Step 5 (TORN_ALLEGIANCE): the vassals' units on centres of no ally go; `kept` loses them."""
    torn: list[tuple[PowerName, Unit]] = []
    for vassal, master in sorted(control.items()):
        allies = team(master, control)
        stay = []
        for unit in kept.get(vassal, ()):
            on = m.provinces[unit.location.province]
            if on.supply_center and owner.get(on.name) not in allies:
                torn.append((vassal, unit))
            else:
                stay.append(unit)
        if vassal in kept:
            kept[vassal] = tuple(stay)
    return torn
