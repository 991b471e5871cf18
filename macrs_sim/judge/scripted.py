"""Scripted answers for the judge's roles, so the scripted backend runs the judge end to end.

The scripted judge reads the two responses back from the prompt and decides on
their content only (never their position), so both orders agree, as an unbiased
judge would.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

from pydantic import BaseModel

from macrs_sim.agents.macrs.schemas import RecommendOutput
from macrs_sim.data.domain import MOVIES, Domain
from macrs_sim.judge.schemas import Choice, JudgeVerdict
from macrs_sim.llm.base import message_text
from macrs_sim.llm.scripted import Rule, ScriptedRequest

# The layout of prompts/judge.txt's [user] section around the two responses.
_SHOWN = re.compile(r"\nResponse A:\n(.*?)\n\nResponse B:\n(.*?)\n\nCompare ", re.DOTALL)
_OTHER: dict[Choice, Choice] = {"A": "B", "B": "A", "tie": "tie"}


def plain_text(domain: Domain = MOVIES) -> str:
    """What a regenerated ask or chat response says, in the domain's words."""
    return f"Tell me more about the {domain.plural} you like."


SCRIPTED_PLAIN_TEXT = plain_text()  # films'


def presented_responses(request: ScriptedRequest) -> tuple[str, str] | None:
    """Responses A and B as the judge prompt showed them; None if the layout is not found."""
    for message in request.messages:  # repair turns come after the prompt: search them all
        found = _SHOWN.search(message_text(message))
        if found:
            return found.group(1), found.group(2)
    return None


def scripted_verdict(request: ScriptedRequest) -> JudgeVerdict:
    """More words means more information and engagement (and wins); fewer, more concise."""
    shown = presented_responses(request)
    a, b = (len(t.split()) for t in shown) if shown else (0, 0)
    more: Choice = "A" if a > b else "B" if b > a else "tie"
    fewer = _OTHER[more]
    return JudgeVerdict(
        recommendation_accuracy="tie",
        information_gain=more,
        conciseness=fewer,
        engagement=more,
        winner=more,
    )


def judge_scripted_rules(catalog_titles: Sequence[str], domain: Domain = MOVIES) -> dict[str, Rule]:
    """Rules for roles "judge" and "judge_regenerate" (merge into `default_scripted_rules`)."""
    titles = list(catalog_titles)

    def regenerate(req: ScriptedRequest) -> str | BaseModel:
        # The recommend responder asks for RecommendOutput; ask and chat want plain text.
        if req.schema is None or not issubclass(req.schema, RecommendOutput):
            return plain_text(domain)
        key = f"{req.context.dialogue_id}|{req.context.turn}|judge"
        index = int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big") % len(titles)
        title = titles[index]
        return RecommendOutput(item_title=title, response=f"Without a hint, I'd pick {title}.")

    return {"judge": scripted_verdict, "judge_regenerate": regenerate}
