"""Scripted answers for demonstration generation, so `eval interecagent demos` runs offline.

They read their prompt. Input-first: the first request repeats the first seed word for word
(dropped as a duplicate), the others put "Could you help me? " before the next seeds. Output-
first: a request is put together from the plan's tools; its store_candidates wording ("I am
choosing between ...") is one the scripted planner misses, so every shape with that tool fails
the consistency check. The planner reads keywords: who/when/what is -> query_info;
"candidates"/"which of" -> store_candidates; TYPE/DATE -> hard_filter; "similar to"/"like ITEM"
-> soft_filter; a wish for movies -> rank_candidates, fetch_candidates; else no tool.
"""

from __future__ import annotations

import re

from pydantic import BaseModel

from macrs_sim.agents.interecagent.schemas import PlanStep
from macrs_sim.evaluation.interecagent.demo_gen import ROLE, GeneratedPlan, GeneratedRequests
from macrs_sim.llm.base import message_text
from macrs_sim.llm.scripted import Rule, ScriptedRequest

_NUMBER = re.compile(r"generate (\d+) new request")
_SEED = re.compile(r"^- (.+)$", re.MULTILINE)
_PLAN = re.compile(r"^Plan: (.*)$", re.MULTILINE)
_REQUEST = re.compile(r"^Request: (.*)$", re.MULTILINE)
OPENERS = ("Recommend me", "Could you find me", "I would like", "Show me")
LOOKUP = "SELECT * FROM items WHERE title = 'ITEM'"
WISH = re.compile(r"\b(recommend|find|show|suggest|movies|would like)\b", re.IGNORECASE)


def _prompt(req: ScriptedRequest) -> str:
    return message_text(req.messages[-1]) if req.messages else ""


def _number(text: str) -> int:
    found = _NUMBER.search(text)
    return int(found.group(1)) if found else 1


def input_first_requests(req: ScriptedRequest) -> BaseModel:
    text = _prompt(req)
    seeds, n = _SEED.findall(text), _number(text)
    out = [seeds[0]] if seeds else []
    out += [f"Could you help me? {s}" for s in seeds[1:n]]
    return GeneratedRequests(requests=out[:n])


def request_for(tools: list[str], i: int) -> str:
    """Request i (from 0) for the tool sequence; i > 0 ends with " (#i+1)"."""
    tag = f" (#{i + 1})" if i else ""
    if not tools:
        return f"Hello there, how is your day going?{tag}"
    if tools == ["query_info"]:
        return f"Who starred in ITEM?{tag}"
    store = "I am choosing between ITEM1, ITEM2 and ITEM3. " if "store_candidates" in tools else ""
    kind = "TYPE movies after DATE" if "hard_filter" in tools else "movies"
    like = " similar to ITEM" if "soft_filter" in tools else ""
    return f"{store}{OPENERS[i % len(OPENERS)]} some {kind}{like}.{tag}"


def output_first_requests(req: ScriptedRequest) -> BaseModel:
    text = _prompt(req)
    shown = _PLAN.findall(text)[-1].strip() if _PLAN.search(text) else "no tool"
    tools = [] if shown == "no tool" else [p.split(". ", 1)[1] for p in shown.split("; ")]
    return GeneratedRequests(requests=[request_for(tools, i) for i in range(_number(text))])


def scripted_demo_plan(request: str) -> list[PlanStep]:
    low = request.lower()
    if re.search(r"\b(who|when)\b|\bwhat is\b", low):
        return [
            PlanStep(tool="query_info", input={"sql": "SELECT * FROM items WHERE title = 'ITEM'"})
        ]
    steps = []
    if "candidates" in low or "which of" in low:
        steps.append(PlanStep(tool="store_candidates", input={"items": ["ITEM1", "ITEM2"]}))
    if "TYPE" in request or "DATE" in request:  # the SQL form (RecAI's demonstrations)
        parts = (("TYPE", "genres LIKE '%TYPE%'"), ("DATE", "year > DATE"))
        condition = " AND ".join(c for w, c in parts if w in request)
        steps.append(PlanStep(tool="hard_filter", input={"condition": condition}))
    if "similar to" in low or "like item" in low:
        steps.append(PlanStep(tool="soft_filter", input={"items": ["ITEM"]}))
    if steps or WISH.search(request):
        steps += [PlanStep(tool="rank_candidates", input={"by": "preference"}),
                  PlanStep(tool="fetch_candidates", input={})]  # fmt: skip
    return steps


def demo_planner(req: ScriptedRequest) -> BaseModel:
    found = _REQUEST.findall(_prompt(req))
    return GeneratedPlan(plan=scripted_demo_plan(found[-1].strip() if found else ""))


def demo_scripted_rules() -> dict[str, Rule]:
    return {
        ROLE + "requests": input_first_requests,
        ROLE + "plan_requests": output_first_requests,
        ROLE + "planner": demo_planner,
    }
