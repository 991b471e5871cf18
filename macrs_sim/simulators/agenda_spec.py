"""`[simulator] kind = "agenda"`: the rule-based user, no LLM, deterministic
(simulators/agenda.py). Preparation is by rule: profile from the catalog, templated opening."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field

from macrs_sim.simulators.registry import (
    SampleContext,
    SimulatorContext,
    SimulatorOptions,
    SimulatorSpec,
)

if TYPE_CHECKING:  # the user itself is imported when built: listing kinds stays light
    from macrs_sim.protocol import Sample
    from macrs_sim.simulators.base import UserSimulator


class AgendaUserOptions(SimulatorOptions):
    """The table's other fields are accepted as before; the LLM user's (instruction,
    max_leak_retries) change nothing here."""

    kind: Literal["agenda"] = Field(default="agenda", description="Rule-based user, no LLM.")


def build(options: AgendaUserOptions, ctx: SimulatorContext) -> UserSimulator:
    from macrs_sim.simulators.agenda import AgendaUserSimulator

    return AgendaUserSimulator(ctx.sample, ctx.catalog, ctx.prompts.domain)


async def prepare(options: AgendaUserOptions, ctx: SampleContext, sample: Sample) -> Sample:
    from macrs_sim.simulators.agenda import prepare_agenda_sample

    return prepare_agenda_sample(
        ctx.catalog, sample, people=options.profile_people, domain=ctx.prompts.domain
    )


SPEC = SimulatorSpec(
    kind="agenda", options=AgendaUserOptions, build=build, prepare=prepare, uses_llm=False,
    no_model="none (rule-based)",
)  # fmt: skip
