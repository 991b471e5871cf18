"""The MACRS role agents: autogen-core RoutedAgents with typed request/response messages."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from autogen_core import MessageContext, RoutedAgent, message_handler
from autogen_core.models import ChatCompletionClient, LLMMessage
from pydantic import BaseModel

from macrs_sim.agents.macrs import prompts
from macrs_sim.agents.macrs.messages import (
    CandidateReply,
    FinalListReply,
    FinalListRequest,
    InfoReflectRequest,
    PlanDecision,
    PlanRequest,
    RespondRequest,
    StrategyReflectRequest,
)
from macrs_sim.agents.macrs.schemas import (
    PlannerOutput,
    RecommendOutput,
    StrategyOutput,
    UserProfile,
    final_list_schema,
)
from macrs_sim.llm.context import CallContext, calling
from macrs_sim.llm.structured import complete_json, complete_text
from macrs_sim.prompts import PromptTemplate
from macrs_sim.protocol import DialogueAct

T = TypeVar("T", bound=BaseModel)
# Calls are attributed to "macrs.<role>" (scripted rules of different systems never collide);
# the shared fallback-list role ("final_list") is passed as is.
ROLE_PREFIX = "macrs."
# Each role class's message handlers, found once (see RoleAgent._discover_handlers).
_HANDLERS: dict[type, tuple[Any, ...]] = {}


@dataclass(frozen=True)
class RoleSetup:
    """What every role agent of one dialogue shares."""

    client: ChatCompletionClient
    dialogue_id: str
    system: str
    retries: int


class RoleAgent(RoutedAgent):
    """Base: one prompt template, one role name, model calls attributed to the turn."""

    def __init__(self, role: str, template: PromptTemplate, setup: RoleSetup) -> None:
        super().__init__(f"MACRS {role}")
        self.role = role
        self.template = template
        self.setup = setup

    @classmethod
    def _discover_handlers(cls) -> Sequence[Any]:
        """RoutedAgent walks dir(cls) for every new agent (several per dialogue); the
        handlers are the class's own, so the walk is done once per class."""
        found = _HANDLERS.get(cls)
        if found is None:
            found = _HANDLERS[cls] = tuple(super()._discover_handlers())
        return found

    def _context(self, turn: int, role: str | None = None) -> CallContext:
        s = self.setup
        return CallContext(
            role=role or ROLE_PREFIX + self.role,
            dialogue_id=s.dialogue_id,
            system=s.system,
            turn=turn,
        )

    async def _json(
        self, turn: int, messages: list[LLMMessage], schema: type[T], role: str | None = None
    ) -> T:
        with calling(self._context(turn, role)):
            return await complete_json(
                self.setup.client, messages, schema, retries=self.setup.retries
            )

    async def _text(self, turn: int, messages: list[LLMMessage]) -> str:
        with calling(self._context(turn)):
            return await complete_text(self.setup.client, messages)


class Responder(RoleAgent):
    """Ask or chit-chat responder: free text (paper eq. 1)."""

    @message_handler
    async def on_respond(self, message: RespondRequest, ctx: MessageContext) -> CandidateReply:
        text = await self._text(message.turn, prompts.responder_messages(self.template, message))
        return CandidateReply(act=self.role, text=text)


class RecommendResponder(RoleAgent):
    """Recommends one titled item; also writes the fallback top-k list at the end."""

    def __init__(self, template: PromptTemplate, final: PromptTemplate, setup: RoleSetup) -> None:
        super().__init__(DialogueAct.RECOMMEND.value, template, setup)
        self.final = final

    @message_handler
    async def on_respond(self, message: RespondRequest, ctx: MessageContext) -> CandidateReply:
        msgs = prompts.responder_messages(self.template, message)
        out = await self._json(message.turn, msgs, RecommendOutput)
        return CandidateReply(act=self.role, text=out.response, item_title=out.item_title)

    @message_handler
    async def on_final(self, message: FinalListRequest, ctx: MessageContext) -> FinalListReply:
        msgs = prompts.final_list_messages(self.final, message)
        out = await self._json(message.turn, msgs, final_list_schema(message.k), role="final_list")
        return FinalListReply(titles=out.titles[: message.k])


class Planner(RoleAgent):
    """Picks one candidate after the paper's three reasoning steps (eq. 2)."""

    @message_handler
    async def on_plan(self, message: PlanRequest, ctx: MessageContext) -> PlanDecision:
        out = await self._json(
            message.turn, prompts.planner_messages(self.template, message), PlannerOutput
        )
        reasoning = {"step1": out.step1, "step2": out.step2, "step3": out.step3}
        return PlanDecision(choice=out.choice, reasoning=reasoning)


class InformationReflector(RoleAgent):
    """Updates the user profile from the latest feedback, every turn (eq. 3)."""

    @message_handler
    async def on_reflect(self, message: InfoReflectRequest, ctx: MessageContext) -> UserProfile:
        msgs = prompts.info_reflector_messages(self.template, message)
        return await self._json(message.turn, msgs, UserProfile)


class StrategyReflector(RoleAgent):
    """After a failed recommendation: error summary, suggestions S, experiences E (eq. 5)."""

    @message_handler
    async def on_reflect(
        self, message: StrategyReflectRequest, ctx: MessageContext
    ) -> StrategyOutput:
        msgs = prompts.strategy_reflector_messages(self.template, message)
        return await self._json(message.turn, msgs, StrategyOutput)
