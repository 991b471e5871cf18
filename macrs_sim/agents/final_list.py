"""The fallback list's prompt, shared by every system: the first request and the follow-up.

The follow-up (agents/base.py: `given` not empty) names the items already given and asks
for the missing ones, so a model that repeated itself gets one chance to complete the list.
"""

from __future__ import annotations

from collections.abc import Sequence

from autogen_core.models import LLMMessage, SystemMessage, UserMessage

from macrs_sim.agents.rendering import render_history, render_list
from macrs_sim.prompts import PromptTemplate
from macrs_sim.protocol import ItemRef, Utterance


def final_list_messages(
    template: PromptTemplate,
    history: Sequence[Utterance],
    profile_text: str,
    k: int,
    given: Sequence[str] = (),
) -> list[LLMMessage]:
    """`given`: titles already in the list; not empty on the follow-up request."""
    values: dict[str, object] = {
        "dialogue_history": render_history(history),
        "user_profile": profile_text,
        "k": k,
    }
    if given:
        user = template.render("more", given=render_list(given), **values)
    else:
        user = template.render("user", **values)
    return [
        SystemMessage(content=template.render("system")),
        UserMessage(content=user, source="user"),
    ]


def given_titles(given: Sequence[ItemRef]) -> list[str]:
    return [ref.title for ref in given]
