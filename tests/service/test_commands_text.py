"""The command lexer: openers, keyword lines, order lines, blocks, line numbers."""

from payjudge.text.commands import Kind, split_commands, split_identity


def _lines(text):
    return [(i, line) for i, line in enumerate(text.splitlines(), 1) if line.strip()]


def test_signon_then_commands_and_order_lines():
    script = split_commands(
        _lines(
            "SIGNON Fpay7 secret\n12 : A PAR - BUR\nACCEPT FEG?\n3*2#1 > A MAR - SPA | - PIE\n"
            "SET WAIT\nSIGNOFF\nthanks!\n"
        )
    )
    kinds = [(c.line, c.kind, c.keyword) for c in script.commands]
    assert kinds == [
        (1, Kind.OPENER, "SIGNON"),
        (2, Kind.ORDER, ""),
        (3, Kind.COMMAND, "ACCEPT"),
        (4, Kind.ORDER, ""),
        (5, Kind.COMMAND, "SET"),
    ]
    assert script.ignored == ((7, "thanks!"),)


def test_a_message_must_open_with_an_opener():
    script = split_commands(_lines("Hello judge\nSIGNON Fpay7 secret\n"))
    assert not script.commands
    assert script.problems[0].line == 1
    assert "must start with SIGNON" in script.problems[0].message


def test_press_block_keeps_its_text():
    script = split_commands(
        _lines("SIGNON Fpay7 x\nPRESS TO EG\nLet us talk. 100% honest.\nA PAR - BUR\nENDPRESS\nBALANCE\n")
    )
    press = script.commands[1]
    assert press.keyword == "PRESS" and press.args == ("TO", "EG")
    assert [t for _, t in press.body] == ["Let us talk. 100% honest.", "A PAR - BUR"]
    assert script.commands[2].keyword == "BALANCE"


def test_create_block_reads_settings_up_to_signoff():
    script = split_commands(_lines("CREATE pay7 pw\nRULE EBAYOLA\nTIMING MOVE 2D\nSIGNOFF\n"))
    create = script.commands[0]
    assert create.keyword == "CREATE" and create.args == ("pay7", "pw")
    assert [t for _, t in create.body] == ["RULE EBAYOLA", "TIMING MOVE 2D"]


def test_identity_words():
    assert split_identity("Fpay7") == ("F", "pay7")
    assert split_identity("france@Pay7") == ("FRANCE", "pay7")
    assert split_identity("Mpay7") == ("M", "pay7")
    assert split_identity("@@") is None
