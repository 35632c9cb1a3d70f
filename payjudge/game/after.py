"""The named steps of a message's transaction that run after all its commands.

A handler whose work must see the whole message (the sheet it sends, every WORTH line,
every vote) queues a step with `ctx.then(...)`; `service/steps.py` runs the queue, in the
order queued, through one table, so every such step is listed here and run there. A step
queued twice (the same step, line and account) runs once.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from ..rules.names import PowerName


class Step(enum.Enum):
    """What runs after the commands, and why it must wait for them."""

    APPLY_RESIGN = "apply_resign"  # RESIGN: the power leaves once the rest of the message is in
    CHECK_ALLOWANCE = "check_allowance"  # WORTH: a company's total, once all its WORTH lines are in
    SETTLE_VOTES = "settle_votes"  # VOTE, PROPOSE: the standing votes may end the game
    REPORT_ACCOUNT = "report_account"  # BALANCE, STATUS: shows the sheet this message sends


@dataclass(frozen=True)
class AfterStep:
    """One queued step: the line that asked for it (its results are shown there) and the
    power or Exchange account it is for, if any."""

    step: Step
    line: int | None
    account: PowerName | None = None

    @classmethod
    def apply_resign(cls, line: int | None, power: PowerName) -> AfterStep:
        return cls(Step.APPLY_RESIGN, line, power)

    @classmethod
    def check_allowance(cls, account: str) -> AfterStep:
        # an Exchange account key: a company's power name, or an investor's `@NAME`
        return cls(Step.CHECK_ALLOWANCE, None, PowerName(account))

    @classmethod
    def settle_votes(cls, line: int | None) -> AfterStep:
        return cls(Step.SETTLE_VOTES, line)

    @classmethod
    def report_account(cls, line: int | None, power: PowerName) -> AfterStep:
        return cls(Step.REPORT_ACCOUNT, line, power)

    @property
    def for_account(self) -> PowerName:
        """The account of a step that has one (a step queued without is a bug of ours)."""
        if self.account is None:
            raise ValueError(f"{self.step} was queued without its account")
        return self.account
