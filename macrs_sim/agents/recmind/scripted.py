"""Scripted answers for RecMind's roles, so every planner runs end to end without a model.

The policy reads the prompt: no state yet -> Search the user's request (or the task);
one state -> SQL about the user's ratings; then Finish with the titles the searches found
(a rating question gets the number the database gave, else 3). ToT's candidates are the
policy's step and variants of it, and the vote picks the first; inspire offers one
alternative (the ratings query, as a second path) after the first step only. The tools'
wording roles echo what they were given, so observations carry the titles on. What the
policy says of items is in the domain's words (films: as it always was).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pydantic import BaseModel

from macrs_sim.agents.recmind.schemas import (
    AnswerOutput,
    CandidatesOutput,
    InspireOutput,
    StepOutput,
    VoteOutput,
)
from macrs_sim.agents.scripted_words import ask_line
from macrs_sim.data.domain import MOVIES, Domain
from macrs_sim.llm.base import message_text
from macrs_sim.llm.scripted import Rule, ScriptedRequest

_STEP = re.compile(r"^(?:\[path \d+\] )?Step \d+$", re.MULTILINE)
_USER = re.compile(r"\buser ([A-Za-z0-9_.:-]+?)[.,']?(?:\s|$)")
_LATEST = re.compile(r"^The user's latest message: (.*)$", re.MULTILINE)
_FOUND = re.compile(r"Found: (.*?)\.$", re.MULTILINE)
_NUMBER = re.compile(r"\b\d+(?:\.\d+)?\b")
_OBSERVED = re.compile(r"^Observation: (.*)$", re.MULTILINE)
_TITLE = re.compile(r"^(.+?\(\d{4}\))\.|^([^.]+)\.")
_RATED_HIGHEST = re.compile(r"^Which [\w ]+ has user ")


def _text(req: ScriptedRequest) -> str:
    return message_text(req.messages[-1]) if req.messages else ""


def _task(text: str) -> str:
    found = re.search(r"^Task: (.*?)(?:\n\n|\Z)", text, re.MULTILINE | re.DOTALL)
    return found.group(1) if found else text


def _user_id(text: str) -> str:
    found = _USER.search(text)
    return found.group(1) if found else "unknown"


def _found(text: str) -> list[str]:
    titles: list[str] = []
    for group in _FOUND.findall(text):
        titles += [t.strip() for t in group.split(";") if t.strip() and t.strip() not in titles]
    return titles


def _is_rating(task: str) -> bool:
    return "rate" in task and "1 to 5" in task


def finish_step(text: str, k: int = 3, domain: Domain = MOVIES) -> StepOutput:
    task = _task(text)
    if _is_rating(task):
        seen = _OBSERVED.findall(text)
        numbers = [float(n) for n in _NUMBER.findall(seen[-1])] if seen else []
        valid = [n for n in numbers if 1 <= n <= 5]
        answer = f"{round(valid[-1])}" if valid else "3"
        return StepOutput(thought="I can answer.", action="Finish", argument=answer)
    titles = _found(text)[:k]
    if not titles:
        return StepOutput(thought="Ask first.", action="Finish",
                          argument=ask_line(domain))  # fmt: skip
    answer = "You might enjoy " + "; ".join(titles) + "."
    return StepOutput(thought="I have candidates.", action="Finish", argument=answer, items=titles)


def policy_step(text: str, domain: Domain = MOVIES) -> StepOutput:
    done = len(_STEP.findall(text))
    task = _task(text)
    latest = _LATEST.findall(task)
    if done == 0:
        query = latest[-1] if latest else task.splitlines()[0]
        return StepOutput(thought="Search for fitting items.", action="Search", argument=query)
    if done == 1:
        return ratings_step(task, domain)
    return finish_step(text, domain=domain)


def ratings_step(task: str, domain: Domain = MOVIES) -> StepOutput:
    uid = _user_id(task)
    if _is_rating(task):
        question = f"What is the average rating user {uid} gives?"
    else:
        question = f"Which {domain.plural} has user {uid} rated highest?"
    return StepOutput(thought="Check the user's ratings.", action="SQL", argument=question)


def scripted_sql(question: str) -> str:
    uid = _user_id(question)
    if "average rating" in question:
        return f"SELECT ROUND(AVG(rating), 1) AS average FROM user_ratings WHERE user_id = '{uid}'"
    if _RATED_HIGHEST.match(question):
        return ("SELECT i.title, i.year, r.rating FROM user_ratings r JOIN items i ON "
                f"i.item_id = r.item_id WHERE r.user_id = '{uid}' "
                "ORDER BY r.rating DESC, r.position DESC LIMIT 3")  # fmt: skip
    return "SELECT title, year FROM items ORDER BY n_interactions DESC, item_id LIMIT 3"


def _after(text: str, marker: str) -> list[str]:
    tail = text.split(marker, 1)[-1]
    return [line.strip() for line in tail.splitlines() if line.strip()]


def search_titles(text: str) -> list[str]:
    titles = []
    for line in _after(text, "Search result:"):
        m = _TITLE.match(line)
        if m:
            titles.append((m.group(1) or m.group(2)).strip())
    return titles


def _question(text: str) -> str:
    found = re.search(r"question: (.*)$", text, re.MULTILINE)
    return found.group(1).strip() if found else ""


def _candidates(req: ScriptedRequest, domain: Domain) -> BaseModel:
    text = _text(req)
    found = re.search(r"^list (\d+) possible thoughts", text, re.MULTILINE)
    k = int(found.group(1)) if found else 3
    best = policy_step(text, domain)
    variants = [best] + [
        StepOutput(thought=f"Another idea ({j}).", action="Summarize", argument=_task(text))
        for j in range(1, k)
    ]
    return CandidatesOutput(candidates=variants[:k])


def _inspire(req: ScriptedRequest, domain: Domain) -> BaseModel:
    text = _text(req)
    previous = text.split("The previous steps are:", 1)[-1].split("You already have", 1)[0]
    if previous.strip() != "(none)":
        return InspireOutput()
    task = text.split("finishing the task: ", 1)[-1].split("\nThe previous steps are:", 1)[0]
    alt = ratings_step(task, domain)
    return InspireOutput(thought=alt.thought, action=alt.action, argument=alt.argument)


def _final(req: ScriptedRequest, domain: Domain) -> BaseModel:
    step = finish_step(_text(req), domain=domain)
    return AnswerOutput(answer=step.argument, items=step.items)


def recmind_scripted_rules(
    catalog_titles: Sequence[str] = (), *, domain: Domain = MOVIES
) -> dict[str, Rule]:
    """The registry's signature; the policy needs only the prompts (and `domain`'s words)."""
    return {
        "recmind.thought": lambda req: policy_step(_text(req), domain),
        "recmind.sample": lambda req: _candidates(req, domain),
        "recmind.vote": lambda req: VoteOutput(analysis="The first is most direct.", best=1),
        "recmind.inspire": lambda req: _inspire(req, domain),
        "recmind.final": lambda req: _final(req, domain),
        "recmind.sql": lambda req: scripted_sql(_question(_text(req))),
        "recmind.sql_answer": lambda req: (
            "The database returned: "
            + "; ".join(_after(_text(req), "Here is the database result:"))
        ),
        "recmind.search": lambda req: "Found: " + "; ".join(search_titles(_text(req))) + ".",
        "recmind.summarize": lambda req: " ".join(_after(_text(req), "meaning:"))[:200] or "-",
    }
