"""Single-agent LLM baseline (system.py); options.py is its `[[systems]]` entry."""

from macrs_sim.agents.single_llm.system import (
    SingleLLMOutput,
    SingleLLMRecommender,
    single_llm_messages,
    single_llm_turn,
)

__all__ = ["SingleLLMOutput", "SingleLLMRecommender", "single_llm_messages", "single_llm_turn"]
