"""Building the system over the fixture films with a scripted client."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from macrs_sim.agents.interecagent.build import InteRecAgentPrepared, build
from macrs_sim.agents.interecagent.demos import DemoIndex, load_demonstrations
from macrs_sim.agents.interecagent.options import InteRecAgentOptions
from macrs_sim.agents.interecagent.scripted import interecagent_scripted_rules
from macrs_sim.agents.interecagent.system import InteRecAgent
from macrs_sim.llm.scripted import Rule, ScriptedChatCompletionClient
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import DialogueState, UserTurn
from macrs_sim.tools import ToolCallLog, ToolResources


def make_system(
    resources: ToolResources,
    *,
    rules: Mapping[str, Rule] | None = None,
    log: ToolCallLog | None = None,
    history: Sequence[str] = ("1",),
    **options: object,
) -> tuple[InteRecAgent, ScriptedChatCompletionClient]:
    client = ScriptedChatCompletionClient({**interecagent_scripted_rules(), **(rules or {})})
    prepared = InteRecAgentPrepared(resources, DemoIndex(load_demonstrations()))
    system = build(
        InteRecAgentOptions.model_validate(options), prepared, name="ira", dialogue_id="d1",
        client=client, prompts=PromptLibrary(), history=history, log=log,
    )  # fmt: skip
    return system, client


def opening(text: str) -> DialogueState:
    return DialogueState(dialogue_id="d1", opening=UserTurn(text=text), max_turns=5)


def roles(client: ScriptedChatCompletionClient) -> list[str]:
    return [c.context.role for c in client.calls]
