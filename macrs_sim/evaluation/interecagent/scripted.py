"""Scripted answers for the one-turn task, so it runs end to end on the scripted backend.

The generators read their prompt: retrieval writes a two-round conversation (the user names
the first history title, then the target's first genre and decade; the assistant's last
message is the placeholder recommendation); ranking writes the paper's example question
with the candidates as given. InteRecAgent's planner notes the titles the user says they liked and
gets one more case: a request listing candidates is planned as store, rank by preference,
fetch them all (the paper's ranking plan); anything else is planned by its own scripted
planner, the appended instruction left out (its words are not the user's wishes). The LLM
rows: "LLM only" ranks the listed candidates in reverse, or (retrieval) names the liked
titles and a film the catalog lacks; Chat-Rec picks the first n candidates it is given.
The prompts are read, and the texts written, in the dataset's domain's words.
"""

from __future__ import annotations

import re

from pydantic import BaseModel

from macrs_sim.agents.interecagent.schemas import PlanOutput, PlanStep, ProfileUpdate
from macrs_sim.agents.interecagent.scripted import (
    interecagent_scripted_rules,
    latest_request,
    prompt_category_column,
    prompt_genres,
    scripted_plan,
)
from macrs_sim.data.domain import MOVIES, Domain
from macrs_sim.data.domain_words import plural_of
from macrs_sim.evaluation.interecagent.requests import ROLE_PREFIX
from macrs_sim.evaluation.interecagent.schemas import GeneratedConversation, GeneratedMessage
from macrs_sim.llm.base import message_text
from macrs_sim.llm.scripted import Rule, ScriptedRequest

_HISTORY = re.compile(r"historical [\w ]+ are: (.*)$", re.MULTILINE)
_INFO = re.compile(r"that the user are looking for: (.*)$", re.MULTILINE)
_CANDIDATE_LINE = re.compile(r"rank those candidates: (.*)$", re.MULTILINE)
_YEAR = re.compile(r"released in (\d{4})")
_LISTED = re.compile(r"candidates in my mind: (.*?)\. Could you")
_POOL = re.compile(r"likely to like: (.*)$", re.MULTILINE)
_SELECT = re.compile(r"select (\d+) ")
# What the scripted users say they liked: "User: I liked X." or "I enjoyed X in the past".
_LIKED = re.compile(r"^User: I liked (.+)\.$|I enjoyed (.+?) in the past", re.MULTILINE)
LISTED_QUESTION = (
    "I enjoyed {liked} in the past, now I want some new {items}. I have some candidates in my"
    " mind: {candidates}. Could you please rank them based on my preference?"
)


def _found(pattern: re.Pattern[str], text: str) -> str:
    match = pattern.search(text)
    return match.group(1).strip() if match else ""


def _prompt(req: ScriptedRequest) -> str:
    return message_text(req.messages[-1]) if req.messages else ""


def first_title(history: str, domain: Domain = MOVIES) -> str:
    return history.split("; ")[0] if history else f"a few {domain.plural}"


def wish(info: str, domain: Domain = MOVIES) -> str:
    """'Something Crime from the 1990s.' from the target information (its "genres: ...", in
    the domain's words: target_info)."""
    categories = re.compile(rf"{plural_of(domain.category_label)}: ([^;.]*)")
    genre = _found(categories, info).split(",")[0].strip()
    year = _found(_YEAR, info)
    decade = f" from the {year[:3]}0s" if year else ""
    return f"Something {genre}{decade}." if genre else f"Something new{decade}."


def retrieval_conversation(req: ScriptedRequest, domain: Domain = MOVIES) -> BaseModel:
    text = _prompt(req)
    liked = first_title(_found(_HISTORY, text), domain)
    return GeneratedConversation(messages=[
        GeneratedMessage(role="User", text=f"I liked {liked}.", mentioned_items=[liked]),
        GeneratedMessage(role="Assistant", text="Nice. What are you in the mood for now?"),
        GeneratedMessage(role="User", text=wish(_found(_INFO, text), domain)),
        # The prompt's placeholder for the target: the domain's noun ('movie').
        GeneratedMessage(role="Assistant", text=f"Then you will like {domain.noun}."),
    ])  # fmt: skip


def ranking_question(req: ScriptedRequest, domain: Domain = MOVIES) -> str:
    text = _prompt(req)
    liked = first_title(_found(_HISTORY, text), domain)
    candidates = _found(_CANDIDATE_LINE, text)
    return LISTED_QUESTION.format(liked=liked, items=domain.plural, candidates=candidates)


def liked_titles(text: str) -> list[str]:
    return [a or b for a, b in _LIKED.findall(text)]


def one_turn_planner(fetch_k: int, instruction: str) -> Rule:
    def planner(req: ScriptedRequest) -> BaseModel:
        request = latest_request(req).replace(instruction, "").strip()
        profile = ProfileUpdate(like=liked_titles(_prompt(req)))
        listed = _found(_LISTED, request)
        if listed:
            items = [t.strip() for t in listed.split("; ") if t.strip()]
            return PlanOutput(profile=profile, plan=[
                PlanStep(tool="store_candidates", input={"items": items}),
                PlanStep(tool="rank_candidates", input={"by": "preference"}),
                PlanStep(tool="fetch_candidates", input={"k": len(items)}),
            ])  # fmt: skip
        plan = scripted_plan(request, prompt_genres(req), fetch_k, prompt_category_column(req))
        return PlanOutput(profile=profile, plan=plan)

    return planner


def llm_only_answer(req: ScriptedRequest, domain: Domain = MOVIES) -> str:
    """Ranking: the listed candidates in reverse; retrieval: the liked titles, then an item
    the catalog has not ("Not A Film (2001)")."""
    text = _prompt(req)
    listed = _found(_LISTED, text)
    missing = f"Not A {domain.synonym.title()} (2001)"
    titles = listed.split("; ")[::-1] if listed else [*liked_titles(text), missing]
    return "\n".join(f"{n}. {t}" for n, t in enumerate(titles, start=1))


def chat_rec_answer(req: ScriptedRequest) -> str:
    """The first n of the candidates given."""
    text = _prompt(req)
    pool = [t for t in _found(_POOL, text).split("; ") if t]
    n = int(_found(_SELECT, text) or 1)
    return "\n".join(f"{i}. {t}" for i, t in enumerate(pool[:n], start=1))


def one_turn_scripted_rules(
    fetch_k: int, instruction: str, domain: Domain = MOVIES
) -> dict[str, Rule]:
    """InteRecAgent's rules (fetching `fetch_k`), the two generators and the LLM rows, in
    `domain`'s words."""
    return {
        **interecagent_scripted_rules((), fetch_k=fetch_k, domain=domain),
        "interecagent.planner": one_turn_planner(fetch_k, instruction),
        ROLE_PREFIX + "retrieval": lambda req: retrieval_conversation(req, domain),
        ROLE_PREFIX + "ranking": lambda req: ranking_question(req, domain),
        ROLE_PREFIX + "llm_only": lambda req: llm_only_answer(req, domain),
        ROLE_PREFIX + "chat_rec": chat_rec_answer,
    }
