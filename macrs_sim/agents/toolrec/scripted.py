"""Scripted answers for ToolRec's roles, so the loop runs end to end without a model.

The surrogate user plays a fixed plan, one action per round (it counts the "Action N:"
lines of its scratchpad): retrieve by the first attribute the prompt lists, complement by
the second, rank by the first, finish. "w/ Plan" writes that same plan at once. The rank
tool keeps the candidates' order; LLMRank answers the candidates' titles in the order
given. All read only the request, so concurrent dialogues get the same answers as serial
ones; the patterns read the prompts in any domain's words ("top 10 movies", "products").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pydantic import BaseModel

from macrs_sim.agents.toolrec.actions import PlanOutput, RankOutput, SimulationStep
from macrs_sim.llm.base import message_text
from macrs_sim.llm.scripted import Rule, ScriptedRequest

_ATTRIBUTES = re.compile(r"conditioned on one attribute \(([^)]*)\)")
_DONE = re.compile(r"^Action \d+:", re.MULTILINE)
_CANDIDATE = re.compile(r"^\d+\. ([^:\s]+): ", re.MULTILINE)
_TOP_K = re.compile(r"output top (\d+) ")
_LLMRANK = re.compile(r"candidate [\w ]+ that I can [\w ]+ next:\n(.*?)\nPlease rank", re.S)
_CANDIDATES = re.compile(r"^Candidate [\w ]+:$", re.MULTILINE)


def scripted_plan(attributes: Sequence[str]) -> list[str]:
    first = attributes[0] if attributes else "genre"
    second = [f"retrieve[{attributes[1]}, 5]"] if len(attributes) > 1 else []
    return [f"retrieve[{first}, 10]", *second, f"rank[{first}, 10]", "finish"]


def _text(req: ScriptedRequest, index: int) -> str:
    return message_text(req.messages[index]) if len(req.messages) > abs(index) else ""


def _plan(req: ScriptedRequest) -> list[str]:
    found = _ATTRIBUTES.search(_text(req, 0))
    return scripted_plan([a.strip() for a in found.group(1).split(",")] if found else [])


def plan(req: ScriptedRequest) -> BaseModel:
    return PlanOutput(plan=_plan(req))


def llmrank(req: ScriptedRequest) -> str:
    """'1. Title (Year)' per candidate, in the order the prompt lists them."""
    found = _LLMRANK.search(_text(req, 0))
    lines = found.group(1).splitlines() if found else []
    titles = [line.split(". ", 1)[1] for line in lines if ". " in line]
    return "\n".join(f"{n}. {t}" for n, t in enumerate(titles, 1))


def simulate(req: ScriptedRequest) -> BaseModel:
    plan = _plan(req)
    done = len(_DONE.findall(_text(req, -1)))
    action = plan[min(done, len(plan) - 1)]
    return SimulationStep(thought=f"Step {done + 1} of my plan.", action=action)


def rank(req: ScriptedRequest) -> BaseModel:
    """The candidates in the order given (the first user message), the top k."""
    first = _text(req, 1)
    k = _TOP_K.search(first)
    items = _CANDIDATE.findall(_CANDIDATES.split(first, maxsplit=1)[-1])
    return RankOutput(items=items[: int(k.group(1))] if k else items)


def toolrec_scripted_rules(catalog_titles: Sequence[str] = ()) -> dict[str, Rule]:
    """The registry's signature (catalog titles); the rules need only the prompts."""
    return {"toolrec.simulate": simulate, "toolrec.rank": rank, "toolrec.plan": plan,
            "toolrec.llmrank": llmrank}  # fmt: skip
