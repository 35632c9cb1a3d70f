"""The simulator's fixed seeds (issue 26 item 3): games 1..8, two years each, played by mail
with every promise checked after every message and every phase. The seeds are the first
eight, not chosen by outcome. `make soak` plays a thousand more."""

from __future__ import annotations

from contextlib import nullcontext

import pytest

from .game import pictures_drawn, play, without_pictures

SEEDS = range(1, 9)
YEARS = 2


@pytest.fixture(scope="module", autouse=True)
def _fast_pictures():
    without_pictures()


# the seed whose results mail carries its pictures (1900, a DPjudge drawing): every promise
# holds for mail with attachments too; the other seeds skip them (`without_pictures`)
PICTURED = 2


@pytest.mark.parametrize("seed", SEEDS)
def test_a_seeded_game_keeps_every_promise(seed):
    with pictures_drawn() if seed == PICTURED else nullcontext():
        outcome = play(seed, YEARS)
    assert not outcome.failures, (
        f"seed {seed} ({outcome.setup.map_name}, {' '.join(outcome.setup.flags) or 'no flags'}) broke "
        f"{len(outcome.failures)} promise(s); replay with `python tools/simulate.py --seed {seed} --games 1 "
        f"--years {YEARS} -v`:\n" + "\n".join(str(f) for f in outcome.failures)
    )
    assert (outcome.pictures > 0) == (seed == PICTURED), outcome.pictures
