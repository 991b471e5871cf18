"""Generating demonstrations from the seeds (paper §3.3, Self-Instruct style).

Input-first: the model writes `count` requests like the seeds', then plans each; every
planned request is kept (the paper checks only output-first). Output-first: for every plan
shape (the tool sequences RecAI's generator enumerates: any of store_candidates, hard_filter,
soft_filter, then rank_candidates and fetch_candidates; a lookup; no tool) the model writes
`count` requests, plans each again, and a request is kept only when the new plan's tool
sequence equals the given one. Requests already seen (seeds or earlier, case and spaces
ignored) are dropped. Every generated request is recorded with its verdict.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Literal, TypeVar

from autogen_core.models import ChatCompletionClient, LLMMessage
from pydantic import BaseModel, Field

from macrs_sim.agents.interecagent.demos import Demonstration
from macrs_sim.agents.interecagent.schemas import PlanStep
from macrs_sim.errors import ModelUnavailableError
from macrs_sim.evaluation.interecagent import demo_prompts as dp
from macrs_sim.llm.context import CallContext, calling
from macrs_sim.llm.structured import complete_json, describe_error
from macrs_sim.protocol import Record

Mode = Literal["input-first", "output-first"]
T = TypeVar("T", bound=BaseModel)
ROLE = "interecagent.demos."
FILTERS = ("store_candidates", "hard_filter", "soft_filter")
RECOMMEND = ("rank_candidates", "fetch_candidates")


class GeneratedRequests(BaseModel):
    requests: list[str] = Field(default_factory=list, max_length=100)


class GeneratedPlan(BaseModel):
    plan: list[PlanStep] = Field(default_factory=list, max_length=12)


class DemoCandidate(Record):
    """One generated request: its plan, the plan shape it was written for (output-first),
    and whether it was kept (else why not)."""

    mode: Mode
    intent: str
    given: tuple[str, ...] | None = None
    plan: tuple[PlanStep, ...] = ()
    kept: bool = False
    reason: str | None = None


def output_first_plans() -> list[tuple[str, ...]]:
    """No tool, a lookup, then every subset of the filters (in bus order) + rank + fetch."""
    shapes: list[tuple[str, ...]] = [(), ("query_info",)]
    for n in range(len(FILTERS) + 1):
        shapes += [(*c, *RECOMMEND) for c in combinations(FILTERS, n)]
    return shapes


def normalized(text: str) -> str:
    return " ".join(text.lower().split())


@dataclass(frozen=True)
class Generation:
    """One generation run's model, prompts, seeds and limits."""

    client: ChatCompletionClient
    prompts: dp.DemoPrompts
    seeds: tuple[Demonstration, ...]
    count: int
    retries: int = 2
    concurrency: int = 4

    async def ask(self, role: str, msgs: list[LLMMessage], schema: type[T]) -> T:
        with calling(CallContext(role=ROLE + role, system="demo-generator")):
            return await complete_json(self.client, msgs, schema, retries=self.retries)

    async def requests(self, role: str, msgs: list[LLMMessage]) -> list[str]:
        out = await self.ask(role, msgs, GeneratedRequests)
        return [" ".join(r.split()) for r in out.requests if r.strip()][: self.count]


async def judge(
    gen: Generation, mode: Mode, intent: str, given: tuple[str, ...] | None
) -> DemoCandidate:
    """Plan the request; output-first keeps it only when the plan has the given tools."""
    msgs = dp.planner_messages(gen.prompts, gen.seeds, intent)
    try:
        plan = tuple((await gen.ask("planner", msgs, GeneratedPlan)).plan)
    except ModelUnavailableError:
        raise
    except Exception as err:  # a plan the model keeps breaking costs this request only
        reason = f"planning failed: {describe_error(err)}"
        return DemoCandidate(mode=mode, intent=intent, given=given, reason=reason)
    made = dp.tool_sequence(plan)
    if given is not None and made != given:
        reason = f"inconsistent: planned {dp.render_sequence(made)}"
        return DemoCandidate(mode=mode, intent=intent, given=given, plan=plan, reason=reason)
    return DemoCandidate(mode=mode, intent=intent, given=given, plan=plan, kept=True)


async def _batch(
    gen: Generation, mode: Mode, msgs: list[LLMMessage], given: tuple[str, ...] | None
) -> list[DemoCandidate]:
    role = "requests" if mode == "input-first" else "plan_requests"
    try:
        intents = await gen.requests(role, msgs)
    except ModelUnavailableError:
        raise
    except Exception as err:
        reason = f"writing requests failed: {describe_error(err)}"
        return [DemoCandidate(mode=mode, intent="", given=given, reason=reason)]
    gate = asyncio.Semaphore(gen.concurrency)

    async def one(intent: str) -> DemoCandidate:
        async with gate:
            return await judge(gen, mode, intent, given)

    return list(await asyncio.gather(*(one(i) for i in intents)))


async def input_first(gen: Generation) -> list[DemoCandidate]:
    msgs = dp.requests_messages(gen.prompts, gen.seeds, gen.count)
    return await _batch(gen, "input-first", msgs, None)


async def output_first(gen: Generation) -> list[DemoCandidate]:
    out: list[DemoCandidate] = []
    for shape in output_first_plans():
        msgs = dp.plan_requests_messages(gen.prompts, gen.seeds, shape, gen.count)
        out += await _batch(gen, "output-first", msgs, shape)
    return out


def drop_duplicates(
    seeds: Sequence[Demonstration], found: Sequence[DemoCandidate]
) -> list[DemoCandidate]:
    """A kept request equal to a seed's or an earlier kept one is dropped."""
    seen = {normalized(d.intent) for d in seeds}
    out = []
    for c in found:
        key = normalized(c.intent)
        if c.kept and key in seen:
            c = c.model_copy(update={"kept": False, "reason": "duplicate request"})
        elif c.kept:
            seen.add(key)
        out.append(c)
    return out


async def generate(gen: Generation, modes: Sequence[Mode]) -> list[DemoCandidate]:
    """Every generated request with its verdict, input-first first."""
    found: list[DemoCandidate] = []
    if "input-first" in modes:
        found += await input_first(gen)
    if "output-first" in modes:
        found += await output_first(gen)
    return drop_duplicates(gen.seeds, found)


def demonstrations(
    seeds: Sequence[Demonstration], found: Sequence[DemoCandidate]
) -> list[Demonstration]:
    """The file's demonstrations: the seeds, then the kept ones."""
    kept = [Demonstration(intent=c.intent, plan=c.plan) for c in found if c.kept]
    return [*seeds, *kept]
