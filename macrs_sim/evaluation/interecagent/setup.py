"""Which model and InteRecAgent settings the one-turn task uses: a scenario's (its [model],
temperature, prompts and first `kind = "interecagent"` system), or a backend's defaults."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from autogen_core.models import ChatCompletionClient

from macrs_sim.agents.interecagent.options import InteRecAgentOptions
from macrs_sim.campaign.setup import resolve_scenario
from macrs_sim.config import EmbeddedModel, ModelConfig, Scenario, ScriptedModel
from macrs_sim.errors import ConfigError
from macrs_sim.evaluation.interecagent.prompts import OneTurnPrompts, instruction
from macrs_sim.evaluation.interecagent.schemas import Task
from macrs_sim.evaluation.interecagent.scripted import one_turn_scripted_rules
from macrs_sim.llm.accounting import CallLog
from macrs_sim.llm.factory import build_client, preflight
from macrs_sim.prompts import PromptLibrary


@dataclass(frozen=True)
class ModelChoice:
    model: ModelConfig
    temperature: float
    options: InteRecAgentOptions
    prompts: PromptLibrary
    # Where the choice came from, for the printed summary.
    source: str


def choose(scenario: Scenario | None, backend: Literal["embedded", "scripted"]) -> ModelChoice:
    if scenario is None:
        model: ModelConfig = ScriptedModel() if backend == "scripted" else EmbeddedModel()
        return ModelChoice(model, 0.0, InteRecAgentOptions(), PromptLibrary(), backend)
    resolved = resolve_scenario(scenario)
    entry = next((s for s in resolved.systems if s.kind == "interecagent"), None)
    if entry is None:
        raise ConfigError(
            f'scenario {scenario.name!r}: no [[systems]] entry with kind = "interecagent"'
            " (its options and model are what the one-turn task runs)"
        )
    options = InteRecAgentOptions.model_validate(
        entry.model_dump(include=set(InteRecAgentOptions.model_fields))
    )
    prompts_dir = Path(scenario.prompts_dir) if scenario.prompts_dir else None
    return ModelChoice(
        entry.model or scenario.model, scenario.protocol.temperature, options,
        PromptLibrary(prompts_dir), f"scenario {scenario.name}, system {entry.name!r}",
    )  # fmt: skip


async def one_turn_client(
    choice: ModelChoice, task: Task, k: int, log: CallLog
) -> ChatCompletionClient:
    """The model, checked first (one line if it cannot be reached); scripted: the one-turn
    rules, InteRecAgent's planner fetching k."""
    model = await preflight(choice.model)
    rules = None
    if isinstance(model, ScriptedModel):
        sentence = instruction(OneTurnPrompts.load(choice.prompts, task), k)
        rules = one_turn_scripted_rules(k, sentence)
    return build_client(model, temperature=choice.temperature, log=log, scripted_rules=rules)
