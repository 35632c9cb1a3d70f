"""A message's share of the processor's CPU: each message gets `message_cpu_seconds`, and
one that spends it is quarantined (issue 26: one mail stopped all intake for hours).

Two checks share one budget. While a message is read (parsing untrusted bytes, no
transaction open) a CPU timer (`ITIMER_PROF`) interrupts the parser wherever it is, even
in a loop of the email package's; that needs the main thread of a process, as the
processor's own process has. While its commands run, inside the transaction, the
processor looks between commands (`check`), so a transaction is never interrupted half
way through a write. Both count CPU time, not time on the clock: a processor that waits
for the database or shares a core with the listener spends none.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

REPEAT = 0.05


class OverBudget(Exception):
    """The message spent its CPU budget."""

    def __init__(self, seconds: float):
        super().__init__(f"the message used more than its {seconds:g} s of processing time")
        self.seconds = seconds


@dataclass(frozen=True, slots=True)
class _Budget:
    seconds: float
    until: float  # the thread's CPU time by which it must be done


_CURRENT: ContextVar[_Budget | None] = ContextVar("payjudge_budget", default=None)


@contextmanager
def message_budget(seconds: float) -> Iterator[None]:
    """The budget of one message, from here to the end of the block (0: none)."""
    if seconds <= 0:
        yield
        return
    token = _CURRENT.set(_Budget(seconds, time.thread_time() + seconds))
    try:
        yield
    finally:
        _CURRENT.reset(token)


def check() -> None:
    """Raise `OverBudget` if the current message spent its budget (a check between steps)."""
    budget = _CURRENT.get()
    if budget is not None and time.thread_time() > budget.until:
        raise OverBudget(budget.seconds)


@contextmanager
def interrupting() -> Iterator[None]:
    """Within the block, interrupt the current message with `OverBudget` as soon as it
    spends its budget (a CPU timer), then check once more at its end. Outside the main
    thread (the processor as a thread of the daemon, on SQLite in memory) only the
    check at the end is made."""
    budget = _CURRENT.get()
    left = budget.until - time.thread_time() if budget is not None else 0.0
    if budget is None or not _can_interrupt():
        yield
        check()
        return
    if left <= 0:
        raise OverBudget(budget.seconds)

    fired: list[bool] = []
    armed = [True]

    def expired(_signum: int, _frame: object) -> None:
        if armed[0]:
            fired.append(True)
            raise OverBudget(budget.seconds)

    previous = signal.signal(signal.SIGPROF, expired)
    # and again every REPEAT seconds of CPU after: a parser that swallows the exception
    # (the email package catches everything in places) is interrupted again
    signal.setitimer(signal.ITIMER_PROF, left, REPEAT)
    try:
        yield
    finally:
        _disarm(armed, fired, previous)
    if fired:  # the parser caught it and went on to an end: the budget is spent all the same
        raise OverBudget(budget.seconds)
    check()


def _disarm(armed: list[bool], fired: list[bool], previous: Any) -> None:
    """Stop the timer, even if it fires once more meanwhile (its exception is taken
    here, not left to burst out of the caller's later code)."""
    while True:
        try:
            armed[0] = False
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, previous)
            return
        except OverBudget:
            fired.append(True)


def _can_interrupt() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
