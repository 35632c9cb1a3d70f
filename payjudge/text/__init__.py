"""The e-mail language of the judge, as pure parsers: text in, typed values and problems out.

- `sheet`: offer sheets (rule 3.1, shared/spec/email.md), checked against the position.
- `amounts`: the amount grammar of an offer line (`3*2#1+4`).
- `problems`: a problem found in a line of a message (line number, kind, message).
"""
