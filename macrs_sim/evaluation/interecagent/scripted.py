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
"""

from __future__ import annotations

import re

from pydantic import BaseModel

from macrs_sim.agents.interecagent.schemas import PlanOutput, PlanStep, ProfileUpdate
from macrs_sim.agents.interecagent.scripted import (
    interecagent_scripted_rules,
    latest_request,
    prompt_genres,
    scripted_plan,
)
from macrs_sim.evaluation.interecagent.requests import ROLE_PREFIX
from macrs_sim.evaluation.interecagent.schemas import GeneratedConversation, GeneratedMessage
from macrs_sim.llm.base import message_text
from macrs_sim.llm.scripted import Rule, ScriptedRequest

_HISTORY = re.compile(r"historical movies are: (.*)$", re.MULTILINE)
_INFO = re.compile(r"that the user are looking for: (.*)$", re.MULTILINE)
_CANDIDATE_LINE = re.compile(r"rank those candidates: (.*)$", re.MULTILINE)
_YEAR = re.compile(r"released in (\d{4})")
_GENRES = re.compile(r"genres: ([^;.]*)")
_LISTED = re.compile(r"candidates in my mind: (.*?)\. Could you")
_POOL = re.compile(r"likely to like: (.*)$", re.MULTILINE)
_SELECT = re.compile(r"select (\d+) movies")
# What the scripted users say they liked: "User: I liked X." or "I enjoyed X in the past".
_LIKED = re.compile(r"^User: I liked (.+)\.$|I enjoyed (.+?) in the past", re.MULTILINE)
LISTED_QUESTION = (
    "I enjoyed {liked} in the past, now I want some new movies. I have some candidates in my"
    " mind: {candidates}. Could you please rank them based on my preference?"
)


def _found(pattern: re.Pattern[str], text: str) -> str:
    match = pattern.search(text)
    return match.group(1).strip() if match else ""


def _prompt(req: ScriptedRequest) -> str:
    return message_text(req.messages[-1]) if req.messages else ""


def first_title(history: str) -> str:
    return history.split("; ")[0] if history else "a few movies"


def wish(info: str) -> str:
    """'Something Crime from the 1990s.' from the target information."""
    genre = _found(_GENRES, info).split(",")[0].strip()
    year = _found(_YEAR, info)
    decade = f" from the {year[:3]}0s" if year else ""
    return f"Something {genre}{decade}." if genre else f"Something new{decade}."


def retrieval_conversation(req: ScriptedRequest) -> BaseModel:
    text = _prompt(req)
    liked = first_title(_found(_HISTORY, text))
    return GeneratedConversation(messages=[
        GeneratedMessage(role="User", text=f"I liked {liked}.", mentioned_items=[liked]),
        GeneratedMessage(role="Assistant", text="Nice. What are you in the mood for now?"),
        GeneratedMessage(role="User", text=wish(_found(_INFO, text))),
        GeneratedMessage(role="Assistant", text="Then you will like movie."),
    ])  # fmt: skip


def ranking_question(req: ScriptedRequest) -> str:
    text = _prompt(req)
    liked = first_title(_found(_HISTORY, text))
    return LISTED_QUESTION.format(liked=liked, candidates=_found(_CANDIDATE_LINE, text))


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
        plan = scripted_plan(request, prompt_genres(req), fetch_k)
        return PlanOutput(profile=profile, plan=plan)

    return planner


def llm_only_answer(req: ScriptedRequest) -> str:
    """Ranking: the listed candidates in reverse; retrieval: the liked titles, then a film the
    catalog has not."""
    text = _prompt(req)
    listed = _found(_LISTED, text)
    titles = listed.split("; ")[::-1] if listed else [*liked_titles(text), "Not A Film (2001)"]
    return "\n".join(f"{n}. {t}" for n, t in enumerate(titles, start=1))


def chat_rec_answer(req: ScriptedRequest) -> str:
    """The first n of the candidates given."""
    text = _prompt(req)
    pool = [t for t in _found(_POOL, text).split("; ") if t]
    n = int(_found(_SELECT, text) or 1)
    return "\n".join(f"{i}. {t}" for i, t in enumerate(pool[:n], start=1))


def one_turn_scripted_rules(fetch_k: int, instruction: str) -> dict[str, Rule]:
    """InteRecAgent's rules (fetching `fetch_k`), the two generators and the LLM rows."""
    return {
        **interecagent_scripted_rules((), fetch_k=fetch_k),
        "interecagent.planner": one_turn_planner(fetch_k, instruction),
        ROLE_PREFIX + "retrieval": retrieval_conversation,
        ROLE_PREFIX + "ranking": ranking_question,
        ROLE_PREFIX + "llm_only": llm_only_answer,
        ROLE_PREFIX + "chat_rec": chat_rec_answer,
    }
