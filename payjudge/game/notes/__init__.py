"""The typed results a command's reply shows, one frozen dataclass per note template.

Each type names its template (`templates/notes/<note>.txt.j2`), which shows it as
`note.data`; a handler gives one to `Reply.result`, so mypy checks every field a handler
fills. Results that belong to a use case stay beside it (`game/orders.py`,
`game/transfer.py`, …); the ones here are those a handler used to spell as keywords:
the Master's commands (`master`), the openers that bring someone in (`entry`), the
reports (`reports`) and a player's settings and votes (`player`).
`tests/service/test_note_types.py` renders every template from its type.
"""
