"""The single-LLM baseline's `[[systems]]` entry: `free_chat` (InteRecAgent's LLM row)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import model_validator

from macrs_sim.agents.registry import CallsInFlight, SystemOptions, SystemSpec

# Runs saved before the registry wrote MACRS's switches, always true, for every kind.
_LEGACY_SWITCHES = ("information_reflection", "strategy_reflection")


class SingleLLMSystemOptions(SystemOptions):
    kind: Literal["single_llm"] = "single_llm"
    # A free chat (InteRecAgent's "LLM alone" row): no act plan, up to
    # protocol.max_items_per_turn items a turn (agents/single_llm/free_chat.py).
    free_chat: bool = False

    @model_validator(mode="before")
    @classmethod
    def _drop_legacy_switches(cls, data: Any) -> Any:
        """An old run's resolved scenario loads; a switch set to false is still an error."""
        if isinstance(data, dict):
            return {k: v for k, v in data.items() if not (k in _LEGACY_SWITCHES and v is True)}
        return data


SPEC = SystemSpec(
    kind="single_llm",
    options=SingleLLMSystemOptions,
    build="macrs_sim.agents.single_llm.build:build",
    scripted_rules="macrs_sim.agents.scripted_rules:single_llm_rules",
    calls_in_flight=CallsInFlight(peak=1, mean=1.0),
    label="single-LLM",
    in_default_chat=True,
)
