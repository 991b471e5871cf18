"""MACRS as a system under test: the per-turn protocol over the role agents.

One autogen-core runtime per dialogue (DESIGN.md §4): the runtime never frees
agent instances, so it is created on the first turn and stopped by `close()`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from autogen_core import AgentId, SingleThreadedAgentRuntime
from autogen_core.models import ChatCompletionClient
from pydantic import BaseModel

from macrs_sim.agents.macrs import roles
from macrs_sim.agents.macrs.memory import MACRSMemory
from macrs_sim.agents.macrs.messages import (
    CandidateReply,
    FinalListReply,
    FinalListRequest,
    InfoReflectRequest,
    PlanDecision,
    PlanRequest,
    RespondRequest,
    StrategyReflectRequest,
    TrajectoryStep,
)
from macrs_sim.agents.macrs.runtime import QuietRuntime
from macrs_sim.agents.macrs.schemas import StrategyOutput, UserProfile
from macrs_sim.prompts import PromptLibrary, PromptTemplate
from macrs_sim.protocol import DialogueAct, DialogueState, ItemRef, SystemTurn

R = TypeVar("R", bound=BaseModel)
RESPONDER_ACTS = ("ask", "chat", "recommend")


@dataclass(frozen=True)
class MACRSOptions:
    information_reflection: bool = True
    strategy_reflection: bool = True
    retries: int = 2


class MACRSRecommender:
    def __init__(
        self,
        name: str,
        client: ChatCompletionClient,
        prompts: PromptLibrary,
        *,
        dialogue_id: str,
        options: MACRSOptions | None = None,
    ) -> None:
        self.name = name
        self.options = options or MACRSOptions()
        self.memory = MACRSMemory()
        self._setup = roles.RoleSetup(client, dialogue_id, name, self.options.retries)
        self._prompts = prompts
        self._runtime: SingleThreadedAgentRuntime | None = None
        self._agent_ids: dict[str, AgentId] = {}  # made once: AgentId checks its type per id

    async def respond(self, state: DialogueState) -> SystemTurn:
        turn, mem = state.turn, self.memory
        await self._reflect(state)
        mem.profile_at_turn[turn] = mem.profile
        history = state.utterances()
        requests = {
            act: RespondRequest(
                turn=turn,
                dialogue_history=history,
                profile=mem.profile,
                suggestion=mem.suggestions.get(act, ""),
            )
            for act in RESPONDER_ACTS
        }
        # Every responder runs to its end before an error leaves this turn, so none calls the
        # model after the dialogue is closed. Not cancelled: a message cancelled mid-flight
        # makes autogen-core's runtime fail later in a task nobody awaits (InvalidStateError).
        replies = await asyncio.gather(
            *(self._ask(act, requests[act], CandidateReply) for act in RESPONDER_ACTS),
            return_exceptions=True,
        )
        for reply in replies:
            if isinstance(reply, BaseException):
                raise reply  # the first responder's own error
        candidates = dict(zip(RESPONDER_ACTS, cast(list[CandidateReply], replies), strict=True))
        plan = PlanRequest(
            turn=turn,
            dialogue_history=history,
            act_history=list(mem.act_history),
            experiences=list(mem.experiences),
            candidates=candidates,
        )
        decision = await self._ask("planner", plan, PlanDecision)
        mem.act_history.append(decision.choice)
        return self._system_turn(candidates, decision)

    async def final_list(
        self, state: DialogueState, k: int, given: Sequence[ItemRef] = ()
    ) -> list[ItemRef]:
        if not given:  # the follow-up request (agents/base.py) reuses this reflection
            # No strategy reflection: its suggestions and experiences guide a next turn's
            # responders and planner, and the fallback list has neither.
            await self._reflect(state, strategy=False)
        request = FinalListRequest(
            turn=state.turn,
            dialogue_history=state.utterances(),
            profile=self.memory.profile,
            k=k,
            given=[ref.title for ref in given],
        )
        reply = await self._ask("recommend", request, FinalListReply)
        return [ItemRef(title=t) for t in reply.titles]

    async def close(self) -> None:
        if self._runtime is not None:
            await self._runtime.stop()
            self._runtime = None

    async def _reflect(self, state: DialogueState, *, strategy: bool = True) -> None:
        """Information-level reflection every turn; strategy-level after a failed recommendation
        (when `strategy`: not before the fallback list, which would throw it away)."""
        mem, turn = self.memory, state.turn
        last = state.exchanges[-1] if state.exchanges else None
        feedback = state.last_user_turn().text
        mem.forget_turn_guidance()
        if self.options.information_reflection:
            request = InfoReflectRequest(
                turn=turn,
                profile=mem.profile,
                system_response=last.system.text if last else "",
                user_feedback=feedback,
            )
            mem.profile = await self._ask("info_reflector", request, UserProfile)
        if last is None:
            return
        mem.trajectory.append(
            TrajectoryStep(
                turn=last.turn,
                profile=mem.profile_at_turn.get(last.turn, UserProfile()),
                act=last.system.act,
                system_response=last.system.text,
                user_feedback=feedback,
            )
        )
        failed = last.system.act == DialogueAct.RECOMMEND and not last.user.accepted
        if failed and strategy and self.options.strategy_reflection:
            request_sr = StrategyReflectRequest(turn=turn, trajectory=list(mem.trajectory))
            out = await self._ask("strategy_reflector", request_sr, StrategyOutput)
            mem.suggestions = out.suggestions()
            mem.experiences = [out.experience]
            mem.last_strategy = out.model_dump()
        if failed:
            mem.trajectory = []  # the next trajectory starts after this failure

    def _system_turn(
        self, candidates: dict[str, CandidateReply], decision: PlanDecision
    ) -> SystemTurn:
        chosen = candidates[decision.choice]
        items = (ItemRef(title=chosen.item_title),) if chosen.item_title else ()
        mem = self.memory
        explain: dict[str, Any] = {
            "candidates": {a: c.model_dump(exclude={"act"}) for a, c in candidates.items()},
            "planner": {**decision.reasoning, "choice": decision.choice},
            "profile": mem.profile.model_dump(),
            "suggestions": dict(mem.suggestions),
            "experiences": list(mem.experiences),
            "strategy_reflection": mem.last_strategy,
        }
        mem.last_strategy = None
        return SystemTurn(act=decision.choice, text=chosen.text, items=items, explain=explain)

    async def _ask(self, agent_type: str, message: BaseModel, reply_type: type[R]) -> R:
        runtime = await self._ensure_runtime()
        recipient = self._agent_ids.get(agent_type)
        if recipient is None:
            recipient = AgentId(agent_type, self._setup.dialogue_id)
            self._agent_ids[agent_type] = recipient
        reply = await runtime.send_message(message, recipient)
        if not isinstance(reply, reply_type):
            raise TypeError(
                f"{agent_type} answered {type(reply).__name__}, expected {reply_type.__name__}"
            )
        return reply

    async def _ensure_runtime(self) -> SingleThreadedAgentRuntime:
        if self._runtime is None:
            runtime = QuietRuntime()
            await register_roles(runtime, self._prompts, self._setup)
            runtime.start()
            self._runtime = runtime
        return self._runtime


def _factory(
    cls: type[roles.RoleAgent], role: str, template: PromptTemplate, setup: roles.RoleSetup
) -> Callable[[], roles.RoleAgent]:
    return lambda: cls(role, template, setup)


async def register_roles(
    runtime: SingleThreadedAgentRuntime, prompts: PromptLibrary, setup: roles.RoleSetup
) -> None:
    """One agent type per role; agent keys are the dialogue id (one runtime per dialogue)."""
    for role, cls in (
        ("ask", roles.Responder),
        ("chat", roles.Responder),
        ("planner", roles.Planner),
        ("info_reflector", roles.InformationReflector),
        ("strategy_reflector", roles.StrategyReflector),
    ):
        template = prompts.get(f"responder_{role}" if cls is roles.Responder else role)
        await runtime.register_factory(role, _factory(cls, role, template, setup))
    rec, final = prompts.get("responder_recommend"), prompts.get("final_list")
    await runtime.register_factory("recommend", lambda: roles.RecommendResponder(rec, final, setup))
