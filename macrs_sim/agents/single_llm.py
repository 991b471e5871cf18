"""Single-agent LLM CRS baseline: one model plans and answers (the paper's ChatGPT/Llama2 rows).

It uses the same act instructions as the MACRS responders and the same
fallback-list prompt, so the comparison isolates the multi-agent structure.
"""

from __future__ import annotations

from typing import Literal, TypeVar

from autogen_core.models import ChatCompletionClient, LLMMessage, SystemMessage, UserMessage
from pydantic import BaseModel

from macrs_sim.agents.macrs.schemas import EMPTY_PROFILE_TEXT, final_list_schema
from macrs_sim.agents.rendering import render_history
from macrs_sim.llm.context import CallContext, calling
from macrs_sim.llm.structured import complete_json
from macrs_sim.prompts import PromptLibrary, PromptTemplate
from macrs_sim.protocol import DialogueState, ItemRef, SystemTurn

T = TypeVar("T", bound=BaseModel)


class SingleLLMOutput(BaseModel):
    act: Literal["ask", "chat", "recommend"]
    item_title: str
    response: str


def single_llm_messages(template: PromptTemplate, state: DialogueState) -> list[LLMMessage]:
    return [
        SystemMessage(content=template.render("system")),
        UserMessage(
            content=template.render("user", dialogue_history=render_history(state.utterances())),
            source="user",
        ),
    ]


def final_list_messages(template: PromptTemplate, state: DialogueState, k: int) -> list[LLMMessage]:
    user = template.render(
        "user",
        dialogue_history=render_history(state.utterances()),
        user_profile=EMPTY_PROFILE_TEXT,
        k=k,
    )
    return [
        SystemMessage(content=template.render("system")),
        UserMessage(content=user, source="user"),
    ]


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
        self._turn_prompt = prompts.get("single_llm")
        self._final_prompt = prompts.get("final_list")

    async def respond(self, state: DialogueState) -> SystemTurn:
        out = await self._call(
            "single_llm", state.turn, single_llm_messages(self._turn_prompt, state), SingleLLMOutput
        )
        recommends = out.act == "recommend" and out.item_title.strip()
        items = (ItemRef(title=out.item_title.strip()),) if recommends else ()
        return SystemTurn(act=out.act, text=out.response, items=items)

    async def final_list(self, state: DialogueState, k: int) -> list[ItemRef]:
        msgs = final_list_messages(self._final_prompt, state, k)
        out = await self._call("final_list", state.turn, msgs, final_list_schema(k))
        return [ItemRef(title=t) for t in out.titles[:k]]

    async def close(self) -> None:
        return None

    async def _call(self, role: str, turn: int, messages: list[LLMMessage], schema: type[T]) -> T:
        ctx = CallContext(role=role, dialogue_id=self._dialogue_id, system=self.name, turn=turn)
        with calling(ctx):
            return await complete_json(self._client, messages, schema, retries=self._retries)
