"""`decide.evaluate` remembers the book's last evaluation and decides again only the units
whose entries' amounts changed: along walks of rounds, jumps, steps back and changes of
the eBayola setting, it must give what deciding every unit from scratch gives."""

from __future__ import annotations

import random

from payjudge.payola.acceptance import expand_all
from payjudge.payola.book import compile_book
from payjudge.payola.decide import amounts_at, decide, evaluate
from payjudge.payola.rules import PayolaRules
from payjudge.payola.schedule import plateaus, values

from .randomsheets import heavy_auction

SETTINGS = [(False, False), (True, False), (True, True)]  # (eBayola, PUBLIC_TOTALS)


def _from_scratch(book, k, ebayola, public):
    amount = values(book.rows, k, book.flat)
    plateau = plateaus(book.rows, k, book.flat)
    return [decide(ub, amount, plateau, ebayola, public) for ub in book.units]


def test_remembered_evaluations_equal_fresh_ones():
    for seed in range(30):
        rng = random.Random(f"evaluate:{seed}")
        flags = ["NO_PLATEAU"] if seed % 4 == 3 else []
        position, sheets, _, accept, rules, dummies = heavy_auction(rng, rules=PayolaRules.from_flags(flags))
        book = compile_book(position, sheets, expand_all(accept, position.map, seed, dummies), rules, dummies)
        k = [0] * len(book.powers)
        for _ in range(80):
            move = rng.random()
            if move < 0.6:  # a round of some powers
                k = [x + (rng.random() < 0.3) for x in k]
            elif move < 0.8:  # a jump, past plateaus and zeros
                k = [x + rng.choice([0, rng.randrange(40)]) for x in k]
            elif move < 0.9:  # back to an earlier state
                k = [max(x - rng.randrange(20), 0) for x in k]
            # else: the same state again (the auction's final reading)
            ebayola, public = rng.choice(SETTINGS)
            assert evaluate(book, k, ebayola, public) == _from_scratch(book, k, ebayola, public)
            assert amounts_at(book, k) == values(book.rows, k, book.flat)
