"""Single-agent LLM CRS baseline: one model plans and answers (the paper's ChatGPT/Llama2 rows).

The paper gives the baselines "the same prompt as our model": the MACRS responders' act
instructions and the planner's three reasoning steps (§3.2) in one prompt, and the same
fallback-list prompt, so the comparison isolates the multi-agent structure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, TypeVar

from autogen_core.models import ChatCompletionClient, LLMMessage
from pydantic import BaseModel, model_validator

from macrs_sim.agents.final_list import final_list_messages, given_titles
from macrs_sim.agents.macrs.schemas import EMPTY_PROFILE_TEXT, final_list_schema
from macrs_sim.agents.prompt_layout import dialogue_messages
from macrs_sim.agents.rendering import render_list
from macrs_sim.llm.context import CallContext, calling
from macrs_sim.llm.structured import complete_json
from macrs_sim.prompts import PromptLibrary, PromptTemplate
from macrs_sim.protocol import DialogueState, ItemRef, SystemTurn

T = TypeVar("T", bound=BaseModel)
# The role of its one call a turn (namespaced by kind); the fallback list's is "final_list".
ROLE_RESPOND = "single_llm.respond"


class SingleLLMOutput(BaseModel):
    step1: str
    step2: str
    step3: str
    act: Literal["ask", "chat", "recommend"]
    item_title: str
    response: str

    @model_validator(mode="after")
    def _recommend_names_an_item(self) -> SingleLLMOutput:
        # A schema failure, so the repair path asks again: never a recommendation of nothing.
        if self.act == "recommend" and not self.item_title.strip():
            raise ValueError('item_title must name the movie when act is "recommend"')
        return self


def single_llm_messages(template: PromptTemplate, state: DialogueState) -> list[LLMMessage]:
    acts = render_list([ex.system.act for ex in state.exchanges], ", ")
    return dialogue_messages(
        template.layout,
        template.render("system"),
        lambda transcript: template.render("user", dialogue_history=transcript, act_history=acts),
        state.utterances(),
        me="system",
    )


def single_llm_turn(out: SingleLLMOutput) -> SystemTurn:
    """Only a recommendation shows its item; the reasoning is kept for analysis."""
    items = (ItemRef(title=out.item_title.strip()),) if out.act == "recommend" else ()
    explain: dict[str, Any] = {
        "reasoning": {"step1": out.step1, "step2": out.step2, "step3": out.step3}
    }
    return SystemTurn(act=out.act, text=out.response, items=items, explain=explain)


class SingleLLMRecommender:
    def __init__(
        self,
        name: str,
        client: ChatCompletionClient,
        prompts: PromptLibrary,
        *,
        dialogue_id: str,
        retries: int = 2,
    ) -> None:
        self.name = name
        self._client = client
        self._dialogue_id = dialogue_id
        self._retries = retries
        self._prompts = prompts
        self._turn_prompt = prompts.get("single_llm")
        self._final_prompt = prompts.get("final_list")

    async def respond(self, state: DialogueState) -> SystemTurn:
        msgs = single_llm_messages(self._turn_prompt, state)
        return single_llm_turn(await self._call(ROLE_RESPOND, state.turn, msgs, SingleLLMOutput))

    async def final_list(
        self, state: DialogueState, k: int, given: Sequence[ItemRef] = ()
    ) -> list[ItemRef]:
        msgs = final_list_messages(
            self._final_prompt, state.utterances(), EMPTY_PROFILE_TEXT, k, given_titles(given)
        )
        out = await self._call("final_list", state.turn, msgs, final_list_schema(k))
        return [ItemRef(title=t) for t in out.titles[:k]]

    async def close(self) -> None:
        return None

    async def _call(self, role: str, turn: int, messages: list[LLMMessage], schema: type[T]) -> T:
        ctx = CallContext(role=role, dialogue_id=self._dialogue_id, system=self.name, turn=turn)
        with calling(ctx):
            return await complete_json(self._client, messages, schema, retries=self._retries)
