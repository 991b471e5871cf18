"""Building a RecMind reasoner over the fixture films with a scripted client."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from autogen_core.models import CreateResult, LLMMessage

from macrs_sim.agents.recmind import build
from macrs_sim.agents.recmind.options import RecMindOptions
from macrs_sim.agents.recmind.reasoner import Reasoner
from macrs_sim.agents.recmind.scripted import recmind_scripted_rules
from macrs_sim.llm.base import JsonOutput
from macrs_sim.llm.context import current_call
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
    temperature: float = 0.0,
    **options: object,
) -> tuple[Reasoner, ScriptedChatCompletionClient]:
    """`temperature`: the model's, as the run would set it (ToT's ballots follow it)."""
    client = ArgsRecordingClient({**recmind_scripted_rules(), **(rules or {})})
    r = build.reasoner(
        RecMindOptions.model_validate(options), res, client=client, prompts=PromptLibrary(),
        system="rm", dialogue_id="d1", log=log, temperature=temperature,
    )  # fmt: skip
    return r, client


class ArgsRecordingClient(ScriptedChatCompletionClient):
    """The scripted backend, also keeping each call's extra create args (role, args)."""

    def __init__(self, rules: Mapping[str, Rule]) -> None:
        super().__init__(rules)
        self.create_args: list[tuple[str, dict[str, Any]]] = []

    async def _complete(
        self,
        messages: Sequence[LLMMessage],
        *,
        json_output: JsonOutput,
        extra_create_args: Mapping[str, Any],
    ) -> CreateResult:
        self.create_args.append((current_call().role, dict(extra_create_args)))
        return await super()._complete(
            messages, json_output=json_output, extra_create_args=extra_create_args
        )


def roles(client: ScriptedChatCompletionClient) -> list[str]:
    return [c.context.role.removeprefix("recmind.") for c in client.calls]
