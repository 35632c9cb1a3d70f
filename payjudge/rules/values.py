"""A base for value classes made by the thousand: what a frozen dataclass gives, by hand.

A frozen dataclass sets each field in `__init__` through `object.__setattr__`, in a method
the dataclasses module writes as Python code; compiled (payjudge/native.py), that is the
costliest way to make an object. A class on this base declares its attributes `Final`
(mypy refuses any assignment after `__init__`; the compiled class's attributes are
read-only), sets them directly in its own `__init__`, and names them once in `_key`, which
gives equality (same class, same key), hashing and the `repr`, as a dataclass would.
"""

from __future__ import annotations


class Value:
    __slots__ = ()

    def _key(self) -> tuple[object, ...]:
        """The attributes that make the value, in order."""
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._key() == other._key()

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"{type(self).__name__}{self._key()!r}"
