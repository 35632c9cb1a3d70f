"""The game simulator (issue 26): whole seeded games by mail, with the judge's promises checked
after every message and every phase. See docs/simulator.md."""
