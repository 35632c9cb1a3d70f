"""The simulator's checks find what they look for: each is shown a mail that breaks its
promise and one that keeps it (the simulator is only as good as these)."""

from __future__ import annotations

from tests.service.judge import Mail

from .checks import blind_sight, privacy
from .letters import Marker

MASTER = "gm@sim.test"
ALLOWED = {"FRANCE": frozenset({"f@sim.test"}), "ITALY": frozenset({"i@sim.test"})}


def mail(to: str, body: str, kind: str = "reply") -> Mail:
    return Mail((to,), "subject", body, kind, b"")


def problems(*mails: Mail) -> list[str]:
    return privacy(
        mails,
        seed=7,
        allowed=ALLOWED,
        master=MASTER,
        observers=frozenset({"o@sim.test"}),
        passwords=["pw-secret"],
        private_words={"FRANCE": ("Account statement of FRANCE",)},
    )


def test_a_marker_goes_to_its_owner_its_addressee_and_the_master_only():
    sheet = str(Marker(7, "FRANCE", "ALL", 1))
    press = str(Marker(7, "FRANCE", "ITALY", 2))
    assert not problems(mail("f@sim.test", sheet), mail(MASTER, sheet), mail("i@sim.test", press))
    assert problems(mail("i@sim.test", sheet))
    assert problems(mail("g@sim.test", press))
    assert not problems(mail("g@sim.test", sheet, kind="game_end"))  # published at the end


def test_statements_passwords_program_values_and_observers():
    assert problems(mail("i@sim.test", "Account statement of FRANCE, Spring 1901"))
    assert problems(mail("i@sim.test", "line 1: SIGNIN Fs7 pw-secret"))
    assert problems(mail("i@sim.test", "A VEN belongs to None\n"))
    assert not problems(mail("i@sim.test", "None of your offers was accepted."))
    assert problems(mail("o@sim.test", "your statement", kind="statement"))


def test_blind_results_name_no_unit_their_reader_never_saw():
    text = "French (FRANCE):\n  A PAR - BUR\n\nItalian (ITALY):\n  A VEN - TYR\n  F NAP H\n"
    seen = {"FRANCE": frozenset({"PAR", "BUR"}), "ITALY": frozenset({"VEN", "TYR"})}
    found = blind_sight(text, "FRANCE", seen)
    assert len(found) == 1 and "NAP" in found[0]


def test_blind_results_show_no_own_build_that_was_not_made():
    text = "Austrian (AUSTRIA):\n  BUILD A BUD\n  BUILD F TRI   (void)\n"
    assert blind_sight(text, "AUSTRIA", {}, frozenset({"VIE"}))
    assert not blind_sight(text, "AUSTRIA", {}, frozenset({"BUD"}))


def test_a_marker_reads_back_whole_when_power_names_hold_its_letters():
    press = str(Marker(7, "SICILY", "BYZANTIUM", 22))
    allowed = {"SICILY": frozenset({"s@sim.test"}), "BYZANTIUM": frozenset({"b@sim.test"})}
    found = privacy(
        [mail("b@sim.test", press)],
        seed=7,
        allowed=allowed,
        master=MASTER,
        observers=frozenset(),
        passwords=[],
        private_words={},
    )
    assert not found
