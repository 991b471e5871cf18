"""Prompt builders of demonstration generation (paper §3.3, Figures C7, C8, C11): pure.

Input-first asks for new requests like the seeds' (C8); output-first asks for requests that a
given tool sequence answers (C11); both then ask for each request's plan (C7). The plans are
written in the planner's JSON, so a kept demonstration is what InteRecAgent's planner reads.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from autogen_core.models import LLMMessage, SystemMessage, UserMessage

from macrs_sim.agents.interecagent.demos import Demonstration
from macrs_sim.agents.interecagent.schemas import PlanStep
from macrs_sim.prompts import PromptLibrary, PromptTemplate

NO_TOOL = "no tool"
SEPARATOR = "\n----\n"


@dataclass(frozen=True)
class DemoPrompts:
    requests: PromptTemplate
    plan_requests: PromptTemplate
    planner: PromptTemplate
    tools: str

    @classmethod
    def load(cls, library: PromptLibrary) -> DemoPrompts:
        def get(name: str) -> PromptTemplate:
            return library.get(f"interecagent/{name}")

        tools = get("tools").render("tools")
        return cls(get("demo_requests"), get("demo_plan_requests"), get("demo_planner"), tools)


def tool_sequence(plan: Sequence[PlanStep]) -> tuple[str, ...]:
    return tuple(step.tool for step in plan)


def render_sequence(tools: Sequence[str]) -> str:
    """'1. hard_filter; 2. rank_candidates' (the paper's plan shape), or 'no tool'."""
    return "; ".join(f"{i}. {t}" for i, t in enumerate(tools, start=1)) or NO_TOOL


def render_plan(plan: Sequence[PlanStep]) -> str:
    return json.dumps([s.model_dump(mode="json") for s in plan], ensure_ascii=False)


def request_examples(seeds: Sequence[Demonstration]) -> str:
    return "\n".join(f"- {d.intent}" for d in seeds)


def plan_request_examples(seeds: Sequence[Demonstration]) -> str:
    return SEPARATOR.join(
        f"Plan: {render_sequence(tool_sequence(d.plan))}\nRequest: {d.intent}" for d in seeds
    )


def planner_examples(seeds: Sequence[Demonstration]) -> str:
    return SEPARATOR.join(f"Request: {d.intent}\nPlan: {render_plan(d.plan)}" for d in seeds)


def _messages(t: PromptTemplate, **values: object) -> list[LLMMessage]:
    return [
        SystemMessage(content=t.render("system")),
        UserMessage(content=t.render("user", **values), source="user"),
    ]


def requests_messages(p: DemoPrompts, seeds: Sequence[Demonstration], n: int) -> list[LLMMessage]:
    """Input-first, stage 1 (Figure C8)."""
    return _messages(p.requests, examples=request_examples(seeds), number=n)


def plan_requests_messages(
    p: DemoPrompts, seeds: Sequence[Demonstration], tools: Sequence[str], n: int
) -> list[LLMMessage]:
    """Output-first, stage 1 (Figure C11): requests the tool sequence `tools` answers."""
    return _messages(
        p.plan_requests, tools=p.tools, examples=plan_request_examples(seeds),
        plan=render_sequence(tools), number=n,
    )  # fmt: skip


def planner_messages(
    p: DemoPrompts, seeds: Sequence[Demonstration], request: str
) -> list[LLMMessage]:
    """The plan of one request (Figure C7), in both strategies."""
    return _messages(p.planner, tools=p.tools, examples=planner_examples(seeds), request=request)
