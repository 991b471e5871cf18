"""The fallback list's prompt, shared by every system: the first request and the follow-up.

The follow-up (agents/base.py: `given` not empty) names the items already given and asks
for the missing ones, so a model that repeated itself gets one chance to complete the list.
"""

from __future__ import annotations

from collections.abc import Sequence

from autogen_core.models import LLMMessage

from macrs_sim.agents.prompt_layout import dialogue_messages
from macrs_sim.agents.rendering import render_list
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
    values: dict[str, object] = {"user_profile": profile_text, "k": k}
    if given:
        section, values["given"] = "more", render_list(given)
    else:
        section = "user"
    return dialogue_messages(
        template.layout,
        template.render("system"),
        lambda transcript: template.render(section, dialogue_history=transcript, **values),
        history,
        me="system",
    )


def given_titles(given: Sequence[ItemRef]) -> list[str]:
    return [ref.title for ref in given]
