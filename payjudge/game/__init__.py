"""A game's use cases over the store: its state, lifecycle, phases, money, press and mail.
Command handlers call these; the service layer above runs messages and the clock."""
