"""Scripted answers for InteRecAgent's roles, so the system runs end to end without a model.

The planner reads the latest user message: genres it names and a decade ("1990s") become the
hard filter's SQL condition, over the category column the prompt's schema names (genres for
films, categories elsewhere); then rank by preference and fetch. A message with no taste in it
("hi", "thanks") gets a plan with no tool (chit-chat). ReAct plays the same plan one step
per call, then finishes. The critic approves; tests swap in a negative one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pydantic import BaseModel

from macrs_sim.agents.interecagent.schemas import (
    CriticOutput,
    PlanOutput,
    PlanStep,
    ProfileSummary,
    ReactStep,
)
from macrs_sim.agents.scripted_words import ask_line
from macrs_sim.data.domain import MOVIES, Domain
from macrs_sim.llm.base import message_text
from macrs_sim.llm.scripted import Rule, ScriptedRequest

# "Genres in the catalog", in the domain's words ("Cuisines in the catalog").
_GENRES = re.compile(r"^\w+ in the catalog \(hard_filter knows only these\): (.*)$", re.M)
# The items table's category list column, as the planner's schema text names it.
_CATEGORY_COLUMN = re.compile(r"^items\(item_id TEXT, title TEXT, year INTEGER, (\S+) TEXT", re.M)
_LATEST = re.compile(r"^The user's latest message: (.*)$", re.MULTILINE)
_DECADE = re.compile(r"\b(1[89]\d|20\d)0s\b")
_SHOWN = re.compile(r"^\d+\. (.+)$", re.MULTILINE)
_CHAT = re.compile(r"^(hi|hello|hey|thanks|thank you|bye)\b[\s!.]*$", re.IGNORECASE)


def _user_text(req: ScriptedRequest) -> str:
    return message_text(req.messages[-1]) if req.messages else ""


def latest_request(req: ScriptedRequest) -> str:
    found = _LATEST.findall(_user_text(req))
    return found[-1].strip() if found else ""


def scripted_condition(request: str, genres: Sequence[str], column: str = "genres") -> str:
    """The SQL condition (what follows WHERE) for the genres and decade the request names;
    `column` is the items table's category list."""
    named = [g for g in genres if re.search(rf"\b{re.escape(g)}\b", request, re.IGNORECASE)]
    parts = ["{} LIKE '%{}%'".format(column, g.replace("'", "''")) for g in named[:2]]
    decade = _DECADE.search(request)
    if decade:
        start = int(decade.group(1)) * 10
        parts.append(f"year BETWEEN {start} AND {start + 9}")
    return " AND ".join(parts)


def scripted_plan(
    request: str, genres: Sequence[str], k: int = 3, column: str = "genres"
) -> list[PlanStep]:
    if _CHAT.match(request.strip()):
        return []
    condition = scripted_condition(request, genres, column)
    steps = [PlanStep(tool="hard_filter", input={"condition": condition})] if condition else []
    return [*steps, PlanStep(tool="rank_candidates", input={"by": "preference"}),
            PlanStep(tool="fetch_candidates", input={"k": k})]  # fmt: skip


def scripted_reply(req: ScriptedRequest, domain: Domain = MOVIES) -> str:
    text = _user_text(req)
    result = text.split("Result of the last tool:", 1)[-1]
    titles = [t.strip() for t in _SHOWN.findall(result)]
    if titles:
        return "You might enjoy " + "; ".join(titles) + "."
    return ask_line(domain)


def prompt_genres(req: ScriptedRequest) -> list[str]:
    """The genre list the planner prompt gives (the first message, the system prompt)."""
    found = _GENRES.findall(message_text(req.messages[0])) if req.messages else []
    return [g.strip() for g in found[0].split(",") if g.strip()] if found else []


def prompt_category_column(req: ScriptedRequest) -> str:
    """The category column the planner prompt's schema names; films' when it names none."""
    found = _CATEGORY_COLUMN.search(message_text(req.messages[0])) if req.messages else None
    return found.group(1) if found else "genres"


def _plan(req: ScriptedRequest, fetch_k: int) -> list[PlanStep]:
    return scripted_plan(latest_request(req), prompt_genres(req), fetch_k,
                         prompt_category_column(req))  # fmt: skip


def interecagent_scripted_rules(
    catalog_titles: Sequence[str] = (), fetch_k: int = 3, *, domain: Domain = MOVIES
) -> dict[str, Rule]:
    """The registry's signature (catalog titles, domain); the plans need only the prompt's
    genres, the reply with nothing to show asks in `domain`'s words."""

    def planner(req: ScriptedRequest) -> BaseModel:
        return PlanOutput(plan=_plan(req, fetch_k))

    def react(req: ScriptedRequest) -> BaseModel:
        plan = _plan(req, fetch_k)
        done = len(re.findall(r"^\d+\. ", _user_text(req).split("Steps so far:", 1)[-1], re.M))
        if done >= len(plan):
            return ReactStep(tool="finish", response="Here are my picks for you.")
        step = plan[done]
        return ReactStep(thought=f"step {done + 1}", tool=step.tool, input=step.input)

    return {
        "interecagent.planner": planner,
        "interecagent.react": react,
        "interecagent.reply": lambda req: scripted_reply(req, domain),
        "interecagent.critic": lambda req: CriticOutput(correct=True),
        # The dialogue window's summary: nothing lasting is read from the scripted turns.
        "interecagent.profile": lambda req: ProfileSummary(),
    }
