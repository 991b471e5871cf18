"""InteRecAgent as a system under test: plan, execute over the candidate bus, reply, reflect.

Plan-first (default): one planner call writes every tool call of the turn, the executor runs
them with no model in the loop, one call writes the reply from the last tool's output; a plan
with no tool is answered from the model's own knowledge (chit-chat), a plan that failed (not
readable, or no step ran) with a clarifying question, the failure kept in `explain`. ReAct
("w/o P"): one call per tool, the last one ("finish") carries the reply. With reflection, a
critic judges each attempt (request, plan, tracker, reply); a negative verdict reverts the
attempt's profile updates and re-plans with the critique, up to `reflection_limit` times.
With a dialogue window, turns that leave it are summarised into the long-term profile.
Every model call runs under `calling(CallContext(role="interecagent.<role>"))`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from autogen_core.models import ChatCompletionClient
from pydantic import BaseModel

from macrs_sim.agents.interecagent import prompts as pb
from macrs_sim.agents.interecagent.attempt import Attempt
from macrs_sim.agents.interecagent.bus import Tracker
from macrs_sim.agents.interecagent.calls import ModelCalls, failure
from macrs_sim.agents.interecagent.demos import DemoIndex, Demonstration
from macrs_sim.agents.interecagent.executor import BusExecutor
from macrs_sim.agents.interecagent.inputs import RANK, repair_plan
from macrs_sim.agents.interecagent.memory import ProfileMemory
from macrs_sim.agents.interecagent.options import InteRecAgentOptions
from macrs_sim.agents.interecagent.schemas import (
    PlanOutput,
    PlanStep,
    ReactStep,
)
from macrs_sim.llm.context import CallContext, calling
from macrs_sim.protocol import DialogueState, ItemRef, SystemTurn

T = TypeVar("T", bound=BaseModel)
ROLE_PLANNER, ROLE_REACT = "interecagent.planner", "interecagent.react"
ROLE_REPLY, ROLE_CRITIC = "interecagent.reply", "interecagent.critic"
ROLE_TOOLS, ROLE_PROFILE = "interecagent.tools", "interecagent.profile"


class InteRecAgent:
    def __init__(
        self,
        name: str,
        client: ChatCompletionClient,
        prompts: pb.InteRecPrompts,
        executor: BusExecutor,
        demos: DemoIndex,
        options: InteRecAgentOptions,
        *,
        dialogue_id: str,
    ) -> None:
        self.name = name
        self._client = client
        self._prompts = prompts
        self.executor = executor
        self.memory: ProfileMemory = executor.memory
        self._demos = demos
        self.options = options
        self._dialogue_id = dialogue_id
        self._turn = 0
        # Utterances before the window already summarised into the profile.
        self._summarised = 0
        self._summary: dict[str, Any] = {}
        self._calls = ModelCalls(client, prompts, options, self._ctx)

    async def respond(self, state: DialogueState) -> SystemTurn:
        self._turn = state.turn
        view = pb.window_request(state, self.options.dialogue_window)
        fresh = view.dropped[self._summarised :]
        self._summarised = len(view.dropped)
        self._summary = await self._calls.summarise(self.memory, fresh) if fresh else {}
        attempts = await self._reflect(view)
        final = attempts[-1]
        self.memory.shown += [i for i in final.shown if i not in self.memory.shown]
        return self._turn_of(final, attempts)

    async def _reflect(self, view: pb.Windowed) -> list[Attempt]:
        """Attempts until the critic accepts one, it cannot judge, or the limit is reached
        (the last attempt is kept, RecAI's "adopt current response")."""
        attempts: list[Attempt] = []
        critique: pb.Critique | None = None
        while True:
            saved = self.memory.snapshot()
            att = await self._attempt(view, critique)
            attempts.append(att)
            if not self.options.reflection:
                return attempts
            att.verdict, att.critic_error = await self._calls.critic(
                view.history, view.request, att
            )
            if att.verdict is None or att.verdict.correct:
                return attempts
            if len(attempts) > self.options.reflection_limit:
                return attempts
            self.memory.restore(saved)  # the paper: revert to the initial state, re-plan
            att.reverted = True
            critique = pb.Critique(pb.render_plan(att.plan), att.verdict.critique)

    async def final_list(
        self, state: DialogueState, k: int, given: Sequence[ItemRef] = ()
    ) -> list[ItemRef]:
        """No model call: rank the whole bus for the profile and take the first k."""
        self._turn = state.turn
        bus = self.executor.new_bus()
        with calling(self._ctx(ROLE_TOOLS)):
            await self.executor.run_step(PlanStep(tool=RANK, input={}), bus, Tracker())
        skip = [ref.item_id for ref in given if ref.item_id]
        return [self._ref(i) for i in self.executor.top(bus, k, skip)]

    async def close(self) -> None:
        return None

    def _turn_of(self, final: Attempt, attempts: list[Attempt]) -> SystemTurn:
        items = tuple(self._ref(i) for i in final.shown)
        act = "recommend" if items else ("ask" if final.reply.rstrip().endswith("?") else "chat")
        explain: dict[str, Any] = {
            "mode": final.mode,
            "attempts": [a.model_dump(mode="json") for a in attempts],
            "replanned": len(attempts) > 1,
            "plan_failure": final.plan_failure,
            "window_summary": self._summary or None,
            "candidates": final.candidates,
            "profile": self.memory.dump(),
            "llm_calls": sum(a.llm_calls for a in attempts) + self._summary.get("llm_calls", 0),
            "demonstration_retrieval": self._demos.method
            if self.options.demonstrations
            else "fixed",
        }
        return SystemTurn(act=act, text=final.reply, items=items, explain=explain)

    def _ref(self, item_id: str) -> ItemRef:
        return ItemRef(
            title=self.executor.title(item_id), item_id=item_id, score=1.0, method="exact"
        )

    def _pick_demos(self, request: str) -> list[Demonstration]:
        k = self.options.n_demonstrations
        if self.options.demonstrations:
            return self._demos.nearest(request, k)
        return self._demos.fixed(k)

    def _planner_ctx(self, history: str, request: str) -> pb.PlannerContext:
        genres = ", ".join(self.executor.genres)
        schema = "\n".join(self.executor.hard.catalog_schema.catalog_tables())
        return pb.PlannerContext(
            self._prompts.tools, genres, self.memory.render(), history, request, schema
        )

    async def _attempt(self, view: pb.Windowed, critique: pb.Critique | None) -> Attempt:
        history, request = view.history, view.request
        demos = self._pick_demos(request)
        att = Attempt(
            mode="plan_first" if self.options.plan_first else "react",
            demonstrations=tuple(d.intent for d in demos),
            critique_in=critique.critique if critique else None,
        )
        if self.options.plan_first:
            tracker = await self._plan_first(
                att, self._planner_ctx(history, request), demos, critique
            )
        else:
            tracker = await self._react(att, self._planner_ctx(history, request), demos, critique)
        att.tools = tuple(tracker.records)
        att.shown = tuple(tracker.shown)
        att.plan_failure = failure(att)
        if att.plan_failure is not None:
            att.reply = await self._calls.chat(att, view, clarify=True)
        elif not att.reply and not att.plan:
            att.reply = await self._calls.chat(att, view, clarify=False)
        elif not att.reply:
            att.reply = await self._calls.reply(att, view, tracker.last_output)
        return att

    async def _plan_first(
        self,
        att: Attempt,
        ctx: pb.PlannerContext,
        demos: list[Demonstration],
        critique: pb.Critique | None,
    ) -> Tracker:
        msgs = pb.planner_messages(self._prompts, ctx, demos, critique)
        out, att.plan_error = await self._calls.json(att, ROLE_PLANNER, msgs, PlanOutput)
        if out is None:
            out = PlanOutput()
        self.memory.update(out.profile)
        steps, notes = repair_plan(out.plan)
        att.plan, att.repairs = tuple(steps), tuple(notes)
        bus = self.executor.new_bus()
        with calling(self._ctx(ROLE_TOOLS)):
            tracker = await self.executor.run_plan(steps, bus)
        att.candidates = len(bus)
        return tracker

    async def _react(
        self,
        att: Attempt,
        ctx: pb.PlannerContext,
        demos: list[Demonstration],
        critique: pb.Critique | None,
    ) -> Tracker:
        bus, tracker = self.executor.new_bus(), Tracker()
        plan: list[PlanStep] = []
        for _ in range(self.options.max_react_steps):
            msgs = pb.react_messages(
                self._prompts, ctx, demos, pb.render_steps(tracker.records), critique
            )
            step, att.plan_error = await self._calls.json(att, ROLE_REACT, msgs, ReactStep)
            if step is None:
                break
            self.memory.update(step.profile)
            if step.tool.strip().lower() == "finish":
                att.reply = step.response.strip()
                break
            if plan and plan[-1] == PlanStep(tool=step.tool, input=step.input):
                # Small models loop on one step; running it again changes nothing.
                att.repairs += (f"stopped: step {len(plan) + 1} repeated step {len(plan)}",)
                break
            plan.append(PlanStep(tool=step.tool, input=step.input))
            with calling(self._ctx(ROLE_TOOLS)):
                await self.executor.run_step(plan[-1], bus, tracker)
        att.plan, att.candidates = tuple(plan), len(bus)
        return tracker

    def _ctx(self, role: str) -> CallContext:
        return CallContext(
            role=role, dialogue_id=self._dialogue_id, system=self.name, turn=self._turn
        )
