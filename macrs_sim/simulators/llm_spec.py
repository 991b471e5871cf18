"""`[simulator] kind = "llm"`: the paper's LLM user (§4.1; simulators/llm_user.py).

Preparation asks the model for the target profile and the opening, once per sample; each
dialogue's user then words its replies with the same model.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from macrs_sim.data.domain import MOVIES, Domain
from macrs_sim.simulators.instructions import SIMULATOR_PROMPTS
from macrs_sim.simulators.registry import (
    SampleContext,
    SimulatorContext,
    SimulatorOptions,
    SimulatorSpec,
)

if TYPE_CHECKING:  # the user and its model stack are imported when used, not to list kinds
    from macrs_sim.llm.scripted import Rule
    from macrs_sim.protocol import Sample
    from macrs_sim.simulators.base import UserSimulator


class LLMUserOptions(SimulatorOptions):
    kind: Literal["llm"] = Field(default="llm", description="The paper's LLM user.")


def build(options: LLMUserOptions, ctx: SimulatorContext) -> UserSimulator:
    from macrs_sim.simulators.llm_user import LLMUserSimulator

    assert ctx.client is not None  # uses_llm: the campaign gives the simulator's client
    return LLMUserSimulator(
        ctx.sample,
        ctx.catalog,
        ctx.client,
        ctx.prompts,
        dialogue_id=ctx.dialogue_id,
        system_name=ctx.system_name,
        max_leak_retries=options.max_leak_retries,
        instruction=SIMULATOR_PROMPTS[options.instruction],
    )


async def prepare(options: LLMUserOptions, ctx: SampleContext, sample: Sample) -> Sample:
    """Target profile and opening, by the simulator's model."""
    from macrs_sim.simulators.target_profile import prepare_sample

    assert ctx.client is not None
    return await prepare_sample(
        ctx.client,
        ctx.prompts,
        ctx.catalog,
        sample,
        ctx.retries,
        template=SIMULATOR_PROMPTS[options.instruction],
        people=options.profile_people,
        max_leak_retries=options.max_leak_retries,
    )


def scripted_opening(domain: Domain = MOVIES) -> str:
    """The scripted user's opening, in the domain's noun (films: "a movie")."""
    article = "an" if domain.noun[:1].lower() in "aeiou" else "a"
    return f"Hi! I'd like {article} {domain.noun} for tonight, something fun."


def scripted_rules(titles: Sequence[str], *, domain: Domain = MOVIES) -> Mapping[str, Rule]:
    """The simulator's roles on the scripted backend (campaign.scripted gives the same)."""
    from macrs_sim.simulators.target_profile import TargetKeywords

    return {
        "user": lambda req: "Hmm, not quite. Something lighter, please.",
        "opening": lambda req: scripted_opening(domain),
        "target_profile": lambda req: TargetKeywords(
            keywords=["mood: light-hearted", "feature: ensemble cast"]
        ),
    }


SPEC = SimulatorSpec(
    kind="llm",
    options=LLMUserOptions,
    build=build,
    prepare=prepare,
    scripted_rules=scripted_rules,
)
