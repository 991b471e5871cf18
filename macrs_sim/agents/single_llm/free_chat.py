"""The free-chat LLM row of InteRecAgent's session table (the paper's GPT-4 alone): one call a
turn, a plain chat that may recommend several items, at most `protocol.max_items_per_turn`
(the limit InteRecAgent runs under, named in the prompt). No act plan, unlike the
single-LLM baseline (MACRS's prompt: one act and at most one item a turn)."""

from __future__ import annotations

from typing import Any

from autogen_core.models import LLMMessage
from pydantic import BaseModel, Field

from macrs_sim.agents.prompt_layout import dialogue_messages
from macrs_sim.agents.single_llm.system import SingleLLMRecommender
from macrs_sim.prompts import PromptTemplate
from macrs_sim.protocol import DialogueState, ItemRef, SystemTurn

ROLE_FREE_CHAT = "single_llm.free_chat"


class FreeChatOutput(BaseModel):
    response: str
    items: list[str] = Field(default_factory=list)


def free_chat_messages(
    template: PromptTemplate, state: DialogueState, max_items: int
) -> list[LLMMessage]:
    return dialogue_messages(
        template.layout,
        template.render("system", max_items=max_items),
        lambda transcript: template.render(
            "user", dialogue_history=transcript, max_items=max_items
        ),
        state.utterances(),
        me="system",
    )


def free_chat_turn(out: FreeChatOutput, max_items: int) -> SystemTurn:
    titles = [t.strip() for t in out.items if t.strip()][:max_items]
    text = out.response.strip()
    act = "recommend" if titles else ("ask" if text.endswith("?") else "chat")
    explain: dict[str, Any] = {"listed": len(out.items)}
    return SystemTurn(act=act, text=text, items=tuple(ItemRef(title=t) for t in titles),
                      explain=explain)  # fmt: skip


class FreeChatRecommender(SingleLLMRecommender):
    def __init__(self, *args: Any, max_items: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.max_items = max_items
        self._free_prompt = self._prompts.get("single_llm_free")

    async def respond(self, state: DialogueState) -> SystemTurn:
        msgs = free_chat_messages(self._free_prompt, state, self.max_items)
        out = await self._call(ROLE_FREE_CHAT, state.turn, msgs, FreeChatOutput)
        return free_chat_turn(out, self.max_items)
