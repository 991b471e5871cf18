"""Builds the single-LLM baseline for one dialogue (its SystemSpec.build)."""

from __future__ import annotations

from macrs_sim.agents.context import SystemContext
from macrs_sim.agents.single_llm.free_chat import FreeChatRecommender
from macrs_sim.agents.single_llm.options import SingleLLMSystemOptions
from macrs_sim.agents.single_llm.system import SingleLLMRecommender


def build(options: SingleLLMSystemOptions, ctx: SystemContext) -> SingleLLMRecommender:
    if options.free_chat:
        return FreeChatRecommender(
            ctx.name, ctx.require_client(), ctx.prompts, dialogue_id=ctx.dialogue_id,
            retries=ctx.retries, max_items=ctx.protocol.max_items_per_turn,
        )  # fmt: skip
    return SingleLLMRecommender(
        ctx.name,
        ctx.require_client(),
        ctx.prompts,
        dialogue_id=ctx.dialogue_id,
        retries=ctx.retries,
    )
