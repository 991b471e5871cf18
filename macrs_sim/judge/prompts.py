"""Pure prompt builders for the suggestion judge: the counterfactual responder and the judge.

The counterfactual goes through MACRS's own `responder_messages` with the stored
D_h and U_p and an empty suggestion, so its prompt differs from the one the
responder saw only in the suggestion line ("(none)", as for MACRS without
strategy reflection).
"""

from __future__ import annotations

from collections.abc import Sequence

from autogen_core.models import LLMMessage, SystemMessage, UserMessage

from macrs_sim.agents.macrs.messages import RespondRequest
from macrs_sim.agents.macrs.prompts import responder_messages
from macrs_sim.agents.rendering import render_history, render_text
from macrs_sim.judge.schemas import JudgePair
from macrs_sim.prompts import PromptLibrary, PromptTemplate
from macrs_sim.protocol import Utterance

JUDGE_PROMPT = "judge"


def responder_prompt_name(act: str) -> str:
    """The template MACRS registers for a responder act (see `register_roles`)."""
    return f"responder_{act}"


def regenerate_request(pair: JudgePair) -> RespondRequest:
    return RespondRequest(
        turn=pair.turn, dialogue_history=list(pair.history), profile=pair.profile, suggestion=""
    )


def regenerate_messages(prompts: PromptLibrary, pair: JudgePair) -> list[LLMMessage]:
    """In the layout the run used for the pair's system (`pair.layout`), else the library's."""
    library = prompts.with_layout(pair.layout) if pair.layout else prompts
    template = library.get(responder_prompt_name(pair.act))
    return responder_messages(template, regenerate_request(pair))


def judge_messages(
    template: PromptTemplate,
    history: Sequence[Utterance],
    response_a: str,
    response_b: str,
) -> list[LLMMessage]:
    """The judge sees the dialogue so far and two responses, never which one had a suggestion."""
    return [
        SystemMessage(content=template.render("system")),
        UserMessage(
            content=template.render(
                "user",
                dialogue_history=render_history(history),
                response_a=render_text(response_a),
                response_b=render_text(response_b),
            ),
            source="user",
        ),
    ]
