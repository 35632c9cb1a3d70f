"""The Payola engine (rules 2-6 of the Payola rulebook): pure, no I/O, no clock, no global random.

- `rules`: the game's rule flags and income settings, as one frozen value.
- `offers`: offer sheets as typed values (what `payjudge.text.sheet` produces).
- `acceptance`: acceptance lists and their once-per-phase expansion (rule 4).
- `book`, `schedule`, `decide`: the order book, offers' worth, one unit's decision (3.3, 5.1-5.4).
- `reduction`, `overspend`: overexpenditure (5.5), literal (the specification) and fast.
- `auction`: `run_auction`, the entry point of order determination (rules 5.1-5.6).
- `statement`: the private account statement as a view (rule 5.7).
- `income`, `transfers`: accounts (rules 2.1, 2.3, 2.4, 6.2, 6.6, 6.7).
"""
