"""`[simulator] kind = "first_yes"`: a rule-based user, no model.

It opens with the sample's opening, accepts the first turn that shows its target (by the
grounded item id, as the built-in users decide), and otherwise declines politely.
"""

from __future__ import annotations

from typing import Literal

from macrs_sim.protocol import Sample, SystemTurn, UserTurn
from macrs_sim.simulators.registry import SimulatorContext, SimulatorOptions, SimulatorSpec


class FirstYesOptions(SimulatorOptions):
    kind: Literal["first_yes"] = "first_yes"
    accept: str = "Yes, that one!"
    decline: str = "No, thank you."


class FirstYesUser:
    """A `UserSimulator` (macrs_sim.simulators.base), one per dialogue."""

    def __init__(self, sample: Sample, options: FirstYesOptions) -> None:
        self._sample = sample
        self._options = options

    async def open(self) -> UserTurn:
        return UserTurn(text=self._sample.opening)

    async def reply(self, turn: SystemTurn) -> UserTurn:
        if any(item.item_id == self._sample.target_id for item in turn.items):
            return UserTurn(text=self._options.accept, accepted=True)
        return UserTurn(text=self._options.decline)


def build(options: FirstYesOptions, ctx: SimulatorContext) -> FirstYesUser:
    return FirstYesUser(ctx.sample, options)


SPEC = SimulatorSpec(kind="first_yes", options=FirstYesOptions, build=build, uses_llm=False)
