"""Building a RecMind reasoner over the fixture films with a scripted client."""

from __future__ import annotations

from collections.abc import Mapping

from macrs_sim.agents.recmind import build
from macrs_sim.agents.recmind.options import RecMindOptions
from macrs_sim.agents.recmind.reasoner import Reasoner
from macrs_sim.agents.recmind.scripted import recmind_scripted_rules
from macrs_sim.llm.scripted import Rule, ScriptedChatCompletionClient
from macrs_sim.prompts import PromptLibrary
from macrs_sim.tools import ToolCallLog

# u1's held-out item ("2", Paris in Love) is not here: no tool may reach it.
HISTORIES: dict[str, list[tuple[str, float | None]]] = {
    "u1": [("1", 5.0), ("3", 4.0), ("7", 3.5)],
    "u2": [("1", None)],
}


def make_reasoner(
    res: build.RecMindResources,
    rules: Mapping[str, Rule] | None = None,
    *,
    log: ToolCallLog | None = None,
    **options: object,
) -> tuple[Reasoner, ScriptedChatCompletionClient]:
    client = ScriptedChatCompletionClient({**recmind_scripted_rules(), **(rules or {})})
    r = build.reasoner(
        RecMindOptions.model_validate(options), res, client=client, prompts=PromptLibrary(),
        system="rm", dialogue_id="d1", log=log,
    )  # fmt: skip
    return r, client


def roles(client: ScriptedChatCompletionClient) -> list[str]:
    return [c.context.role.removeprefix("recmind.") for c in client.calls]
