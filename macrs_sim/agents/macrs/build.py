"""Builds MACRS for one dialogue (its SystemSpec.build)."""

from __future__ import annotations

from macrs_sim.agents.context import SystemContext
from macrs_sim.agents.macrs.options import MACRSSystemOptions
from macrs_sim.agents.macrs.system import MACRSOptions, MACRSRecommender


def build(options: MACRSSystemOptions, ctx: SystemContext) -> MACRSRecommender:
    run_options = MACRSOptions(
        options.information_reflection, options.strategy_reflection, ctx.retries
    )
    return MACRSRecommender(
        ctx.name, ctx.require_client(), ctx.prompts, dialogue_id=ctx.dialogue_id,
        options=run_options,
    )  # fmt: skip
