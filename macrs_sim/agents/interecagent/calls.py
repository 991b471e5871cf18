"""InteRecAgent's model calls besides planning: reply, chit-chat or clarifying question,
critic, the dialogue window's profile summary; and what counts as a failed plan."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from autogen_core.models import ChatCompletionClient, LLMMessage
from pydantic import BaseModel

from macrs_sim.agents.interecagent import prompts as pb
from macrs_sim.agents.interecagent.attempt import Attempt
from macrs_sim.agents.interecagent.bus import Tracker
from macrs_sim.agents.interecagent.memory import ProfileMemory
from macrs_sim.agents.interecagent.options import InteRecAgentOptions
from macrs_sim.agents.interecagent.schemas import CriticOutput, ProfileSummary
from macrs_sim.errors import StructuredOutputError
from macrs_sim.llm.context import CallContext, calling
from macrs_sim.llm.structured import complete_json, complete_text
from macrs_sim.protocol import Utterance

T = TypeVar("T", bound=BaseModel)
ROLE_REPLY, ROLE_CRITIC = "interecagent.reply", "interecagent.critic"
ROLE_PROFILE = "interecagent.profile"


class ModelCalls:
    def __init__(
        self,
        client: ChatCompletionClient,
        prompts: pb.InteRecPrompts,
        options: InteRecAgentOptions,
        ctx: Callable[[str], CallContext],
    ) -> None:
        self._client = client
        self._prompts = prompts
        self.options = options
        self._ctx = ctx

    async def reply(self, att: Attempt, view: pb.Windowed, result: str) -> str:
        msgs = pb.reply_messages(
            self._prompts, view.history, view.request, pb.render_plan(att.plan), result,
            view.turns,
        )  # fmt: skip
        att.llm_calls += 1
        try:
            with calling(self._ctx(ROLE_REPLY)):
                return await complete_text(self._client, msgs)
        except StructuredOutputError:
            noun = self._prompts.domain.noun
            return (
                f"What kind of {noun} would you like?" if not att.shown else "You might like these."
            )

    async def chat(self, att: Attempt, view: pb.Windowed, *, clarify: bool) -> str:
        """No tool ran: chit-chat from the model's knowledge, or a clarifying question."""
        msgs = pb.chat_messages(
            self._prompts, view.history, view.request, clarify=clarify, turns=view.turns
        )
        att.llm_calls += 1
        try:
            with calling(self._ctx(ROLE_REPLY)):
                text = (await complete_text(self._client, msgs)).strip()
        except StructuredOutputError:
            text = ""
        return text or self._prompts.chat.render("fallback")

    async def critic(
        self, history: str, request: str, att: Attempt
    ) -> tuple[CriticOutput | None, str | None]:
        tracker = Tracker()
        tracker.records = list(att.tools)
        msgs = pb.critic_messages(
            self._prompts, history, request, pb.render_plan(att.plan), tracker.render(), att.reply
        )
        return await self.json(att, ROLE_CRITIC, msgs, CriticOutput)

    async def json(
        self, att: Attempt, role: str, msgs: list[LLMMessage], schema: type[T]
    ) -> tuple[T | None, str | None]:
        """The parsed reply, or None and the error (recorded, never raised)."""
        att.llm_calls += 1
        try:
            with calling(self._ctx(role)):
                return await complete_json(
                    self._client, msgs, schema, retries=self.options.retries
                ), None
        except StructuredOutputError as err:
            return None, str(err)

    async def summarise(self, memory: ProfileMemory, fresh: Sequence[Utterance]) -> dict[str, Any]:
        """Utterances that left the window, summarised and merged into the long-term profile
        (one model call; a failure is recorded, not retried)."""
        msgs = pb.profile_messages(self._prompts, fresh)
        try:
            with calling(self._ctx(ROLE_PROFILE)):
                out = await complete_json(
                    self._client, msgs, ProfileSummary, retries=self.options.retries
                )
        except StructuredOutputError as err:
            return {"utterances": len(fresh), "llm_calls": 1, "error": str(err)}
        memory.merge_summary(out)
        return {"utterances": len(fresh), "llm_calls": 1, "summary": out.model_dump()}


def failure(att: Attempt) -> str | None:
    """Why the plan failed, or None: no readable plan, or not one step of it ran."""
    if att.plan_error is not None and not att.plan and not att.reply:
        return f"no readable plan: {att.plan_error}"
    if att.tools and not any(t.ok for t in att.tools):
        return "no step ran: " + "; ".join(f"{t.tool}: {t.error}" for t in att.tools)
    return None
