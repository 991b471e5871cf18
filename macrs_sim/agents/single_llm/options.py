"""The single-LLM baseline's `[[systems]]` entry: no fields of its own."""

from __future__ import annotations

from typing import Literal

from macrs_sim.agents.registry import SystemOptions, SystemSpec


class SingleLLMSystemOptions(SystemOptions):
    kind: Literal["single_llm"] = "single_llm"


SPEC = SystemSpec(
    kind="single_llm",
    options=SingleLLMSystemOptions,
    build="macrs_sim.agents.single_llm.build:build",
    scripted_rules="macrs_sim.agents.scripted_rules:single_llm_rules",
)
