"""Which model and InteRecAgent settings the one-turn task uses: a scenario's (its [model],
temperature, prompts and first `kind = "interecagent"` system), or a backend's defaults; and
which model writes a request set (`eval interecagent requests --generator-model`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from autogen_core.models import ChatCompletionClient

from macrs_sim.agents.interecagent.options import InteRecAgentOptions
from macrs_sim.campaign.setup import resolve_scenario
from macrs_sim.config import (
    EmbeddedModel,
    ModelConfig,
    OpenAIModel,
    Scenario,
    ScriptedModel,
    load_scenario,
)
from macrs_sim.data.domain import MOVIES, Domain
from macrs_sim.errors import ConfigError
from macrs_sim.evaluation.interecagent.prompts import OneTurnPrompts, instruction
from macrs_sim.evaluation.interecagent.request_set import Generator
from macrs_sim.evaluation.interecagent.schemas import Task
from macrs_sim.evaluation.interecagent.scripted import one_turn_scripted_rules
from macrs_sim.llm.accounting import CallLog
from macrs_sim.llm.factory import build_client, preflight
from macrs_sim.prompts import PromptLibrary
from macrs_sim.redact import redact_url


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


def model_name(model: ModelConfig) -> str:
    """The model in one line, as a request set's header names its generator."""
    if isinstance(model, OpenAIModel):
        where = ", ".join(redact_url(u) for u in model.endpoints() if u)
        return f"openai {model.model}" + (f" at {where}" if where else "")
    if isinstance(model, EmbeddedModel):
        if model.hf_repo:
            return f"embedded {model.hf_repo}/{model.hf_file}"
        return f"embedded {model.path or '(bundled)'}"
    return "scripted (test double)"


def generator_choice(spec: str) -> ModelChoice:
    """`--generator-model`: scripted, embedded, or a scenario file whose user model (its
    [simulator.model], else [model]) writes the requests, at its temperature, with its prompts:
    the generator plays the user asking for recommendations."""
    if spec in ("scripted", "embedded"):
        return choose(None, "scripted" if spec == "scripted" else "embedded")
    if not spec.endswith(".toml"):
        raise ConfigError(
            f"--generator-model {spec!r}: expected scripted, embedded or a scenario file (.toml)"
        )
    scenario = load_scenario(spec)
    prompts_dir = Path(scenario.prompts_dir) if scenario.prompts_dir else None
    return ModelChoice(
        scenario.simulator_model(), scenario.protocol.temperature, InteRecAgentOptions(),
        PromptLibrary(prompts_dir), f"scenario {scenario.name}, its user model",
    )  # fmt: skip


def generator_of(choice: ModelChoice) -> Generator:
    return Generator(model_name(choice.model), choice.model.model_dump(mode="json"),
                     choice.temperature)  # fmt: skip


async def one_turn_client(
    choice: ModelChoice, task: Task, k: int, log: CallLog, domain: Domain = MOVIES
) -> ChatCompletionClient:
    """The model, checked first (one line if it cannot be reached); scripted: the one-turn
    rules, InteRecAgent's planner fetching k, in the dataset's `domain`'s words."""
    model = await preflight(choice.model)
    rules = None
    if isinstance(model, ScriptedModel):
        sentence = instruction(OneTurnPrompts.load(choice.prompts, task), k)
        rules = one_turn_scripted_rules(k, sentence, domain)
    return build_client(model, temperature=choice.temperature, log=log, scripted_rules=rules)


async def demo_client(choice: ModelChoice, log: CallLog) -> ChatCompletionClient:
    """The model that writes demonstrations, checked first; scripted: the generator's rules."""
    from macrs_sim.evaluation.interecagent.demo_scripted import demo_scripted_rules

    model = await preflight(choice.model)
    rules = demo_scripted_rules() if isinstance(model, ScriptedModel) else None
    return build_client(model, temperature=choice.temperature, log=log, scripted_rules=rules)
