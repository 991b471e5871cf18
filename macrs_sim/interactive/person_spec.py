"""`kind = "person"`: a person at the terminal plays the user (interactive/person.py).

Only `macrs-sim chat` can build it: the person's lines come from the reader it hands over
(`SimulatorContext.extras["read"]`); a campaign naming it fails in one line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal

from pydantic import Field

from macrs_sim.errors import ConfigError
from macrs_sim.simulators.registry import SimulatorContext, SimulatorOptions, SimulatorSpec

if TYPE_CHECKING:  # the AgentChat person is imported when built: listing kinds stays light
    from macrs_sim.interactive.person import ReadReply
    from macrs_sim.simulators.base import UserSimulator

READ = "read"


class PersonOptions(SimulatorOptions):
    kind: Literal["person"] = Field(default="person", description="A person types the turns.")

    # Why `run` refuses the kind before any file is made (campaign/runner.py reads it).
    not_in_campaign: ClassVar[str] = (
        "is a person typing at a terminal: it runs only in `macrs-sim chat SCENARIO`;"
        ' a campaign needs a simulated user (kind "llm" or "agenda")'
    )


def build(options: PersonOptions, ctx: SimulatorContext) -> UserSimulator:
    from macrs_sim.interactive.person import PersonSimulator

    read: ReadReply | None = ctx.extras.get(READ)
    if read is None:
        raise ConfigError('simulator: kind "person" runs only in `macrs-sim chat`')
    return PersonSimulator(read, target_id=ctx.sample.target_id or None)


SPEC = SimulatorSpec(kind="person", options=PersonOptions, build=build, uses_llm=False)
